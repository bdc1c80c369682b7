/*
 * sector.c - the sector transform layer (interface and contracts in
 * sector.h, formats pinned in docs/dd.md): FreeBSD geli metadata version 7
 * and the Linux dm-crypt IV generators, computed over one backend's
 * ciphers and hashes (their known-answer records run in kat_sector.c).
 *
 * geli, as sys/geom/eli does it (g_eli_key_cache.c, g_eli_key.c,
 * g_eli.c/g_eli_crypto.c, g_eli_privacy.c, g_eli_integrity.c):
 *   ivkey = mkey[0..64)  datakey = mkey[64..128)
 *   ekey_base = datakey, or with -a HMAC-SHA512(datakey, 0x10);
 *   akey = HMAC-SHA512(datakey, 0x11)
 *   ekey(off) = HMAC-SHA512(ekey_base, "ekey" || le64((off >> 20) / B)),
 *     B = the sector size (with -a: 512, the disk sector), cut to the key
 *   IV(off) = SHA-256(ivkey || le64(off)) cut to the block; XTS: le64(off)||0
 *   -a: each sector spreads over ceil(S / dps) 512-byte disk sectors, each
 *     [HMAC(SHA-256(akey || le64(dstoff)), C) | C | zeros], C the chunk
 *     encrypted with the IV and key of its disk offset dstoff.
 * The HMACs are the backend's own hmac(...) implementations, found with
 * cb_impl_select(); the per-disk-sector key is set with cb_inst_rekey(),
 * which allocates nothing.  Only the key derivation (HMAC-SHA512, once at
 * keying and once per 2^20 blocks, never per sector) may borrow another
 * backend's when this one has none (native).
 *
 * dm-crypt IV generators are one const table {name, fn}; plain64 and essiv
 * number sectors as cb_inst_sectors() does, and use it (the backend's
 * multi-sector routine when it has one), with the IV advancing by
 * sector_size / 512 per sector (dm-crypt's default) or by one
 * (--iv-large-sectors).
 */
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "sector/sector.h"
#include "foundation/util.h"

/* ---- small helpers --------------------------------------------------- */

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[7 - i] = (uint8_t)(v >> (8 * i));
}

/* ---- dm-crypt IV generators (drivers/md/dm-crypt.c) ------------------- */

typedef void (*ivgen_fn)(uint8_t *iv, size_t ivlen, uint64_t sector,
                         unsigned shift);

struct sector_ivgen {
	const char *name;
	ivgen_fn gen;
	int multi;        /* plain64 numbering: cb_inst_sectors() may do it   */
	int opt;          /* takes ":OPT" (essiv:HASH)                        */
};

static void iv_plain(uint8_t *iv, size_t ivlen, uint64_t s, unsigned shift)
{
	memset(iv, 0, ivlen);
	for (int i = 0; i < 4; i++)
		iv[i] = (uint8_t)(s >> (8 * i));      /* le32(sector & 0xffffffff) */
}

static void iv_plain64(uint8_t *iv, size_t ivlen, uint64_t s, unsigned shift)
{
	memset(iv, 0, ivlen);
	cb_put_le64(iv, s);
}

static void iv_plain64be(uint8_t *iv, size_t ivlen, uint64_t s,
                         unsigned shift)
{
	memset(iv, 0, ivlen);
	put_be64(iv + ivlen - 8, s);
}

static void iv_benbi(uint8_t *iv, size_t ivlen, uint64_t s, unsigned shift)
{
	memset(iv, 0, ivlen);
	put_be64(iv + ivlen - 8, (s << shift) + 1);
}

static void iv_null(uint8_t *iv, size_t ivlen, uint64_t s, unsigned shift)
{
	memset(iv, 0, ivlen);
}

/* Sorted by name.  essiv hands the plain64 IV to essiv(cbc(aes),sha256),
 * which encrypts it with the salt - as dm-crypt does since Linux 5.4. */
static const struct sector_ivgen ivgens[] = {
	{ "benbi", iv_benbi, 0, 0 },
	{ "essiv", iv_plain64, 1, 1 },
	{ "null", iv_null, 0, 0 },
	{ "plain", iv_plain, 0, 0 },
	{ "plain64", iv_plain64, 1, 0 },
	{ "plain64be", iv_plain64be, 0, 0 },
};
#define NIVGENS (sizeof ivgens / sizeof ivgens[0])

/* ---- geli algorithm names (sys/geom/eli/g_eli.h g_eli_str2ealgo) ----- */

struct geli_ealg {
	const char *name;
	const char *canonical;
	unsigned dflt;           /* default -l (g_eli_keylen)                    */
	unsigned min, max, step; /* allowed -l: min..max in steps (0: any <=max) */
	unsigned mult;           /* cipher key bits per -l bit (XTS: 2)          */
};

