/*
 * plugin_host.h - what the library backends (openssl.c, gcrypt.c,
 * nettle.c; plug-ins since issue 28) take from the host, under the names
 * the core's own code uses: each is a call through the struct cb_host the
 * plug-in was handed (include/cryptobench/plugin.h), so a backend reads
 * as before and links nothing of cryptobench.  Only the public header is
 * included; a plug-in outside this tree does the same with its own names
 * (docs/plugins.md).
 */
#ifndef CB_PLUGIN_HOST_H
#define CB_PLUGIN_HOST_H

#include <cryptobench/plugin.h>

extern const struct cb_host *plugin_host;   /* set by CB_PLUGIN_ENTRY */

#define cb_set_error(...)   plugin_host->set_error(__VA_ARGS__)
#define cb_wipe(p, n)       plugin_host->wipe(p, n)
#define cb_alg              cb_alg_info     /* the algorithm's shape    */
#define cb_alg_find(name, mult) plugin_host->alg(name)

/* The plug-in's one exported symbol, returning descriptor d. */
#define CB_PLUGIN_ENTRY(d)                                                 \
	const struct cb_host *plugin_host;                                 \
	CB_PLUGIN_EXPORT const struct cb_plugin *                          \
	cryptobench_plugin(const struct cb_host *host)                     \
	{                                                                  \
		plugin_host = host;                                        \
		return &(d);                                               \
	}

#endif
