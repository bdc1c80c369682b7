/*
 * cb.h - the core types of cryptobench: algorithms, implementations, backends.
 *
 * An *algorithm* (struct cb_alg) is a canonical name in Linux crypto API
 * grammar ("cbc(aes)") with its shape: kind, block size, IV size, key sizes.
 * The registry (core/registry.c) holds one sorted const table of them plus the
 * geli/cryptsetup aliases.
 *
 * An *implementation* (struct cb_impl) is one way of computing an algorithm:
 * a driver name ("cbc-aes-openssl"), a context size and the operations.
 * A *backend* (struct cb_backend) is a library (or our own code) with a probe
 * and a const, NULL-terminated table of implementations.  Adding an algorithm
 * to a backend is one table entry; adding a backend is one file plus one line
 * in core/backend.c.  Templates (core/template.c) compose implementations from
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

/* The implementation contract, the kinds, flags and CPU feature groups:
 * the public plug-in ABI (include/cryptobench/plugin.h). */
#include <cryptobench/plugin.h>

#define CB_VERSION "0.1.0"

#define CB_MAX_KEY    128   /* bytes: geli master key, authenc blobs      */
#define CB_MAX_BLOCK  16    /* bytes: largest cipher block / IV           */
#define CB_MAX_DIGEST 64    /* bytes: SHA-512                              */

/* Exit codes (spec: "Command line"). */
enum { CB_EXIT_OK = 0, CB_EXIT_FAIL = 1, CB_EXIT_USAGE = 2, CB_EXIT_SKIP = 77 };


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
	/* The parameters a request may take (the differential test covers
	 * them all; `list algs` prints them).  Lengths in bytes; a mask has
	 * bit n set when n bytes are allowed. */
	uint64_t tags;           /* AEAD: the tag lengths (0: digest_len only) */
	uint64_t ad_lens;        /* AEAD: 0 any associated data of at least
	                            ad_min bytes; else exactly these lengths   */
	unsigned ad_min;         /* AEAD: the shortest associated data         */
	unsigned salt_min;       /* KDF: the shortest salt (Argon2: 8)         */
	unsigned out_min;        /* KDF: the shortest derived key (Argon2: 4)  */
};
/* A mask of lengths: bit n for n bytes (struct cb_alg tags, ad_lens). */
#define CB_LEN(n)        ((uint64_t)1 << (n))
#define CB_LENS(lo, hi)  ((~(uint64_t)0 >> (63 - (hi))) & ~(CB_LEN(lo) - 1))

struct cb_alias {
	const char *alias;       /* "aes-xts", "hmac/sha256"                       */
	const char *canonical;
	unsigned key_mult;       /* geli -l gives half the XTS key: 2, else 1      */
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
	/* A plug-in (core/loader.c): the file it was loaded from (NULL: built
	 * in) and the ABI version it was built for; load_error: why a
	 * plug-in expected here could not be loaded (the backend is then
	 * unavailable with that reason), else NULL. */
	const char *file;
	unsigned abi;
	const char *load_error;
};


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
/* 1 if an AEAD takes a tag of taglen bytes / adlen bytes of associated
 * data (the registry's tags, ad_lens, ad_min). */
int cb_alg_tag_ok(const struct cb_alg *alg, size_t taglen);
int cb_alg_ad_ok(const struct cb_alg *alg, size_t adlen);
/* A mask of lengths as text: "4,8,12..16". */
void cb_lens_text(uint64_t mask, char *buf, size_t n);
const char *cb_kind_name(enum cb_kind kind);

/* ---- backend.c: the backends and the selector over their impls -------- */
/* Built in (native, kernel) and the plug-ins found at start-up: openssl,
 * gcrypt, nettle first (unavailable with the reason when their plug-in is
 * missing or cannot be loaded), then the others of the plug-in directory;
 * cb_plugins_load() appends more.  NULL-terminated. */
#define CB_MAX_BACKENDS 32
extern const struct cb_backend *cb_backends[CB_MAX_BACKENDS + 1];
/* Load the plug-ins of CRYPTOBENCH_PLUGIN_PATH (colon-separated files or
 * directories of *.so) and then files[0..n-1] (--plugin).  0, or -1 with
 * "FILE: reason" in err: the first one refused (docs/plugins.md). */
int cb_plugins_load(const char *const *files, size_t n, char *err,
                    size_t errlen);
/* The plug-in directory found at start-up (or the installed one). */
const char *cb_plugin_dir(void);
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
/* A call that failed with rc < 0, as a user reads it, into buf: "what:
 * EINVAL (Invalid argument): the message the implementation set". */
const char *cb_rc_text(char *buf, size_t n, const char *what, int rc);
/* Wipe memory the compiler may not elide. */
void cb_wipe(void *p, size_t n);
/* The one constant-time compare (tags, HMACs): 1 if equal, else 0. */
int cb_ct_equal(const void *a, const void *b, size_t n);

#endif /* CB_H */