/* Sorted by name. */
static const struct geli_ealg geli_ealgs[] = {
	{ "3des", "cbc(des3_ede)", 192, 192, 192, 1, 1 },
	{ "3des-cbc", "cbc(des3_ede)", 192, 192, 192, 1, 1 },
	{ "aes", "xts(aes)", 128, 128, 256, 128, 2 },
	{ "aes-cbc", "cbc(aes)", 128, 128, 256, 64, 1 },
	{ "aes-xts", "xts(aes)", 128, 128, 256, 128, 2 },
	{ "blowfish", "cbc(blowfish)", 128, 128, 448, 32, 1 },
	{ "blowfish-cbc", "cbc(blowfish)", 128, 128, 448, 32, 1 },
	{ "camellia", "cbc(camellia)", 128, 128, 256, 64, 1 },
	{ "camellia-cbc", "cbc(camellia)", 128, 128, 256, 64, 1 },
	{ "null", "ecb(cipher_null)", 0, 0, 512, 0, 0 },
	{ "null-cbc", "ecb(cipher_null)", 0, 0, 512, 0, 0 },
};
#define NGELI (sizeof geli_ealgs / sizeof geli_ealgs[0])

/* dm-crypt cipher names (the kernel's) and the registry's. */
static const char *const dm_ciphers[] = {
	"aes", "blowfish", "camellia", "cipher_null", "des3_ede", "serpent",
	"twofish", NULL,
};

/* ---- configuration ---------------------------------------------------- */

/* A dm-crypt spec's three parts, CIPHER-CHAIN-IVGEN[:OPT], split; *opt:
 * the OPT in spec, or NULL. */
struct dm_spec {
	char cipher[32], chain[16], iv[48], canon[64];
	const char *opt;
};

static int dm_split(struct dm_spec *d, const char *spec)
{
	const char *d1 = strchr(spec, '-'), *d2 = d1 ? strchr(d1 + 1, '-') : NULL;
	char *colon;
	size_t l1, l2;

	if (!d1 || (size_t)(d1 - spec) >= sizeof d->cipher) {
		cb_set_error("-e: '%s' is neither a geli algorithm nor a "
		             "dm-crypt spec CIPHER-CHAIN-IVGEN", spec);
		return -EINVAL;
	}
	l1 = (size_t)(d1 - spec);
	l2 = d2 ? (size_t)(d2 - d1 - 1) : strlen(d1 + 1);
	if (l2 >= sizeof d->chain || (d2 && strlen(d2 + 1) >= sizeof d->iv)) {
		cb_set_error("-e: '%s': not a dm-crypt cipher spec", spec);
		return -EINVAL;
	}
	memcpy(d->cipher, spec, l1);
	d->cipher[l1] = 0;
	memcpy(d->chain, d1 + 1, l2);
	d->chain[l2] = 0;
	snprintf(d->iv, sizeof d->iv, "%s", d2 ? d2 + 1 : "");
	d->opt = NULL;
	if ((colon = strchr(d->iv, ':'))) {
		*colon = 0;
		d->opt = strchr(d2 + 1, ':') + 1;
	}
	snprintf(d->canon, sizeof d->canon, "%s(%s)", d->chain, d->cipher);
	return 0;
}

/* The registry's cipher for CIPHER and CHAIN. */
static int dm_cipher(struct sector_cfg *c, const struct dm_spec *d,
                     const char *spec)
{
	int ok = 0;

	for (const char *const *p = dm_ciphers; *p; p++)
		if (!strcmp(*p, d->cipher))
			ok = 1;
	if (!ok) {
		cb_set_error("-e: '%s': unknown cipher '%s' (aes, serpent, twofish, "
		             "camellia, blowfish, des3_ede, cipher_null)", spec,
		             d->cipher);
		return -EINVAL;
	}
	c->cipher = cb_alg_find(d->canon, NULL);
	if (!c->cipher || c->cipher->kind != CB_CIPHER ||
	    strcmp(c->cipher->name, d->canon)) {
		cb_set_error("-e: '%s': no cipher %s", spec, d->canon);
		return -EINVAL;
	}
	return 0;
}

