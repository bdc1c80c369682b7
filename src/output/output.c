/*
 * output.c - the table of writers (output.h), a file per writer:
 * write_tcrypt.c, write_table.c, write_csv.c, write_json.c, write_dd.c
 * (geli, dd), write_cryptsetup.c; what they share is writer.c's.  Each takes
 * the whole report so that a format can size its columns (the tcrypt
 * byte field, the table's columns) from what it will print.  Writers only
 * format the numbers they are given.
 */
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "output/result.h"
#include "output/writer.h"

/* Sorted by name (tests/test_output checks it). */
const struct cb_writer cb_writers[] = {
	{ "cryptsetup", cb_write_cryptsetup,
	  "speed: cryptsetup benchmark's table; dd through dm-crypt: the "
	  "cryptsetup line, FreeBSD dd's summary" },
	{ "csv", cb_write_csv, "one row per point, docs/csv.md (RFC 4180)" },
	{ "dd", cb_write_dd, "the dd line, records and summary (no encryption)" },
	{ "geli", cb_write_geli, "dd through geli: the geli init line, FreeBSD "
	  "dd's summary" },
	{ "json", cb_write_json, "the CSV fields, raw samples, provenance "
	  "header" },
	{ "table", cb_write_table, "MB/s and cycles/byte, a column per size" },
	{ "tcrypt", cb_write_tcrypt, "the kernel's tcrypt speed lines" },
};
const size_t cb_nwriters = sizeof cb_writers / sizeof cb_writers[0];

const struct cb_writer *cb_writer_find(const char *name)
{
	for (size_t i = 0; i < cb_nwriters; i++)
		if (!strcmp(cb_writers[i].name, name))
			return &cb_writers[i];
	return NULL;
}
