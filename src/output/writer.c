/*
 * writer.c - what the writers of output/ share (writer.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/result.h"
#include "output/writer.h"

int cb_out_streq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int cb_out_same_section(const struct cb_result *a, const struct cb_result *b)
{
	return cb_out_streq(a->backend, b->backend) &&
	       cb_out_streq(a->driver, b->driver) &&
	       cb_out_streq(a->alg, b->alg) &&
	       cb_out_streq(a->direction, b->direction) &&
	       cb_out_streq(a->iv_mode, b->iv_mode) &&
	       a->sector_bytes == b->sector_bytes && a->mb == b->mb;
}

int cb_out_is_digest(const struct cb_result *r)
{
	return cb_out_streq(r->direction, "digest") ||
	       cb_out_streq(r->direction, "derive");
}

int cb_out_finish(FILE *f)
{
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