/* The IV generator, and what it needs of the cipher. */
static int dm_ivgen(struct sector_cfg *c, const struct dm_spec *d,
                    const char *spec)
{
	c->ivgen = NULL;
	if (!*d->iv) {
		if (!c->cipher->iv_len)
			return 0;
		cb_set_error("-e: '%s': %s needs an IV generator (%s-%s-plain64, "
		             "...)", spec, d->canon, d->cipher, d->chain);
		return -EINVAL;
	}
	for (size_t i = 0; i < NIVGENS; i++)
		if (!strcmp(ivgens[i].name, d->iv))
			c->ivgen = &ivgens[i];
	if (!c->ivgen) {
		cb_set_error("-e: '%s': unknown IV generator '%s' (plain, "
		             "plain64, plain64be, essiv:sha256, benbi, null)",
		             spec, d->iv);
		return -EINVAL;
	}
	if (c->ivgen->opt != (d->opt != NULL)) {
		cb_set_error("-e: '%s': %s %s", spec, d->iv, c->ivgen->opt
		             ? "needs a hash (essiv:sha256)" : "takes no ':' option");
		return -EINVAL;
	}
	c->ivopt = d->opt;
	if (c->ivgen->opt && (strcmp(c->ivopt, "sha256") ||
	                      strncmp(d->canon, "cbc(", 4) ||
	                      c->cipher->block != 16)) {
		cb_set_error("-e: '%s': essiv is implemented for sha256 and a "
		             "16-byte block cipher in cbc (aes, serpent, twofish, "
		             "camellia)", spec);
		return -EINVAL;
	}
	c->essiv_salt = c->ivgen->opt && strcmp(d->canon, "cbc(aes)");
	if (c->ivgen->gen == iv_benbi &&
	    (c->cipher->block & (c->cipher->block - 1))) {
		cb_set_error("-e: '%s': benbi needs a power-of-2 block", spec);
		return -EINVAL;
	}
	return 0;
}

static int parse_dmcrypt(struct sector_cfg *c, const char *spec,
                         unsigned key_bits, int given, unsigned sector_size)
{
	struct dm_spec d;
	int rc;

	if ((rc = dm_split(&d, spec)) < 0 || (rc = dm_cipher(c, &d, spec)) < 0 ||
	    (rc = dm_ivgen(c, &d, spec)) < 0)
		return rc;
	if (!given)
		key_bits = c->cipher->key.std[0];
	if (!cb_alg_key_ok(c->cipher, key_bits)) {
		cb_set_error("-l: %u is not a key size of %s", key_bits, d.canon);
		return -EINVAL;
	}
	c->kind = SECTOR_DMCRYPT;
	c->key_bits = c->geli_bits = key_bits;
	c->key_len = key_bits / 8;
	c->sector_size = sector_size ? sector_size : 512;
	return 0;
}

int sector_parse(struct sector_cfg *c, const char *ealg, unsigned key_bits,
                 int key_bits_given, const char *aalg, unsigned sector_size,
                 int iv_large)
{
	const struct geli_ealg *g = NULL;
	int rc;

	memset(c, 0, sizeof *c);
	c->ealg = ealg;
	c->aalg = aalg;
	c->key_bits_given = key_bits_given;
	c->iv_large = iv_large;
	if (sector_size && (sector_size < SECTOR_DISK || sector_size > 65536 ||
	                    (sector_size & (sector_size - 1)))) {
		cb_set_error("-s: %u is not a sector size (a power of 2 from 512 "
		             "to 65536)", sector_size);
		return -EINVAL;
	}
	if (!strcmp(ealg, "none")) {
		if (aalg || key_bits_given) {
			cb_set_error("%s: -e none (the baseline) takes no key or "
			             "authentication", aalg ? "-a" : "-l");
			return -EINVAL;
		}
		c->kind = SECTOR_NONE;
		c->sector_size = sector_size ? sector_size : 512;
		return 0;
	}
	for (size_t i = 0; i < NGELI; i++)
		if (!strcmp(geli_ealgs[i].name, ealg))
			g = &geli_ealgs[i];
	if (!g) {
		if ((rc = parse_dmcrypt(c, ealg, key_bits, key_bits_given,
		                        sector_size)) < 0)
			return rc;
		if (aalg) {
			cb_set_error("-a: dm-crypt sector transforms have no data "
			             "authentication here (that is dm-integrity)");
			return -EINVAL;
		}
		return 0;
	}
	if (iv_large) {
		cb_set_error("--iv-large-sectors: only for dm-crypt ciphers");
		return -EINVAL;
	}
	c->kind = SECTOR_GELI;
	c->cipher = cb_alg_find(g->canonical, NULL);
	if (!key_bits_given)
		key_bits = g->dflt;
	if (key_bits > g->max || key_bits < g->min ||
	    (g->step && (key_bits - g->min) % g->step)) {
		cb_set_error("-l: %u is not a key length for geli -e %s", key_bits,
		             ealg);
		return -EINVAL;
	}
	c->geli_bits = key_bits;
	c->key_bits = key_bits * g->mult;
	if (!cb_alg_key_ok(c->cipher, c->key_bits)) {
		cb_set_error("-l: %u is not a key length for geli -e %s", key_bits,
		             ealg);
		return -EINVAL;
	}
	c->key_len = SECTOR_GELI_MKEY;
	c->sector_size = sector_size ? sector_size : 4096;
	if (aalg) {
		c->auth = cb_alg_find(aalg, NULL);
		if (!c->auth || c->auth->kind != CB_MAC || !c->auth->inner) {
			cb_set_error("-a: '%s' is not a geli authentication algorithm "
			             "(hmac/md5, hmac/sha1, hmac/ripemd160, hmac/sha256, "
			             "hmac/sha384, hmac/sha512)", aalg);
			return -EINVAL;
		}
	}
	return 0;
}

