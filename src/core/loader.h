/*
 * loader.h - opening plug-ins (src/core/loader.c; docs/plugins.md).  Core.
 */
#ifndef CB_LOADER_H
#define CB_LOADER_H

#include "core/cb.h"

/* The host's view of a canonical algorithm for plug-ins, or NULL. */
const struct cb_alg_info *cb_loader_alg(const char *name);

/*
 * Open file as a plug-in, hand it host, check it (against the registry
 * and the backends in have, NULL-terminated: names and driver names must
 * be new) and make *out of it.  0, or -1 with the reason in err.
 */
int cb_loader_open(const char *file, const struct cb_host *host,
                   const struct cb_backend *const *have,
                   struct cb_backend **out, char *err, size_t n);

#endif
