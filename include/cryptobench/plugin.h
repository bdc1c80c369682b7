/*
 * cryptobench/plugin.h - the plug-in ABI of cryptobench (docs/plugins.md).
 *
 * The one header a plug-in includes.  A plug-in is a shared object that
 * exports one function, cryptobench_plugin(), returning a const descriptor
 * (struct cb_plugin): the ABI version and struct sizes it was built with,
 * a backend name, version, probe with a reason string, details, and a
 * NULL-terminated table of implementations (struct cb_impl).  What the
 * plug-in needs from the host (an error message, an algorithm's shape,
 * another implementation's digest) it gets from the table of functions
 * (struct cb_host) handed to cryptobench_plugin(); it links nothing of
 * cryptobench.
 *
 * Compatibility: CB_PLUGIN_ABI_VERSION counts incompatible changes; within
 * one version, structs only grow at their end, and each struct a plug-in
 * hands over says its size, so a host reads an older plug-in's shorter
 * structs with the new fields zero (absent).  A host loads plug-ins built
 * for versions CB_PLUGIN_ABI_MIN ... CB_PLUGIN_ABI_VERSION and refuses
 * others, naming the file and the reason.
 *
 * Types: the structs use fixed-width integers and pointers; lengths in
 * calls are size_t (the platform's C ABI, as in libc).  Functions return 0
 * or a negative errno value (-EINVAL, -ENOMEM, -EBADMSG for a failed
 * authentication, -ENOTSUP for an unsupported key size or length).
 * Implementations never print; they may set a message with the host's
 * set_error().
 */
#ifndef CRYPTOBENCH_PLUGIN_H
#define CRYPTOBENCH_PLUGIN_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CB_PLUGIN_ABI_VERSION 1   /* this header's ABI                     */
#define CB_PLUGIN_ABI_MIN     1   /* the oldest ABI a host of it loads     */
#define CB_PLUGIN_SYMBOL      "cryptobench_plugin"

/* An algorithm's kind (struct cb_alg_info.kind): which entry points an
 * implementation of it must set (docs/plugins.md). */
enum cb_kind {
	CB_CIPHER,   /* skcipher: encrypt/decrypt with IV                         */
	CB_HASH,     /* unkeyed digest: init/update/final                          */
	CB_MAC,      /* keyed digest (HMAC): setkey then init/update/final         */
	CB_AEAD,     /* AEAD (authenc, gcm, chacha20-poly1305): aead_encrypt/decrypt */
	CB_KDF,      /* key derivation: derive(password, salt, cost) -> key        */
};

/* An algorithm's flags (struct cb_alg_info.flags) */
#define CB_F_STREAM   0x01  /* cipher: a request may continue the previous one  */
#define CB_F_BLOCKLEN 0x02  /* cipher: length must be a multiple of the block   */
#define CB_F_ANYKEY   0x04  /* MAC: any whole-byte key length                   */
#define CB_F_NOKEY    0x08  /* takes no key (hashes, cipher_null): 0 bits only   */
#define CB_F_XTS      0x10  /* XTS: the key is two halves (data || tweak key)
                               and the IV is the tweak, le64(sector) || 0^8  */
#define CB_F_CHAINIV  0x20  /* cbc, ctr: after a request of whole blocks the
                               chaining value is the next request's IV (the
                               kernel's iv_out); records may check it        */
#define CB_F_AUTHENC  0x40  /* AEAD: the key is the kernel's authenc rtattr
                               blob (its key sizes: the cipher key in it);
                               AEADs without it take a plain key            */

/* An algorithm's shape, as the host's registry has it (cb_host.alg). */
struct cb_alg_info {
	uint32_t size;           /* sizeof this struct in the host          */
	uint32_t kind;           /* enum cb_kind                            */
	uint32_t block;          /* cipher block in bytes (1: a stream)     */
	uint32_t iv_len;         /* IV bytes (0: none)                      */
	uint32_t digest_len;     /* hash/MAC output, AEAD tag, KDF default  */
	uint32_t min_len;        /* cipher: shortest request (xts: 16)      */
	uint32_t flags;          /* CB_F_*                                  */
	uint32_t key_min, key_max, key_step;  /* key bits: min, min + step,
	                                         ..., max (step 0: min only) */
	const char *name;        /* canonical: "cbc(aes)"                   */
	const char *inner;       /* hmac(X): X; authenc: its MAC; or NULL   */
};