/* Sector geometry: chunks per sector, data per chunk, bytes on disk. */
void sector_geometry(const struct sector_cfg *c, unsigned *chunks,
                     size_t *dps, size_t *disk)
{
	if (c->kind == SECTOR_GELI && c->auth) {
		size_t d = SECTOR_DISK - c->auth->digest_len;

		d -= d % 16;                                 /* sc_data_per_sector */
		*dps = d;
		*chunks = (unsigned)((c->sector_size - 1) / d + 1);
		*disk = (size_t)*chunks * SECTOR_DISK;
	} else if (c->kind == SECTOR_NONE) {     /* dd's bytes, as they are */
		*dps = *disk = 1;
		*chunks = 1;
	} else {
		*dps = c->sector_size;
		*chunks = 1;
		*disk = c->sector_size;
	}
}

/* ---- keyed transform -------------------------------------------------- */

struct sector_xf {
	struct sector_cfg cfg;
	const struct cb_backend *b;
	const struct cb_impl *cipher;  /* cbc/xts/ecb, or essiv(cbc(aes),sha256) */
	const struct cb_impl *salted;  /* essiv_salt: the cipher for IVs         */
	uint8_t salt[32];              /* essiv_salt: SHA-256(key)               */
	const struct cb_impl *sha256;  /* geli: CBC IVs, -a's HMAC keys; or NULL */
	const struct cb_impl *hmac512; /* geli: key derivation                   */
	const struct cb_impl *auth;    /* geli -a: the backend's hmac(...)       */
	unsigned alen;                 /* HMAC output stored per disk sector     */
	unsigned chunks;
	size_t dps, disk;
	unsigned benbi_shift;
	uint8_t ivkey[64], ekey_base[64], akey[64];
	uint8_t key[CB_MAX_KEY];       /* dm-crypt key                           */
	char driver[256];
};

struct sector_thr {
	struct sector_xf *xf;
	struct cb_inst cipher;
	int keyed;
	uint64_t keyno;
	struct cb_inst sha256;
	struct cb_inst ekey;           /* HMAC-SHA512 keyed with ekey_base       */
	struct cb_inst auth;           /* -a: rekeyed per disk sector            */
	struct cb_inst salt;           /* dm-crypt essiv_salt: keyed with salt   */
};

static int key_fits(const struct cb_impl *impl, void *arg)
{
	const unsigned *bits = arg;

	return cb_impl_key_ok(impl, cb_alg_find(impl->alg, NULL), *bits);
}

/* The first usable implementation of alg on b (taking *key_bits if not
 * NULL); NULL with the error set. */
static const struct cb_impl *pick(const struct cb_backend *b,
                                  const char *alg, unsigned *key_bits)
{
	const struct cb_impl *im = cb_impl_select(b, alg, key_bits ? key_fits
	                                          : NULL, key_bits);

	if (!im)
		cb_set_error("backend %s has no usable %s%s", b->name, alg,
		             key_bits && *key_bits ? " for this key size" : "");
	return im;
}

/* HMAC-SHA512(key, msg): geli's key derivation. */
static int hmac512(const struct cb_impl *im, const uint8_t *key,
                   const uint8_t *msg, size_t len, uint8_t *out)
{
	struct cb_inst h;
	int rc;

	if ((rc = cb_inst_new(&h, im, key, 64)) < 0)
		return rc;
	rc = cb_inst_digest(&h, msg, len, out);
	cb_inst_free(&h);
	return rc;
}

/* essiv on cbc(X): the salt SHA-256(key) and X taking it as a 256-bit key
 * (crypto/essiv.c essiv_skcipher_setkey). */
