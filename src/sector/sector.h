/*
 * sector.h - the sector transform layer: how disk encryption turns a run of
 * sectors into the bytes on the disk, over any backend's ciphers and hashes.
 *
 * Two layouts (docs/dd.md pins both to their sources):
 *
 *   geli      FreeBSD GEOM_ELI metadata version 7: keys from a 128-byte
 *             master key (IV key || data key), a new data key every 2^20
 *             blocks, CBC IVs from SHA-256(IV key || le64(offset)), XTS
 *             tweaks from the byte offset, and with -a the encrypt-then-MAC
 *             layout over 512-byte disk sectors (HMAC first, then data).
 *   dm-crypt  Linux dm-crypt: a raw key, one request per sector, the IV from
 *             a generator (plain, plain64, plain64be, essiv:sha256, benbi,
 *             null); plain64 and essiv go through cb_inst_sectors(), so a
 *             backend with a multi-sector routine (native) uses it.
 *
 * Use: sector_parse() a configuration (the options of `dd` or a vector
 * record), sector_xf_new() keys it on a backend (shared, read-only after),
 * then each thread takes a sector_thr_new() (its own keyed instances, no
 * allocation per sector) and calls sector_encrypt()/sector_decrypt().
 * Sectors are numbered by the caller: sector n starts at byte offset
 * n * sector_size of the plaintext provider.  Functions return 0 or a
 * negative errno with cb_set_error() saying what.
 */
#ifndef CB_SECTOR_H
#define CB_SECTOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cb.h"

enum sector_kind { SECTOR_NONE, SECTOR_GELI, SECTOR_DMCRYPT };

#define SECTOR_GELI_MKEY  128   /* bytes: IV key (64) || data key (64)     */
#define SECTOR_DISK       512   /* the underlying provider's sector size   */

struct sector_ivgen;            /* dm-crypt IV generator (sector.c table)  */

struct sector_cfg {
	enum sector_kind kind;
	const char *ealg;             /* -e as given ("aes", "aes-cbc-essiv:sha256") */
	const struct cb_alg *cipher;  /* canonical cipher (NULL for none)        */
	unsigned key_bits;            /* the cipher's key bits (XTS: both halves) */
	unsigned geli_bits;           /* geli -l (XTS: half); dm-crypt = key_bits */
	int key_bits_given;           /* -l was given                            */
	const char *aalg;             /* -a as given, or NULL                    */
	const struct cb_alg *auth;    /* hmac(...) or NULL                       */
	const struct sector_ivgen *ivgen;  /* dm-crypt                           */
	const char *ivopt;            /* dm-crypt "essiv:sha256" -> "sha256"      */
	int essiv_salt;               /* essiv on cbc(X), X not aes: the IV is
	                                 X-256_{SHA-256(key)}(plain64) here, as
	                                 crypto/essiv.c (aes: the registry's
	                                 essiv(cbc(aes),sha256) does it)      */
	unsigned sector_size;         /* geli -s / dm-crypt sector size          */
	int iv_large;                 /* dm-crypt iv_large_sectors               */
	size_t key_len;               /* bytes the key file must hold            */
};

/*
 * Parse a configuration.  ealg: a geli algorithm (aes, aes-xts, aes-cbc,
 * camellia, blowfish, 3des, null and their -cbc spellings), a dm-crypt
 * cipher spec CIPHER-CHAIN-IVGEN[:OPT] (aes-xts-plain64, or CIPHER-ecb),
 * or "none".  key_bits 0 = the default; aalg NULL = none; sector_size 0 =
 * the default (geli 4096, dm-crypt 512).  -EINVAL with cb_set_error()
 * naming the option ("-l", "-a", "-s", "-e") on a bad value.
 */
int sector_parse(struct sector_cfg *c, const char *ealg, unsigned key_bits,
                 int key_bits_given, const char *aalg, unsigned sector_size,
                 int iv_large);

struct sector_xf;
struct sector_thr;

/* Key a configuration on backend b with key (key_len bytes).  The
 * implementations are looked up on b only; -ENOTSUP names what b lacks. */
int sector_xf_new(struct sector_xf **xf, const struct sector_cfg *c,
                  const struct cb_backend *b, const uint8_t *key,
                  size_t keylen);
void sector_xf_free(struct sector_xf *xf);
const struct sector_cfg *sector_xf_cfg(const struct sector_xf *xf);
/* Bytes on the disk for one sector (geli -a: chunks * 512). */
size_t sector_disk_bytes(const struct sector_xf *xf);
/* Disk sectors per sector (geli -a: 9 for 4096, 10 with sha512; else 1)
 * and the plaintext bytes in the i-th of them. */
unsigned sector_chunks(const struct sector_xf *xf);
size_t sector_chunk_len(const struct sector_xf *xf, unsigned i);
/* The drivers used, for reports: "xts-aes-openssl" or
 * "cbc-aes-openssl+hmac-sha256-openssl" (the cipher and the HMAC). */
const char *sector_driver(const struct sector_xf *xf);
/* The algorithm that runs the data: the cipher's canonical name, or the
 * composed one ("essiv(cbc(aes),sha256)" for dm-crypt essiv); "none". */
const char *sector_alg(const struct sector_xf *xf);
/* A configuration's geometry without keying it: chunks per sector, data
 * bytes per chunk, bytes on the disk per sector. */
void sector_geometry(const struct sector_cfg *c, unsigned *chunks,
                     size_t *dps, size_t *disk);

int sector_thr_new(struct sector_thr **t, struct sector_xf *xf);
void sector_thr_free(struct sector_thr *t);
/* nsec sectors from sector number first; in and out may be equal only
 * without authentication.  out holds nsec * sector_disk_bytes(). */
int sector_encrypt(struct sector_thr *t, uint64_t first, const uint8_t *in,
                   uint8_t *out, size_t nsec);
/*
 * The reverse; in holds nsec * sector_disk_bytes().  With geli -a every
 * chunk's HMAC is checked first: a chunk that fails is not decrypted (its
 * plaintext reads as zeros), bad[k] is set to 1 for the k-th chunk (if bad
 * is non-NULL; nsec * sector_chunks() entries, 0 for the good ones) and
 * the call returns -EBADMSG after doing all the others.
 */
int sector_decrypt(struct sector_thr *t, uint64_t first, const uint8_t *in,
                   uint8_t *out, size_t nsec, uint8_t *bad);

#endif
