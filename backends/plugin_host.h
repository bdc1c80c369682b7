/*
 * plugin_host.h - what the library backends (openssl.c, gcrypt.c,
 * nettle.c; plug-ins since issue 28) take from the host, under the names
 * the core's own code uses: each is a call through the struct cb_host the
 * plug-in was handed (include/cryptobench/plugin.h), so a backend reads
 * as before and links nothing of cryptobench.  Only the public header is
 * included; a plug-in outside this tree does the same with its own names
 * (docs/plugins.md).  Also what more than one library backend needs
 * alike: ChaCha20's 32-bit counter (chacha32_*).
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

/*
 * ChaCha20 with RFC 8439's 32-bit block counter, as the
 * kernel's chacha20 (cryptobench's "chacha20": a 16-byte IV, le32 counter
 * || 96-bit nonce), for libraries whose counter is 64 bits: OpenSSL and
 * libgcrypt carry into the nonce's first word where the counter wraps
 * (djb's original ChaCha).  A request that crosses the wrap is cut there
 * and the rest started anew at counter 0 with the same nonce.  The position
 * is kept across chained requests (iv NULL), per direction.
 *
 *	size_t n = chacha32_start(&s, iv, len);     bytes before the wrap
 *	run(iv, in, out, n);
 *	if (n < len)
 *		run(chacha32_wrap(&s), in + n, out + n, len - n);
 *	chacha32_done(&s, len);
 */
struct chacha32 {
	uint8_t iv[16];     /* the IV the library's stream started from     */
	uint64_t pos;       /* keystream bytes used since then              */
	size_t cut;         /* this request: the bytes before the wrap      */
};

static inline size_t chacha32_start(struct chacha32 *s, const uint8_t *iv,
                                    size_t len)
{
	uint64_t ctr, left;

	if (iv) {
		memcpy(s->iv, iv, sizeof s->iv);
		s->pos = 0;
	}
	ctr = (uint64_t)s->iv[0] | (uint64_t)s->iv[1] << 8 |
	      (uint64_t)s->iv[2] << 16 | (uint64_t)s->iv[3] << 24;
	left = (((uint64_t)1 << 32) - ctr) * 64 - s->pos;
	s->cut = len < left ? len : (size_t)left;
	return s->cut;
}

/* The IV the rest of the request starts from: counter 0, the same nonce. */
static inline const uint8_t *chacha32_wrap(struct chacha32 *s)
{
	memset(s->iv, 0, 4);
	s->pos = 0;
	return s->iv;
}

static inline void chacha32_done(struct chacha32 *s, size_t len)
{
	s->pos = s->cut < len ? len - s->cut : s->pos + len;
}

#endif