static int dm_salt(struct sector_xf *xf, const uint8_t *key, size_t keylen)
{
	const struct cb_impl *sha = cb_impl_select(xf->b, "sha256", NULL, NULL);
	unsigned bits = 256;
	struct cb_inst h;
	int rc;

	if (!sha && !(sha = cb_impl_select(NULL, "sha256", NULL, NULL)))
		return -ENOTSUP;
	if (!(xf->salted = pick(xf->b, xf->cfg.cipher->name, &bits)))
		return -ENOTSUP;
	if ((rc = cb_inst_new(&h, sha, NULL, 0)) < 0)
		return rc;
	rc = cb_inst_digest(&h, key, keylen, xf->salt);
	cb_inst_free(&h);
	return rc;
}

/* dm-crypt: the cipher (or the essiv template) and the key. */
static int dm_new(struct sector_xf *xf, const uint8_t *key, size_t keylen)
{
	const struct sector_cfg *c = &xf->cfg;
	const char *alg = c->ivgen && c->ivgen->opt && !c->essiv_salt
	                  ? "essiv(cbc(aes),sha256)" : c->cipher->name;
	unsigned bits = c->key_bits;
	int rc;

	if (!(xf->cipher = pick(xf->b, alg, &bits)))
		return -ENOTSUP;
	if (c->essiv_salt && (rc = dm_salt(xf, key, keylen)) < 0)
		return rc;
	if (keylen)
		memcpy(xf->key, key, keylen);
	if (c->ivgen && c->ivgen->gen == iv_benbi) {
		unsigned log = 0;

		while ((1u << log) < c->cipher->block)
			log++;
		xf->benbi_shift = 9 - log;
	}
	snprintf(xf->driver, sizeof xf->driver, "%s", xf->cipher->driver);
	return 0;
}

/* geli: the implementations and the keys derived from the master key. */
static int geli_new(struct sector_xf *xf, const uint8_t *mkey)
{
	const struct sector_cfg *c = &xf->cfg;
	const uint8_t *datakey = mkey + 64;
	unsigned bits = c->key_bits;
	int rc;

	if (!(xf->cipher = pick(xf->b, c->cipher->name, &bits)))
		return -ENOTSUP;
	/* XTS takes geli's offset as its tweak; other IVs are hashed */
	if (((c->cipher->iv_len && !(c->cipher->flags & CB_F_XTS)) || c->auth) &&
	    !(xf->sha256 = pick(xf->b, "sha256", NULL)))
		return -ENOTSUP;
	if (!(xf->hmac512 = cb_impl_select(xf->b, "hmac(sha512)", NULL, NULL)) &&
	    !(xf->hmac512 = cb_impl_select(NULL, "hmac(sha512)", NULL, NULL)))
		return -ENOTSUP;
	memcpy(xf->ivkey, mkey, 64);
	if (!c->auth) {
		memcpy(xf->ekey_base, datakey, 64);
		snprintf(xf->driver, sizeof xf->driver, "%s", xf->cipher->driver);
		return 0;
	}
	if (!(xf->auth = pick(xf->b, c->auth->name, NULL)))
		return -ENOTSUP;
	xf->alen = c->auth->digest_len;
	if ((rc = hmac512(xf->hmac512, datakey, (const uint8_t *)"\x10", 1,
	                  xf->ekey_base)) < 0 ||
	    (rc = hmac512(xf->hmac512, datakey, (const uint8_t *)"\x11", 1,
	                  xf->akey)) < 0)
		return rc;
	snprintf(xf->driver, sizeof xf->driver, "%s+%s", xf->cipher->driver,
	         xf->auth->driver);
	return 0;
}

int sector_xf_new(struct sector_xf **xfp, const struct sector_cfg *c,
                  const struct cb_backend *b, const uint8_t *key,
                  size_t keylen)
{
	struct sector_xf *xf;
	const char *why;
	int rc = 0;

	*xfp = NULL;
	if (cb_backend_status(b, &why) < 0) {
		cb_set_error("backend %s is unavailable: %s", b->name, why);
		return -ENOTSUP;
	}
	if (c->kind != SECTOR_NONE && keylen != c->key_len) {
		cb_set_error("the key is %zu bytes; %s needs %zu", keylen,
		             c->ealg, c->key_len);
		return -EINVAL;
	}
	xf = cb_xcalloc(1, sizeof *xf);
	xf->cfg = *c;
	xf->b = b;
	sector_geometry(c, &xf->chunks, &xf->dps, &xf->disk);
	if (c->kind == SECTOR_NONE)
		snprintf(xf->driver, sizeof xf->driver, "none");
	else if (c->kind == SECTOR_DMCRYPT)
		rc = dm_new(xf, key, keylen);
	else
		rc = geli_new(xf, key);
	if (rc < 0) {
		sector_xf_free(xf);
		return rc;
	}
	*xfp = xf;
	return 0;
}