/* Feature groups a --cpu level allows (struct cb_plugin cap). */
#define CB_HW_AES    0x01u  /* AES-NI                                      */
#define CB_HW_PCLMUL 0x02u  /* PCLMULQDQ                                   */
#define CB_HW_AVX    0x04u  /* AVX (and FMA, F16C, XOP)                     */
#define CB_HW_AVX2   0x08u  /* AVX2 with BMI1/BMI2/ADX                      */
#define CB_HW_VAES   0x10u  /* VAES, VPCLMULQDQ (and GFNI)                  */
#define CB_HW_AVX512 0x20u  /* AVX-512 F/DQ/BW/VL/IFMA/VBMI...             */
#define CB_HW_SHA    0x40u  /* SHA-NI                                      */
#define CB_HW_ALL    0x7fu
/* The same groups on AArch64 (docs/cpu.md): */
#define CB_HW_NEON   CB_HW_AVX     /* Advanced SIMD (ASIMD)               */
#define CB_HW_PMULL  CB_HW_PCLMUL  /* PMULL/PMULL2                        */
#define CB_HW_SHA2   CB_HW_SHA     /* SHA-1, SHA-256 instructions          */
#define CB_HW_SHA3   CB_HW_AVX512  /* ARMv8.2 SHA-512 and SHA-3            */
/* CB_HW_AES: AESE/AESMC/AESD/AESIMC (the Crypto Extensions' AES) */

/*
 * One implementation of one algorithm.  Every context is ctx_size bytes,
 * zero-initialised by the caller, and is released with free() (which must
 * wipe key material).  Only the members for the algorithm's kind are set.
 *
 * Keys: the host checks the key size against the algorithm (-EINVAL)
 * and the driver's key_bits (-ENOTSUP) before setkey() runs; hashes get
 * key NULL, MACs always a non-NULL key (possibly 0 bytes).
 *
 * Lengths: cbc/ecb/essiv take a multiple of the block (0 allowed), ctr and
 * the null cipher any length, xts at least 16 bytes; anything else is
 * -EINVAL.
 *
 * Cipher requests: encrypt/decrypt(ctx, iv, in, out, len).  in == out is
 * allowed (in place).  iv != NULL starts a new request with that IV
 * (iv_len bytes); iv == NULL continues the previous request's chain (CBC:
 * the last ciphertext block; CTR: the counter) and is only used for
 * algorithms with CB_F_STREAM.  For XTS iv == NULL reuses the last tweak.
 *
 * Multi-sector requests (optional, NULL if absent): encrypt_sectors /
 * decrypt_sectors process len bytes as consecutive sector_size-byte
 * sectors; sector k (from 0) gets the IV le64(first_iv + k * iv_step) ||
 * 0^8 (plain64; for essiv this is the input IV).  iv_step is 1 when IVs
 * count the sectors themselves, sector_size / 512 for dm-crypt's default
 * numbering in 512-byte units.  The caller falls back to one encrypt() per
 * sector when these are NULL.
 *
 * Requests in flight (optional, NULL if absent): encrypt_batch /
 * decrypt_batch run n independent requests of len bytes each, request i
 * from in[i] to out[i] with IV ivs[i] (ivs NULL for algorithms without
 * an IV) - tcrypt's multibuffer mode, an async driver's queue.  An
 * implementation that has them interleaves the requests' chains; for the
 * others the host runs the n requests one after another, so the
 * two are compared like for like.
 *
 * Hash/MAC: init(ctx) starts a message, update() adds bytes, final() writes
 * digest_len bytes.  MACs get their key in setkey() first.
 *
 * AEAD: aead_encrypt writes len bytes of ciphertext and taglen bytes of
 * tag; aead_decrypt returns -EBADMSG when the tag does not verify (and
 * then out is unspecified).  authenc (CB_F_AUTHENC): the key is the
 * kernel's rtattr blob (see docs/vectors.md), tag = HMAC(authkey, ad ||
 * ct) truncated.  gcm(aes): a 12-byte IV; rfc4106(gcm(aes)): the key is
 * the AES key || a 4-byte salt, the IV 8 bytes, and ad ends with 8 bytes
 * (ESP's copy of the IV) that are not authenticated, as the kernel's;
 * rfc7539(chacha20,poly1305): a 32-byte key, a 12-byte IV.
 *
 * KDF: derive() writes outlen bytes derived from the password and salt at
 * the cost in p (PBKDF2: iterations; Argon2: passes, KiB, lanes, and the
 * optional secret and associated data, RFC 9106 K and X).  No key: the
 * instance is made with none.  An implementation that cannot take an input
 * (a secret, a size) returns -ENOTSUP with the reason set.
 */
