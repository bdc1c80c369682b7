/* TEMPORARY during development: weak placeholders for commands still being written. */
#include "cb.h"
#include "cmd.h"
#include "util.h"
#define PENDING(f) __attribute__((weak)) int f(int argc, char **argv) \
	{ cb_err("%s: not built yet", argv[0]); return CB_EXIT_USAGE; }
static int pending_probe(const char **why) { *why = "not built yet"; return -ENOTSUP; }
#define PENDING_BACKEND(v, n) __attribute__((weak)) const struct cb_backend v = { .name = n, .probe = pending_probe };
PENDING_BACKEND(cb_backend_gcrypt, "gcrypt")
PENDING_BACKEND(cb_backend_nettle, "nettle")
PENDING_BACKEND(cb_backend_native, "native")