void sector_xf_free(struct sector_xf *xf)
{
	if (!xf)
		return;
	cb_wipe(xf, sizeof *xf);
	free(xf);
}

const struct sector_cfg *sector_xf_cfg(const struct sector_xf *xf)
{
	return &xf->cfg;
}

size_t sector_disk_bytes(const struct sector_xf *xf)
{
	return xf->disk;
}

unsigned sector_chunks(const struct sector_xf *xf)
{
	return xf->chunks;
}

size_t sector_chunk_len(const struct sector_xf *xf, unsigned i)
{
	if (xf->chunks == 1)
		return xf->cfg.sector_size;
	return i + 1 < xf->chunks ? xf->dps : xf->cfg.sector_size % xf->dps;
}

const char *sector_driver(const struct sector_xf *xf)
{
	return xf->driver;
}

const char *sector_alg(const struct sector_xf *xf)
{
	return xf->cipher ? xf->cipher->alg : "none";
}

/* ---- per thread --------------------------------------------------------- */

static int geli_key(struct sector_thr *t, uint64_t off, size_t block);

int sector_thr_new(struct sector_thr **tp, struct sector_xf *xf)
{
	struct sector_thr *t = cb_xcalloc(1, sizeof *t);
	int rc = 0;

	t->xf = xf;
	if (xf->cfg.kind == SECTOR_DMCRYPT) {
		rc = cb_inst_new(&t->cipher, xf->cipher,
		                 xf->cfg.key_len ? xf->key : NULL, xf->cfg.key_len);
		t->keyed = rc == 0;
		if (rc == 0 && xf->salted)
			rc = cb_inst_new(&t->salt, xf->salted, xf->salt,
			                 sizeof xf->salt);
	} else if (xf->cfg.kind == SECTOR_GELI) {
		if (xf->sha256)
			rc = cb_inst_new(&t->sha256, xf->sha256, NULL, 0);
		if (rc == 0)
			rc = cb_inst_new(&t->ekey, xf->hmac512, xf->ekey_base, 64);
		/* any key: each disk sector sets its own */
		if (rc == 0 && xf->auth)
			rc = cb_inst_new(&t->auth, xf->auth, xf->akey, 32);
		/* the first key now, as geli derives its keys at attach */
		if (rc == 0)
			rc = geli_key(t, 0, SECTOR_DISK);
	}
	if (rc < 0) {
		sector_thr_free(t);
		t = NULL;
	}
	*tp = t;
	return rc;
}

void sector_thr_free(struct sector_thr *t)
{
	if (!t)
		return;
	cb_inst_free(&t->cipher);
	cb_inst_free(&t->sha256);
	cb_inst_free(&t->ekey);
	cb_inst_free(&t->auth);
	cb_inst_free(&t->salt);
	free(t);
}

/* geli: key the cipher for the data at byte offset off (block: see top). */
static int geli_key(struct sector_thr *t, uint64_t off, size_t block)
{
	struct sector_xf *xf = t->xf;
	uint64_t keyno = (off >> 20) / block;
	uint8_t msg[12], ekey[CB_MAX_DIGEST];
	int rc;

	if (t->keyed && t->keyno == keyno)
		return 0;
	cb_inst_free(&t->cipher);
	t->keyed = 0;
	memcpy(msg, "ekey", 4);
	cb_put_le64(msg + 4, keyno);
	if ((rc = cb_inst_digest(&t->ekey, msg, sizeof msg, ekey)) < 0)
		return rc;
	rc = cb_inst_new(&t->cipher, xf->cipher,
	                 xf->cfg.key_bits ? ekey : NULL, xf->cfg.key_bits / 8);
	cb_wipe(ekey, sizeof ekey);
	if (rc < 0)
		return rc;
	t->keyed = 1;
	t->keyno = keyno;
	return 0;
}

/* geli: the IV for the data at byte offset off into iv (iv_len bytes). */
static int geli_iv(struct sector_thr *t, uint64_t off, uint8_t *iv)
{
	const struct cb_alg *a = t->xf->cfg.cipher;
	const struct cb_impl *h = t->sha256.impl;
	uint8_t le[8], hash[32];
	int rc;

	cb_put_le64(le, off);
	if (!a->iv_len)
		return 0;
	if (a->flags & CB_F_XTS) {
		memset(iv, 0, a->iv_len);
		memcpy(iv, le, 8);
		return 0;
	}
	if ((rc = h->init(t->sha256.ctx)) < 0 ||
	    (rc = h->update(t->sha256.ctx, t->xf->ivkey, 64)) < 0 ||
	    (rc = h->update(t->sha256.ctx, le, 8)) < 0 ||
	    (rc = h->final(t->sha256.ctx, hash)) < 0)
		return rc;
	memcpy(iv, hash, a->iv_len);
	return 0;
}