/* A key derivation's cost and extra inputs (struct cb_impl.derive). */
struct cb_kdf_params {
	uint32_t iterations;     /* pbkdf2: iterations; argon2: passes (t)     */
	uint32_t memory;         /* argon2: memory in KiB (m); else 0          */
	uint32_t lanes;          /* argon2: parallelism (p); else 0            */
	const uint8_t *secret;   /* argon2: the secret K, or NULL              */
	size_t secret_len;
	const uint8_t *ad;       /* argon2: the associated data X, or NULL     */
	size_t ad_len;
};

/* A cipher request: encrypt/decrypt below, and their callers. */
typedef int32_t (*cb_crypt_fn)(void *ctx, const uint8_t *iv, const uint8_t *in,
                           uint8_t *out, size_t len);

/* Little-endian 64-bit store: sector numbers, IVs, geli offsets.  One
 * 8-byte store: a wider load of it soon after (an IV, a group of tweaks
 * for one ECB call) then waits for one store, not for eight byte stores
 * that cannot forward to it (16 % of a 512-byte-sector XTS run). */
static inline void cb_put_le64(uint8_t *p, uint64_t v)
{
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, sizeof v);
}

struct cb_impl {
	const char *alg;         /* canonical algorithm name                        */
	const char *driver;      /* unique driver name, "cbc-aes-openssl"           */
	int32_t priority;         /* higher is preferred, as in the kernel           */
	uint64_t ctx_size;
	const void *priv;        /* backend data (e.g. EVP name); not for callers   */

	/* 0 if this implementation can run here; else -ENOTSUP and *why set. */
	int32_t (*probe)(const struct cb_impl *impl, const char **why);

	int32_t (*setkey)(void *ctx, const struct cb_impl *impl,
	              const uint8_t *key, size_t keylen);  /* hashes: key NULL */
	void (*free)(void *ctx);

	cb_crypt_fn encrypt;
	cb_crypt_fn decrypt;
	int32_t (*encrypt_sectors)(void *ctx, uint64_t first_iv, uint64_t iv_step,
	                       size_t sector_size, const uint8_t *in,
	                       uint8_t *out, size_t len);
	int32_t (*decrypt_sectors)(void *ctx, uint64_t first_iv, uint64_t iv_step,
	                       size_t sector_size, const uint8_t *in,
	                       uint8_t *out, size_t len);
	int32_t (*encrypt_batch)(void *ctx, uint32_t n, const uint8_t *const *ivs,
	                     const uint8_t *const *in, uint8_t *const *out,
	                     size_t len);
	int32_t (*decrypt_batch)(void *ctx, uint32_t n, const uint8_t *const *ivs,
	                     const uint8_t *const *in, uint8_t *const *out,
	                     size_t len);

	int32_t (*init)(void *ctx);
	int32_t (*update)(void *ctx, const uint8_t *in, size_t len);
	int32_t (*final)(void *ctx, uint8_t *out);

	int32_t (*aead_encrypt)(void *ctx, const uint8_t *iv, const uint8_t *ad,
	                    size_t adlen, const uint8_t *in, uint8_t *out,
	                    size_t len, uint8_t *tag, size_t taglen);
	int32_t (*aead_decrypt)(void *ctx, const uint8_t *iv, const uint8_t *ad,
	                    size_t adlen, const uint8_t *in, uint8_t *out,
	                    size_t len, const uint8_t *tag, size_t taglen);

