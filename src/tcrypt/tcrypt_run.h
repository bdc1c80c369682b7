/*
 * tcrypt_run.h - the kernel's tcrypt module run for its in-kernel timing
 * (tcrypt_run.c), used by `cryptobench tcrypt` and `bench`.
 */
#ifndef CB_TCRYPT_RUN_H
#define CB_TCRYPT_RUN_H

#include <stddef.h>

#include "output/result.h"

struct tc_req {
	const char *algs[32];       /* canonical names with a tcrypt mode     */
	size_t nalgs;
	int modes[16];              /* modes run as well (every section kept) */
	size_t nmodes;
	unsigned sec;               /* tcrypt's sec=; 0: its cycle count      */
	int sync;                   /* its synchronous modes                  */
};

/*
 * Every algorithm's mode, run once each (or the saved log text, log !=
 * NULL), parsed into results appended to *res (free with tc_free).
 * CB_EXIT_OK; CB_EXIT_SKIP when it cannot run here (not root, no module,
 * modules refused); CB_EXIT_USAGE on an error or a mode that printed no
 * section for its algorithm.  Messages printed.
 */
int tc_run(const struct tc_req *r, const char *log, struct cb_result **res,
           size_t *n);
/* 0 if tcrypt can run here (root, the module for this kernel), else -1
 * and *why */
int tc_available(const char **why);
/* a saved kernel log (at most 16 MiB), or NULL with the message printed */
char *tc_read_log(const char *path);

#endif