/* One cipher request for the data at offset off (geli). */
static int geli_one(struct sector_thr *t, int enc, uint64_t off, size_t block,
                    const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t iv[CB_MAX_BLOCK];
	cb_crypt_fn fn;
	int rc;

	if ((rc = geli_key(t, off, block)) < 0 || (rc = geli_iv(t, off, iv)) < 0)
		return rc;
	fn = enc ? t->cipher.impl->encrypt : t->cipher.impl->decrypt;
	return fn(t->cipher.ctx, t->cipher.alg->iv_len ? iv : NULL, in, out, len);
}

/* The per-disk-sector HMAC of c (len bytes) at disk offset dstoff. */
static int geli_tag(struct sector_thr *t, uint64_t dstoff, const uint8_t *c,
                    size_t len, uint8_t *tag)
{
	struct sector_xf *xf = t->xf;
	const struct cb_impl *h = t->sha256.impl;
	uint8_t le[8], ak[32], full[CB_MAX_DIGEST];
	int rc;

	cb_put_le64(le, dstoff);
	if ((rc = h->init(t->sha256.ctx)) < 0 ||
	    (rc = h->update(t->sha256.ctx, xf->akey, 64)) < 0 ||
	    (rc = h->update(t->sha256.ctx, le, 8)) < 0 ||
	    (rc = h->final(t->sha256.ctx, ak)) < 0 ||
	    (rc = cb_inst_rekey(&t->auth, ak, sizeof ak)) < 0 ||
	    (rc = cb_inst_digest(&t->auth, c, len, full)) < 0)
		goto wipe_ak;
	memcpy(tag, full, xf->alen);
wipe_ak:
	cb_wipe(ak, sizeof ak);
	return rc;
}

/* The IV of sector number sector into iv (the layout's rule). */
typedef int (*sector_iv_fn)(struct sector_thr *t, uint64_t sector,
                            uint8_t *iv);

#define BATCH 16    /* requests handed to cb_inst_batch() at a time */

/* nsec whole sectors as batches of independent requests, each with the
 * IV iv() gives (or none for a cipher without one): the implementation's
 * batch entry point where it has one, else one request after another. */
static int batched(struct sector_thr *t, int enc, uint64_t first,
                   const uint8_t *in, uint8_t *out, size_t nsec,
                   sector_iv_fn iv)
{
	size_t ss = t->xf->cfg.sector_size;
	int has_iv = t->cipher.alg->iv_len != 0;
	uint8_t ivbuf[BATCH][CB_MAX_BLOCK];
	const uint8_t *ivs[BATCH], *ins[BATCH];
	uint8_t *outs[BATCH];
	int rc;

	for (size_t done = 0, k; done < nsec; done += k) {
		k = nsec - done < BATCH ? nsec - done : BATCH;
		for (size_t i = 0; i < k; i++) {
			if (has_iv && (rc = iv(t, first + done + i, ivbuf[i])) < 0)
				return rc;
			ivs[i] = ivbuf[i];
			ins[i] = in + (done + i) * ss;
			outs[i] = out + (done + i) * ss;
		}
		if ((rc = cb_inst_batch(&t->cipher, enc, (unsigned)k,
		                        has_iv ? ivs : NULL, ins, outs, ss)) < 0)
			return rc;
	}
	return 0;
}

static int geli_sector_iv(struct sector_thr *t, uint64_t sector, uint8_t *iv)
{
	return geli_iv(t, sector * t->xf->cfg.sector_size, iv);
}

/*
 * geli without -a: runs of sectors under one key (a new one every 2^20
 * blocks).  XTS tweaks are the byte offsets, le64(first * S + k * S): a
 * multi-sector request (cb_inst_sectors, IV step S); other ciphers get
 * batches of requests with their hashed IVs.
 */
static int geli_plain(struct sector_thr *t, int enc, uint64_t first,
                      const uint8_t *in, uint8_t *out, size_t nsec)
{
	size_t ss = t->xf->cfg.sector_size;
	int rc;

	while (nsec) {
		uint64_t off = first * ss;
		uint64_t next_key = (((off >> 20) / ss + 1) * ss) << 20;
		size_t n = (next_key - off) / ss < nsec ? (next_key - off) / ss
		                                        : nsec;

		if ((rc = geli_key(t, off, ss)) < 0)
			return rc;
		rc = t->xf->cfg.cipher->flags & CB_F_XTS
		     ? cb_inst_sectors(&t->cipher, enc, off, ss, ss, in, out, n * ss)
		     : batched(t, enc, first, in, out, n, geli_sector_iv);
		if (rc < 0)
			return rc;
		first += n;
		in += n * ss;
		out += n * ss;
		nsec -= n;
	}
	return 0;
}

