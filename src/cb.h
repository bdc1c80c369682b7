/*
 * cb.h - the core types of cryptobench: algorithms, implementations, backends.
 *
 * An *algorithm* (struct cb_alg) is a canonical name in Linux crypto API
 * grammar ("cbc(aes)") with its shape: kind, block size, IV size, key sizes.
 * The registry (src/registry.c) holds one sorted const table of them plus the
 * geli/cryptsetup aliases.
 *
 * An *implementation* (struct cb_impl) is one way of computing an algorithm:
 * a driver name ("cbc-aes-openssl"), a context size and the operations.
 * A *backend* (struct cb_backend) is a library (or our own code) with a probe
 * and a const, NULL-terminated table of implementations.  Adding an algorithm
 * to a backend is one table entry; adding a backend is one file plus one line
 * in src/backend.c.  Templates (src/template.c) compose implementations from
 * a backend's primitives (the generic essiv template) and are listed with the
 * backend whose primitives they use.
 *
 * Conventions: functions return 0 or a negative errno value (-EINVAL,
 * -ENOMEM, -EBADMSG for a failed authentication, -ENOTSUP for an unsupported
 * key size or length); only main() turns errors into exit codes.  Backends
 * never print; they may set a message with cb_set_error().
 */
#ifndef CB_H
#define CB_H

#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CB_VERSION "0.1.0"

#define CB_MAX_KEY    128   /* bytes: geli master key, authenc blobs      */
#define CB_MAX_BLOCK  16    /* bytes: largest cipher block / IV           */
#define CB_MAX_DIGEST 64    /* bytes: SHA-512                              */

/* Exit codes (spec: "Command line"). */
enum { CB_EXIT_OK = 0, CB_EXIT_FAIL = 1, CB_EXIT_USAGE = 2, CB_EXIT_SKIP = 77 };

enum cb_kind {
	CB_CIPHER,   /* skcipher: encrypt/decrypt with IV                         */
	CB_HASH,     /* unkeyed digest: init/update/final                          */
	CB_MAC,      /* keyed digest (HMAC): setkey then init/update/final         */
	CB_AEAD,     /* authenc: aead_encrypt/aead_decrypt                         */
	CB_KDF,      /* key derivation: derive(password, salt, cost) -> key        */
};

/* struct cb_alg.flags */
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

#define CB_KEY_STD 4
/* Key sizes in bits.  Valid: min, min + step, ..., max (step 0: min only);
 * with CB_F_ANYKEY any multiple of 8; with CB_F_NOKEY 0 only.  std: the
 * standard sizes (0-terminated), the ones listed and measured by default;
 * std[0] is the default. */
struct cb_keysize {
	unsigned min, max, step;
	unsigned std[CB_KEY_STD];
};

struct cb_alg {
	const char *name;        /* canonical, kernel grammar: "cbc(aes)"          */
	enum cb_kind kind;
	unsigned block;          /* cipher block size in bytes (1 = byte stream)   */
	unsigned iv_len;         /* IV length in bytes (0 = none)                  */
	unsigned digest_len;     /* hash/MAC output, AEAD full tag length          */
	unsigned min_len;        /* cipher: shortest request (xts: 16)             */
	unsigned flags;          /* CB_F_*                                         */
	struct cb_keysize key;   /* AEAD: the cipher key size inside the blob      */
	const char *inner;       /* hmac(X): the hash X; authenc: its MAC; or NULL */
	const char *speed_name;  /* short name for tables ("aes-cbc")              */
	unsigned assoc_len;      /* AEAD: associated data in speed (0: 24, the
	                            dm-crypt layout of authenc)                 */
};

struct cb_alias {
	const char *alias;       /* "aes-xts", "hmac/sha256"                       */
	const char *canonical;
	unsigned key_mult;       /* geli -l gives half the XTS key: 2, else 1      */
};

/*
 * One implementation of one algorithm.  Every context is ctx_size bytes,
 * zero-initialised by the caller, and is released with free() (which must
 * wipe key material).  Only the members for the algorithm's kind are set.
 *
 * Keys: cb_inst_new() checks the key size against the algorithm (-EINVAL)
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
 * others cb_inst_batch() runs the n requests one after another, so the
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
typedef int (*cb_crypt_fn)(void *ctx, const uint8_t *iv, const uint8_t *in,
                           uint8_t *out, size_t len);

/* Little-endian 64-bit store: sector numbers, IVs, geli offsets.  One
 * 8-byte store: a wider load of it soon after (an IV, a group of tweaks
 * for one ECB call) then waits for one store, not for eight byte stores
 * that cannot forward to it (16 % of a 512-byte-sector XTS run). */