	int32_t (*derive)(void *ctx, const struct cb_impl *impl,
	              const uint8_t *pass, size_t passlen, const uint8_t *salt,
	              size_t saltlen, const struct cb_kdf_params *p,
	              uint8_t *out, size_t outlen);

	const uint32_t *key_bits; /* NULL: the algorithm's sizes; else a
	                             0-terminated list this driver accepts */
	const char *note;         /* more words for `list` (the kernel's
	                             module and selftest state), or NULL */
	int32_t no_chain;           /* 1: iv == NULL is refused even where the
	                             algorithm streams - every request takes
	                             its IV (the kernel's essiv) */
};
/* What the host offers a plug-in (handed to cryptobench_plugin()). */
struct cb_host {
	uint32_t abi_version;    /* the host's CB_PLUGIN_ABI_VERSION         */
	uint32_t size;           /* sizeof(struct cb_host) in the host       */
	/* The message a failing call leaves for the user ("lib: what: why"). */
	void (*set_error)(const char *fmt, ...)
		__attribute__((format(printf, 1, 2)));
	/* The registry's shape of a canonical algorithm name, or NULL. */
	const struct cb_alg_info *(*alg)(const char *name);
	/* A one-shot digest of msg by another backend's implementation of
	 * the hash alg ("sha256"), skipping backend `not_backend` (NULL: any):
	 * digest_len bytes into out (outlen at least that).  0 or -errno. */
	int32_t (*digest)(const char *alg, const char *not_backend,
	                  const uint8_t *msg, size_t len, uint8_t *out,
	                  size_t outlen);
	/* Wipe memory the compiler may not elide (keys in free()). */
	void (*wipe)(void *p, size_t n);
};

/* The descriptor cryptobench_plugin() returns: one backend. */
struct cb_plugin {
	uint32_t abi_version;    /* CB_PLUGIN_ABI_VERSION built against      */
	uint32_t size;           /* sizeof(struct cb_plugin)                 */
	uint32_t impl_size;      /* sizeof(struct cb_impl)                   */
	uint32_t reserved;       /* 0                                        */
	const char *name;        /* backend name: [a-z0-9_-], unique         */
	const char *description; /* one line for `list`                      */
	/* 0 if usable here; else negative and *why says why.  Called once,
	 * before any implementation is used.  NULL: always usable. */
	int32_t (*probe)(const char **why);
	const char *(*version)(void);   /* the library's version string      */
	/* The code path chosen (capability vector), or NULL: provenance. */
	const char *(*details)(void);
	/* What the CPU allows this code at most, or NULL. */
	const char *(*limits)(void);
	const struct cb_impl *const *impls;   /* NULL-terminated            */
	/*
	 * Cap the library's code path to the CB_HW_* features in hw (--cpu;
	 * docs/cpu.md); called before probe, only below "max".  A library
	 * that reads its switch from the environment when it loads writes
	 * "NAME=value" into env (n bytes) and returns 1: the host sets it and
	 * re-executes itself.  One with a run-time switch applies it and
	 * returns 0.  NULL: no switch.
	 */
	int32_t (*cap)(uint32_t hw, char *env, size_t n);
	/* 1: the host composes no templates (essiv, authenc, rfc4106) from
	 * this backend's primitives. */
	int32_t no_templates;
};

/* The start of every descriptor: .abi_version, .size, .impl_size. */
#define CB_PLUGIN_HEADER \
	.abi_version = CB_PLUGIN_ABI_VERSION, .size = sizeof(struct cb_plugin), \
	.impl_size = sizeof(struct cb_impl)

/*
 * The one symbol a plug-in exports.  The host calls it once, right after
 * loading the file, and keeps host (valid until the process ends); the
 * descriptor and everything it points to must stay valid as long.
 */
#define CB_PLUGIN_EXPORT __attribute__((visibility("default")))
typedef const struct cb_plugin *(*cb_plugin_entry)(const struct cb_host *host);
CB_PLUGIN_EXPORT const struct cb_plugin *
cryptobench_plugin(const struct cb_host *host);

#endif /* CRYPTOBENCH_PLUGIN_H */