static int geli_run(struct sector_thr *t, int enc, uint64_t first,
                    const uint8_t *in, uint8_t *out, size_t nsec, uint8_t *bad)
{
	struct sector_xf *xf = t->xf;
	size_t ss = xf->cfg.sector_size;
	int rc, any_bad = 0;

	if (!xf->cfg.auth)
		return geli_plain(t, enc, first, in, out, nsec);
	for (size_t s = 0; s < nsec; s++) {
		const uint8_t *src = enc ? in + s * ss : in + s * xf->disk;
		uint8_t *dst = enc ? out + s * xf->disk : out + s * ss;
		uint64_t dstoff = (first + s) * xf->disk;
		size_t pos = 0;

		for (unsigned i = 0; i < xf->chunks; i++, dstoff += SECTOR_DISK) {
			size_t n = sector_chunk_len(xf, i);
			uint8_t tag[CB_MAX_DIGEST];

			if (enc) {
				uint8_t *d = dst + (size_t)i * SECTOR_DISK;

				if ((rc = geli_one(t, 1, dstoff, SECTOR_DISK, src + pos,
				                   d + xf->alen, n)) < 0 ||
				    (rc = geli_tag(t, dstoff, d + xf->alen, n, d)) < 0)
					return rc;
				memset(d + xf->alen + n, 0, SECTOR_DISK - xf->alen - n);
			} else {
				const uint8_t *d = src + (size_t)i * SECTOR_DISK;
				int ok;

				if ((rc = geli_tag(t, dstoff, d + xf->alen, n, tag)) < 0)
					return rc;
				ok = cb_ct_equal(tag, d, xf->alen);
				if (bad)
					bad[s * xf->chunks + i] = !ok;
				if (!ok) {
					memset(dst + pos, 0, n);
					any_bad = 1;
				} else if ((rc = geli_one(t, 0, dstoff, SECTOR_DISK,
				                          d + xf->alen, dst + pos, n)) < 0) {
					return rc;
				}
			}
			pos += n;
		}
	}
	return any_bad ? -EBADMSG : 0;
}

static int dm_sector_iv(struct sector_thr *t, uint64_t sector, uint8_t *iv)
{
	const struct sector_cfg *c = &t->xf->cfg;
	uint64_t step = c->iv_large ? 1 : c->sector_size / 512;

	static const uint8_t zero[16];

	if (c->ivgen)
		c->ivgen->gen(iv, t->cipher.alg->iv_len, sector * step,
		              t->xf->benbi_shift);
	else
		memset(iv, 0, t->cipher.alg->iv_len);
	/* essiv_salt: one block of CBC from a zero IV is the block cipher */
	if (c->essiv_salt)
		return t->salt.impl->encrypt(t->salt.ctx, zero, iv, iv, 16);
	return 0;
}

/* dm-crypt: plain64 numbering as one multi-sector request, the other
 * generators as batches of requests. */
static int dm_run(struct sector_thr *t, int enc, uint64_t first,
                  const uint8_t *in, uint8_t *out, size_t nsec)
{
	const struct sector_cfg *c = &t->xf->cfg;
	size_t ss = c->sector_size;
	uint64_t step = c->iv_large ? 1 : ss / 512;

	if (c->ivgen && c->ivgen->multi && !c->essiv_salt)
		return cb_inst_sectors(&t->cipher, enc, first * step, step, ss, in,
		                       out, nsec * ss);
	return batched(t, enc, first, in, out, nsec, dm_sector_iv);
}

static int run(struct sector_thr *t, int enc, uint64_t first,
               const uint8_t *in, uint8_t *out, size_t nsec, uint8_t *bad)
{
	switch (t->xf->cfg.kind) {
	case SECTOR_GELI:
		return geli_run(t, enc, first, in, out, nsec, bad);
	case SECTOR_DMCRYPT:
		return dm_run(t, enc, first, in, out, nsec);
	case SECTOR_NONE:
		break;
	}
	if (in != out)
		memcpy(out, in, nsec * t->xf->disk);
	return 0;
}

int sector_encrypt(struct sector_thr *t, uint64_t first, const uint8_t *in,
                   uint8_t *out, size_t nsec)
{
	return run(t, 1, first, in, out, nsec, NULL);
}

int sector_decrypt(struct sector_thr *t, uint64_t first, const uint8_t *in,
                   uint8_t *out, size_t nsec, uint8_t *bad)
{
	return run(t, 0, first, in, out, nsec, bad);
}