static inline void cb_put_le64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof v);
}

struct cb_impl {
	const char *alg;         /* canonical algorithm name                        */
	const char *driver;      /* unique driver name, "cbc-aes-openssl"           */
	int priority;            /* higher is preferred, as in the kernel           */
	size_t ctx_size;
	const void *priv;        /* backend data (e.g. EVP name); not for callers   */

	/* 0 if this implementation can run here; else -ENOTSUP and *why set. */
	int (*probe)(const struct cb_impl *impl, const char **why);

	int (*setkey)(void *ctx, const struct cb_impl *impl,
	              const uint8_t *key, size_t keylen);  /* hashes: key NULL */
	void (*free)(void *ctx);

	cb_crypt_fn encrypt;
	cb_crypt_fn decrypt;
	int (*encrypt_sectors)(void *ctx, uint64_t first_iv, uint64_t iv_step,
	                       size_t sector_size, const uint8_t *in,
	                       uint8_t *out, size_t len);
	int (*decrypt_sectors)(void *ctx, uint64_t first_iv, uint64_t iv_step,
	                       size_t sector_size, const uint8_t *in,
	                       uint8_t *out, size_t len);
	int (*encrypt_batch)(void *ctx, unsigned n, const uint8_t *const *ivs,
	                     const uint8_t *const *in, uint8_t *const *out,
	                     size_t len);
	int (*decrypt_batch)(void *ctx, unsigned n, const uint8_t *const *ivs,
	                     const uint8_t *const *in, uint8_t *const *out,
	                     size_t len);

	int (*init)(void *ctx);
	int (*update)(void *ctx, const uint8_t *in, size_t len);
	int (*final)(void *ctx, uint8_t *out);

	int (*aead_encrypt)(void *ctx, const uint8_t *iv, const uint8_t *ad,
	                    size_t adlen, const uint8_t *in, uint8_t *out,
	                    size_t len, uint8_t *tag, size_t taglen);
	int (*aead_decrypt)(void *ctx, const uint8_t *iv, const uint8_t *ad,
	                    size_t adlen, const uint8_t *in, uint8_t *out,
	                    size_t len, const uint8_t *tag, size_t taglen);

	int (*derive)(void *ctx, const struct cb_impl *impl,
	              const uint8_t *pass, size_t passlen, const uint8_t *salt,
	              size_t saltlen, const struct cb_kdf_params *p,
	              uint8_t *out, size_t outlen);

	const unsigned *key_bits; /* NULL: the algorithm's sizes; else a
	                             0-terminated list this driver accepts */
	const char *note;         /* more words for `list` (the kernel's
	                             module and selftest state), or NULL */
	int no_chain;             /* 1: iv == NULL is refused even where the
	                             algorithm streams - every request takes
	                             its IV (the kernel's essiv) */
};

struct cb_backend {
	const char *name;            /* "openssl"                               */
	const char *description;     /* "OpenSSL libcrypto through EVP"          */
	/* 0 if usable; else negative and *why says why.  Called once. */
	int (*probe)(const char **why);
	const char *(*version)(void);        /* library version string           */
	/* Extra provenance (code path chosen, capability vector), or NULL. */
	const char *(*details)(void);
	/* What the CPU allows this backend's code at most, measured when
	 * first asked (sysinfo's "limit" line), or NULL. */
	const char *(*limits)(void);
	const struct cb_impl *const *impls;  /* NULL-terminated                  */
	/*
	 * Cap the library's code path to the CB_HW_* features in hw (a --cpu
	 * level, docs/cpu.md); called once, before probe, only when a level
	 * below "max" is asked for.  A library that reads its switch from the
	 * environment when it loads writes "NAME=value" into env (n bytes) and
	 * returns 1: the core sets it and re-executes the process.  One with
	 * a run-time switch applies it (before its library initialises) and
	 * returns 0.  NULL: the library has no switch.
	 */
	int (*cap)(unsigned hw, char *env, size_t n);
	/* 1: no generic templates over this backend's primitives (the
	 * kernel composes its own: essiv, authenc are its drivers) */
	int no_templates;
};

/* Feature groups a --cpu level allows (struct cb_backend cap). */
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

/* ---- registry.c ------------------------------------------------------- */
extern const struct cb_alg cb_algs[];       /* sorted by name, NULL-ended   */
extern const size_t cb_nalgs;
extern const struct cb_alias cb_aliases[];  /* sorted by alias              */
extern const size_t cb_naliases;
/* Canonical name or alias -> algorithm; *key_mult set from the alias (or 1). */
const struct cb_alg *cb_alg_find(const char *name, unsigned *key_mult);
/* 1 if key_bits is a valid key size for alg. */
int cb_alg_key_ok(const struct cb_alg *alg, unsigned key_bits);
/* 1 if alg has more valid key sizes than CB_KEY_STD (blowfish): a range,
 * shown as min..max/step and measured at its standard sizes only. */
int cb_alg_key_range(const struct cb_alg *alg);
const char *cb_kind_name(enum cb_kind kind);

/* ---- backend.c: the backends and the selector over their impls -------- */
extern const struct cb_backend *const cb_backends[]; /* NULL-terminated      */
const struct cb_backend *cb_backend_find(const char *name);
/* Probe result, cached: 0 or negative with *why. */
int cb_backend_status(const struct cb_backend *b, const char **why);
/*
 * All implementations a backend offers: its own table followed by the
 * templates composed from its primitives.  NULL-terminated, built once.
 */
const struct cb_impl *const *cb_backend_impls(const struct cb_backend *b);
/* The n-th implementation of alg in backend b (n from 0), or NULL. */
const struct cb_impl *cb_impl_find(const struct cb_backend *b,
                                   const char *alg, int n);
/* Usable here: backend available and impl probe (if any) passes. */
int cb_impl_status(const struct cb_impl *impl, const char **why);
/* The backend an implementation belongs to. */
const struct cb_backend *cb_impl_backend(const struct cb_impl *impl);
/*
 * The one implementation selector: the first usable implementation of alg
 * (backend available, impl probe passes, filter(impl, arg) nonzero if a
 * filter is given).  b != NULL searches that backend only; b == NULL
 * searches every backend in cb_backends[] order.  Every "find me an
 * implementation" loop in the core goes through this, and so does the one
 * place a backend borrows a primitive: native's ESSIV salt takes SHA-256
 * from cb_impl_select(NULL, "sha256", ...) (a library backend).
 */
typedef int (*cb_impl_filter)(const struct cb_impl *impl, void *arg);
const struct cb_impl *cb_impl_select(const struct cb_backend *b,
                                     const char *alg, cb_impl_filter filter,
                                     void *arg);
/* cb_impl_select() on backend `prefer` first (if non-NULL), then on all. */
const struct cb_impl *cb_impl_any(const char *alg, const char *prefer);

/* ---- inst.c: keyed instances (uses only the registry and util) -------- */

/* 1 if impl accepts key_bits (the algorithm's sizes and the driver's). */
int cb_impl_key_ok(const struct cb_impl *impl, const struct cb_alg *alg,
                   unsigned key_bits);

/*
 * A keyed instance: allocate the context and set the key (hashes: key
 * NULL, keylen 0).  cb_inst_free wipes and frees.
 */
struct cb_inst {
	const struct cb_impl *impl;
	const struct cb_alg *alg;
	void *ctx;
};
int cb_inst_new(struct cb_inst *inst, const struct cb_impl *impl,
                const uint8_t *key, size_t keylen);
void cb_inst_free(struct cb_inst *inst);
/* MACs: a new key for a keyed instance, with the same checks and without
 * a new context (geli keys an HMAC per disk sector).  Every MAC setkey()
 * may be called again on a context it keyed: the new key replaces the
 * old one and nothing is allocated or leaked. */
int cb_inst_rekey(struct cb_inst *inst, const uint8_t *key, size_t keylen);
/* Encrypt/decrypt len bytes as sectors via encrypt_sectors or a loop. */
int cb_inst_sectors(struct cb_inst *inst, int enc, uint64_t first_iv,
                    uint64_t iv_step, size_t sector_size, const uint8_t *in,
                    uint8_t *out, size_t len);
/* n independent requests of len bytes (request i: ivs[i], in[i] ->
 * out[i]; ivs NULL only for algorithms without an IV) through the
 * implementation's batch entry point, or one after another. */
int cb_inst_batch(struct cb_inst *inst, int enc, unsigned n,
                  const uint8_t *const *ivs, const uint8_t *const *in,
                  uint8_t *const *out, size_t len);
/* One-shot digest/MAC of msg into out (alg->digest_len bytes). */
int cb_inst_digest(struct cb_inst *inst, const uint8_t *msg, size_t len,
                   uint8_t *out);

/* ---- error message channel (util.c) ---------------------------------- */
void cb_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *cb_last_error(void);  /* "" if none; cleared by cb_clear_error */
void cb_clear_error(void);
/* Wipe memory the compiler may not elide. */
void cb_wipe(void *p, size_t n);
/* The one constant-time compare (tags, HMACs): 1 if equal, else 0. */
int cb_ct_equal(const void *a, const void *b, size_t n);

#endif /* CB_H */
