/*
 * kernel.c - the running kernel's crypto API through AF_ALG (docs/kernel.md).
 *
 * One implementation per driver that /proc/crypto lists for a registry
 * algorithm (not internal, of the socket type the kind needs), found when
 * the backend is probed: each algorithm is first bound by its name, which
 * is what dm-crypt asks for (and instantiates a template the way dm-crypt
 * would), then /proc/crypto is read again.  Other instances are created
 * only when asked: `--cpu generic` binds each algorithm's generic-C
 * combination (xts(ecb(aes-generic)), ...), and CRYPTOBENCH_KERNEL_DRIVERS
 * names more; what was created is deleted again at exit through
 * crypto_user (CRYPTO_MSG_DELALG), or stderr says that it stays.
 *
 * Per request: one sendmsg (ALG_SET_OP, ALG_SET_IV, ALG_SET_AEAD_ASSOCLEN,
 * the data copied into the kernel) and one read, in place - what
 * `cryptsetup benchmark` measures; no zero-copy or AIO (removed from the
 * kernels that deprecate AF_ALG).  The speed is the userspace-visible one:
 * two system calls a request.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <linux/if_alg.h>
#include <linux/netlink.h>
#include <linux/cryptouser.h>

#include "core/cb.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define K_MAX_IMPLS 256
#define K_MAX_MADE  64

/* what /proc/crypto says of one driver */
struct kent {
	char name[128], driver[128], module[64], type[32], selftest[16];
	int priority, internal;
};

struct kctx {
	int tfm, op;          /* the bound socket, its accepted operation socket */
	const struct cb_alg *alg;
	unsigned authsize;    /* AEAD: the tag length set on tfm               */
	int more;             /* hash: bytes sent since the last digest         */
	int essiv;            /* essiv: no chained requests                     */
	int keyed;            /* tfm and op are ours (a rekey reuses them)      */
	uint8_t iv[CB_MAX_BLOCK];
	size_t maxreq;        /* the largest request the socket takes          */
};

static struct cb_impl impls[K_MAX_IMPLS];
static const struct cb_impl *table[K_MAX_IMPLS + 1];
static char notes[K_MAX_IMPLS][96];
static unsigned cap_hw = CB_HW_ALL;
static char made[K_MAX_MADE][2][128];   /* instances we created: name, driver */
static int nmade;
static char details_buf[512];

static const char *k_type(const struct cb_alg *a)
{
	switch (a->kind) {
	case CB_CIPHER: return "skcipher";
	case CB_HASH: case CB_MAC: return "hash";
	case CB_AEAD: return "aead";
	case CB_KDF: break;         /* the crypto API has no KDF type */
	}
	return NULL;
}

static int k_bind(const char *type, const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	snprintf((char *)sa.salg_type, sizeof sa.salg_type, "%s", type);
	snprintf((char *)sa.salg_name, sizeof sa.salg_name, "%s", name);
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

/* /proc/crypto into e[] (at most n); the count, or negative */
static int k_read_proc(struct kent *e, int n)
{
	FILE *f = fopen("/proc/crypto", "r");
	char line[256], key[64], val[192];
	int k = -1;

	if (!f)
		return -errno;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%63s : %191[^\n]", key, val) != 2)
			continue;
		if (!strcmp(key, "name")) {
			if (k + 1 >= n)
				break;
			memset(&e[++k], 0, sizeof e[k]);
			snprintf(e[k].name, sizeof e[k].name, "%.127s", val);
		} else if (k < 0) {
			continue;
		} else if (!strcmp(key, "driver")) {
			snprintf(e[k].driver, sizeof e[k].driver, "%.127s", val);
		} else if (!strcmp(key, "module")) {
			snprintf(e[k].module, sizeof e[k].module, "%.63s", val);
		} else if (!strcmp(key, "type")) {
			snprintf(e[k].type, sizeof e[k].type, "%.31s", val);
		} else if (!strcmp(key, "selftest")) {
			snprintf(e[k].selftest, sizeof e[k].selftest, "%.15s", val);
		} else if (!strcmp(key, "priority")) {
			e[k].priority = atoi(val);
		} else if (!strcmp(key, "internal")) {
			e[k].internal = !strcmp(val, "yes");
		}
	}
	fclose(f);
	return k + 1;
}

/* the /proc/crypto type fits the socket type the kind binds */
static int k_type_fits(const struct cb_alg *a, const char *type)
{
	if (a->kind == CB_CIPHER)
		return !strcmp(type, "skcipher");
	if (a->kind == CB_AEAD)
		return !strcmp(type, "aead");
	if (a->kind == CB_KDF)
		return 0;
	return !strcmp(type, "shash") || !strcmp(type, "ahash");
}

/*
 * The CPU features a driver's name says it needs (docs/cpu.md): the
 * kernel names its drivers after their code path.
 */
static unsigned k_driver_hw(const char *d)
{
	unsigned hw = 0;

	if (strstr(d, "avx512") || strstr(d, "avx10"))
		hw |= CB_HW_AVX512 | CB_HW_VAES | CB_HW_AVX2 | CB_HW_AVX;
	if (strstr(d, "vaes") || strstr(d, "vpclmul"))
		hw |= CB_HW_VAES | CB_HW_AVX2 | CB_HW_AVX;
	if (strstr(d, "avx2"))
		hw |= CB_HW_AVX2 | CB_HW_AVX;
	if (strstr(d, "avx"))
		hw |= CB_HW_AVX;
	if (strstr(d, "aesni") || strstr(d, "aes-ni"))
		hw |= CB_HW_AES;
	if (strstr(d, "clmul"))
		hw |= CB_HW_PCLMUL;
	if (strstr(d, "-ni") && (strstr(d, "sha1") || strstr(d, "sha256")))
		hw |= CB_HW_SHA;
	return hw;
}

/* The generic-C combination of each algorithm, bound under --cpu generic */
static const char *const generic_of[][2] = {
	{ "authenc(hmac(sha256),cbc(aes))",
	  "authenc(hmac(sha256-generic),cbc(aes-generic))" },
	{ "cbc(aes)", "cbc(aes-generic)" },
	{ "cbc(blowfish)", "cbc(blowfish-generic)" },
	{ "cbc(camellia)", "cbc(camellia-generic)" },
	{ "cbc(des3_ede)", "cbc(des3_ede-generic)" },
	{ "cbc(serpent)", "cbc(serpent-generic)" },
	{ "cbc(twofish)", "cbc(twofish-generic)" },
	{ "chacha20", "chacha20-generic" },
	{ "ctr(aes)", "ctr(aes-generic)" },
	{ "ecb(aes)", "ecb(aes-generic)" },
	{ "essiv(cbc(aes),sha256)", "essiv(cbc(aes-generic),sha256-generic)" },
	{ "gcm(aes)", "gcm_base(ctr(aes-generic),ghash-generic)" },
	{ "hmac(md5)", "hmac(md5-generic)" },
	{ "hmac(rmd160)", "hmac(rmd160-generic)" },
	{ "hmac(sha1)", "hmac(sha1-generic)" },
	{ "hmac(sha224)", "hmac(sha224-generic)" },
	{ "hmac(sha256)", "hmac(sha256-generic)" },
	{ "hmac(sha384)", "hmac(sha384-generic)" },
	{ "hmac(sha512)", "hmac(sha512-generic)" },
	{ "rfc4106(gcm(aes))",
	  "rfc4106(gcm_base(ctr(aes-generic),ghash-generic))" },
	{ "rfc7539(chacha20,poly1305)",
	  "rfc7539(chacha20-generic,poly1305-generic)" },
	{ "xts(aes)", "xts(ecb(aes-generic))" },
	{ "xts(serpent)", "xts(ecb(serpent-generic))" },
	{ "xts(twofish)", "xts(ecb(twofish-generic))" },
};

/* ---- instances made on request, deleted at exit ------------------------ */

static int open_fds[K_MAX_IMPLS * 4];
static int nopen;

static void k_track(int fd)
{
	for (int i = 0; i < nopen; i++)
		if (open_fds[i] < 0) {
			open_fds[i] = fd;
			return;
		}
	if (nopen < (int)(sizeof open_fds / sizeof open_fds[0]))
		open_fds[nopen++] = fd;
}

static void k_close(int fd)
{
	if (fd < 0)
		return;
	for (int i = 0; i < nopen; i++)
		if (open_fds[i] == fd)
			open_fds[i] = -1;
	close(fd);
}

/* crypto_user's CRYPTO_MSG_DELALG for one instance: 0 or negative errno */
static int k_delete(const char *name, const char *driver)
{
	struct {
		struct nlmsghdr h;
		struct crypto_user_alg a;
	} req;
	char buf[512];
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_CRYPTO);
	ssize_t n;
	int rc = -EIO;

	if (fd < 0)
		return -errno;
	memset(&req, 0, sizeof req);
	req.h.nlmsg_len = sizeof req;
	req.h.nlmsg_type = CRYPTO_MSG_DELALG;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	snprintf(req.a.cru_name, sizeof req.a.cru_name, "%s", name);
	snprintf(req.a.cru_driver_name, sizeof req.a.cru_driver_name, "%s", driver);
	if (sendto(fd, &req, sizeof req, 0, (struct sockaddr *)&sa, sizeof sa) < 0)
		rc = -errno;
	else if ((n = recv(fd, buf, sizeof buf, 0)) >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr))) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (h->nlmsg_type == NLMSG_ERROR)
			rc = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	}
	close(fd);
	return rc;
}

static void k_cleanup_quiet(int quiet);

static void k_cleanup(void)
{
	k_cleanup_quiet(0);
}

/* ^C or kill: the instances go first, then the signal's default */
static void k_on_signal(int sig)
{
	k_cleanup_quiet(1);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* delete what was made at exit, also when the output pipe closes early
 * (`... | head`: SIGPIPE ignored, writes fail) or on SIGINT/SIGTERM */
static void k_cleanup_at_exit(void)
{
	void (*prev)(int);

	atexit(k_cleanup);
	signal(SIGPIPE, SIG_IGN);
	/* a program that handles ^C itself (bench keeps what it measured)
	 * exits normally, and atexit runs: its handler stays */
	if ((prev = signal(SIGINT, k_on_signal)) != SIG_DFL)
		signal(SIGINT, prev);
	if ((prev = signal(SIGTERM, k_on_signal)) != SIG_DFL)
		signal(SIGTERM, prev);
}

static void k_cleanup_quiet(int quiet)
{
	int left = nmade;

	for (int i = 0; i < nopen; i++)
		if (open_fds[i] >= 0)
			close(open_fds[i]);
	nopen = 0;
	/* An instance another one is built on is busy until that one goes
	 * (EBUSY): passes until nothing more goes, a little apart.  ENOENT:
	 * gone already, with an instance it was built on. */
	for (int pass = 0; left && pass < 10; pass++) {
		if (pass)
			usleep(20000);
		for (int i = nmade - 1; i >= 0; i--) {
			int rc;

			if (!made[i][1][0])
				continue;
			rc = k_delete(made[i][0], made[i][1]);
			if (rc == 0 || rc == -ENOENT || pass == 9) {
				if (rc < 0 && rc != -ENOENT && !quiet)
					fprintf(stderr, "cryptobench: kernel: the instance "
					        "%s that cryptobench created STAYS in "
					        "/proc/crypto (delete failed: %s; crypto_user "
					        "and CAP_NET_ADMIN are needed)\n", made[i][1],
					        strerror(-rc));
				made[i][1][0] = 0;
				left--;
			}
		}
	}
	nmade = 0;
}

/* bind driver (any socket type) if /proc/crypto lacks it, and remember it */
static void k_make(const char *driver, const struct kent *e, int n)
{
	static const char *const types[] = { "skcipher", "hash", "aead" };
	int fd = -ENOENT;

	for (int i = 0; i < n; i++)
		if (!strcmp(e[i].driver, driver))
			return;                 /* there already: not ours */
	for (size_t t = 0; t < 3 && fd < 0; t++)
		fd = k_bind(types[t], driver);
	if (fd < 0) {
		fprintf(stderr, "cryptobench: kernel: cannot create %s: %s\n",
		        driver, strerror(-fd));
		return;
	}
	close(fd);
	if (nmade < K_MAX_MADE) {
		snprintf(made[nmade][1], sizeof made[nmade][1], "%s", driver);
		made[nmade][0][0] = 0;          /* its name, from /proc/crypto */
		nmade++;
	}
}

/* every driver that was asked for: --cpu generic, CRYPTOBENCH_KERNEL_DRIVERS */
static void k_make_asked(const struct kent *e, int n)
{
	const char *env = getenv("CRYPTOBENCH_KERNEL_DRIVERS");

	if (!(cap_hw & CB_HW_AES))
		for (size_t i = 0; i < sizeof generic_of / sizeof generic_of[0]; i++)
			k_make(generic_of[i][1], e, n);
	if (env && *env) {
		char *list = strdup(env), *save = NULL;

		for (char *d = list ? strtok_r(list, ",", &save) : NULL; d;
		     d = strtok_r(NULL, ",", &save))
			k_make(d, e, n);
		free(list);
	}
}

/* ---- operations --------------------------------------------------------- */

static int k_fail(const struct kctx *c, const char *what, int e)
{
	(void)c;
	if (e == EBADMSG)
		cb_set_error("kernel: %s: the tag does not verify (EBADMSG)", what);
	else if (e == ENOKEY)
		cb_set_error("kernel: %s: no key set (ENOKEY)", what);
	else
		cb_set_error("kernel: %s: %s", what, strerror(e));
	return -e;
}

/* the operation socket, with a send buffer the whole request fits */
static int k_accept(struct kctx *c)
{
	socklen_t vl = sizeof(int);
	int v = 8 << 20;

	if ((c->op = accept4(c->tfm, NULL, NULL, SOCK_CLOEXEC)) < 0) {
		int e = errno;

		c->op = -1;
		return k_fail(c, "accept", e);
	}
	k_track(c->op);
	/* root may raise the limit */
	if (setsockopt(c->op, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof v) < 0)
		setsockopt(c->op, SOL_SOCKET, SO_SNDBUF, &v, sizeof v);
	v = 0;
	getsockopt(c->op, SOL_SOCKET, SO_SNDBUF, &v, &vl);
	c->maxreq = v > 4096 ? (size_t)v & ~(size_t)4095 : 4096;
	return 0;
}

static void k_free(void *vctx);

/* A MAC's next key (geli's per-sector HMAC key) on the bound socket it
 * has: af_alg takes no key while an operation socket is open (EBUSY, see
 * k_authsize), so that one is closed, the key set, a new one accepted -
 * no new bind, and no socket pair left behind a sector. */
static int k_rekey(struct kctx *c, const uint8_t *key, size_t keylen)
{
	k_close(c->op);
	c->op = -1;
	c->more = 0;
	if (setsockopt(c->tfm, SOL_ALG, ALG_SET_KEY,
	               keylen ? key : (const uint8_t *)"", (socklen_t)keylen) < 0)
		return k_fail(c, "ALG_SET_KEY", errno);
	return k_accept(c);
}

static int k_setkey(void *vctx, const struct cb_impl *impl,
                    const uint8_t *key, size_t keylen)
{
	struct kctx *c = vctx;
	const struct cb_alg *a = cb_alg_find(impl->alg, NULL);

	if (c->keyed && a && a->kind == CB_MAC && key)
		return k_rekey(c, key, keylen);
	if (c->keyed)
		k_free(c);
	c->tfm = c->op = -1;
	if (!a)
		return -EINVAL;
	c->keyed = 1;
	c->alg = a;
	c->essiv = impl->no_chain;
	if ((c->tfm = k_bind(k_type(a), impl->driver)) < 0) {
		int e = -c->tfm;

		c->tfm = -1;
		cb_set_error("kernel: cannot bind %s %s: %s", k_type(a),
		             impl->driver, strerror(e));
		return -e;
	}
	k_track(c->tfm);
	if (key && (keylen || a->kind == CB_MAC) &&
	    setsockopt(c->tfm, SOL_ALG, ALG_SET_KEY, keylen ? key : (const uint8_t *)"", (socklen_t)keylen) < 0)
		return k_fail(c, "ALG_SET_KEY", errno == EINVAL ? EINVAL : errno);
	if (a->kind == CB_AEAD) {
		c->authsize = a->digest_len;
		if (setsockopt(c->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL,
		               c->authsize) < 0)
			return k_fail(c, "ALG_SET_AEAD_AUTHSIZE", errno);
	}
	return k_accept(c);
}

static void k_free(void *vctx)
{
	struct kctx *c = vctx;

	if (c->op > 0)
		k_close(c->op);
	if (c->tfm > 0)
		k_close(c->tfm);
	c->op = c->tfm = -1;
	c->keyed = 0;
	cb_wipe(c->iv, sizeof c->iv);
}

/* one sendmsg: the operation, the IV (if any), the AEAD's assoclen */
static int k_send(struct kctx *c, int enc, const uint8_t *iv, unsigned ivlen,
                  int assoclen, struct iovec *iov, int niov, size_t total)
{
	union {
		char buf[CMSG_SPACE(4) + CMSG_SPACE(sizeof(struct af_alg_iv) +
		         CB_MAX_BLOCK) + CMSG_SPACE(4)];
		struct cmsghdr align;
	} u;
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = (size_t)niov,
	                    .msg_control = u.buf };
	struct cmsghdr *h;
	size_t space = CMSG_SPACE(4);
	ssize_t n;

	memset(&u, 0, sizeof u);
	if (iv)
		space += CMSG_SPACE(sizeof(struct af_alg_iv) + ivlen);
	if (assoclen >= 0)
		space += CMSG_SPACE(4);
	m.msg_controllen = space;
	h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_ALG;
	h->cmsg_type = ALG_SET_OP;
	h->cmsg_len = CMSG_LEN(4);
	*(uint32_t *)(void *)CMSG_DATA(h) = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	if (iv) {
		struct af_alg_iv *a;

		h = CMSG_NXTHDR(&m, h);
		h->cmsg_level = SOL_ALG;
		h->cmsg_type = ALG_SET_IV;
		h->cmsg_len = CMSG_LEN(sizeof *a + ivlen);
		a = (struct af_alg_iv *)(void *)CMSG_DATA(h);
		a->ivlen = ivlen;
		memcpy(a->iv, iv, ivlen);
	}
	if (assoclen >= 0) {
		h = CMSG_NXTHDR(&m, h);
		h->cmsg_level = SOL_ALG;
		h->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
		h->cmsg_len = CMSG_LEN(4);
		*(uint32_t *)(void *)CMSG_DATA(h) = (uint32_t)assoclen;
	}
	if (total > c->maxreq) {
		cb_set_error("kernel: a request of %zu bytes is more than AF_ALG's "
		             "socket buffer takes here (%zu; root may raise it)",
		             total, c->maxreq);
		return -ENOTSUP;
	}
	n = sendmsg(c->op, &m, 0);
	if (n < 0)
		return k_fail(c, "sendmsg", errno);
	if ((size_t)n != total)
		return k_fail(c, "sendmsg (short)", EIO);
	return 0;
}

/* one request: sendmsg (iv NULL: the kernel's chaining value), read */
static int k_send_read(struct kctx *c, int enc, const uint8_t *iv,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	struct iovec v = { .iov_base = (void *)(uintptr_t)in, .iov_len = len };
	ssize_t n;
	int rc;

	if (len == 0)
		return 0;
	if ((rc = k_send(c, enc, iv, c->alg->iv_len, -1, &v, 1, len)) < 0)
		return rc;
	n = read(c->op, out, len);
	if (n < 0)
		return k_fail(c, enc ? "encrypt" : "decrypt", errno);
	return (size_t)n == len ? 0 : k_fail(c, "read (short)", EIO);
}

static int k_crypt(struct kctx *c, int enc, const uint8_t *iv,
                   const uint8_t *in, uint8_t *out, size_t len)
{
	const struct cb_alg *a = c->alg;

	if (a->iv_len) {
		if (iv)
			memcpy(c->iv, iv, a->iv_len);
		else if (!(a->flags & CB_F_STREAM))
			iv = c->iv;         /* XTS: the same tweak again */
		else if (!c->essiv)
			return k_send_read(c, enc, NULL, in, out, len);
	} else {
		iv = NULL;
	}
	if (!iv && a->iv_len) {
		cb_set_error("kernel: %s takes an IV with every request (the "
		             "kernel's essiv encrypts it; no chained requests)",
		             a->name);
		return -ENOTSUP;
	}
	return k_send_read(c, enc, iv, in, out, len);
}

static int k_encrypt(void *ctx, const uint8_t *iv, const uint8_t *in,
                     uint8_t *out, size_t len)
{
	return k_crypt(ctx, 1, iv, in, out, len);
}

static int k_decrypt(void *ctx, const uint8_t *iv, const uint8_t *in,
                     uint8_t *out, size_t len)
{
	return k_crypt(ctx, 0, iv, in, out, len);
}

static int k_init(void *vctx)
{
	struct kctx *c = vctx;
	uint8_t d[CB_MAX_DIGEST];

	if (c->more && read(c->op, d, sizeof d) < 0)   /* drop a half message */
		return k_fail(c, "hash reset", errno);
	c->more = 0;
	return 0;
}

static int k_update(void *vctx, const uint8_t *in, size_t len)
{
	struct kctx *c = vctx;
	ssize_t n = send(c->op, in, len, MSG_MORE);

	if (n < 0)
		return k_fail(c, "hash send", errno);
	c->more = 1;
	return (size_t)n == len ? 0 : k_fail(c, "hash send (short)", EIO);
}

static int k_final(void *vctx, uint8_t *out)
{
	struct kctx *c = vctx;
	ssize_t n = read(c->op, out, c->alg->digest_len);

	c->more = 0;
	if (n < 0)
		return k_fail(c, "hash read", errno);
	return (size_t)n == c->alg->digest_len ? 0 : k_fail(c, "hash read (short)", EIO);
}

/*
 * Another tag length: af_alg refuses every setsockopt on a tfm socket
 * while an operation socket accepted from it is open (EBUSY), so the
 * operation socket is closed, the length set, and a new one accepted (the
 * key stays on the tfm).  A length the driver does not take (its
 * setauthsize: EINVAL) is a refusal with the kernel's reason, -ENOTSUP;
 * the old length then stays.
 */
static int k_authsize(struct kctx *c, size_t taglen)
{
	int e = 0, rc;

	if (taglen == c->authsize)
		return 0;
	if (c->op >= 0)
		k_close(c->op);
	c->op = -1;
	if (setsockopt(c->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL,
	               (socklen_t)taglen) < 0)
		e = errno;
	else
		c->authsize = (unsigned)taglen;
	if ((rc = k_accept(c)) < 0)
		return rc;
	if (e == EINVAL) {
		cb_set_error("kernel: %s takes no %zu-byte tag "
		             "(ALG_SET_AEAD_AUTHSIZE: %s)", c->alg->name, taglen,
		             strerror(e));
		return -ENOTSUP;
	}
	return e ? k_fail(c, "ALG_SET_AEAD_AUTHSIZE", e) : 0;
}

/* the kernel's AEAD output starts with a copy of the associated data */
static uint8_t *k_adbuf(size_t adlen)
{
	static __thread uint8_t *buf;
	static __thread size_t cap;

	if (adlen > cap) {
		free(buf);
		cap = adlen < 64 ? 64 : adlen;
		buf = malloc(cap);
		if (!buf)
			cap = 0;
	}
	return buf;
}

static int k_aead_encrypt(void *vctx, const uint8_t *iv, const uint8_t *ad,
                          size_t adlen, const uint8_t *in, uint8_t *out,
                          size_t len, uint8_t *tag, size_t taglen)
{
	struct kctx *c = vctx;
	struct iovec s[2] = { { (void *)(uintptr_t)ad, adlen },
	                      { (void *)(uintptr_t)in, len } };
	struct iovec r[3] = { { k_adbuf(adlen), adlen }, { out, len },
	                      { tag, taglen } };
	ssize_t n;
	int rc;

	if (adlen && !r[0].iov_base)
		return -ENOMEM;
	if ((rc = k_authsize(c, taglen)) < 0 ||
	    (rc = k_send(c, 1, iv, c->alg->iv_len, (int)adlen, s, 2, adlen + len)) < 0)
		return rc;
	n = readv(c->op, r, 3);
	if (n < 0)
		return k_fail(c, "aead encrypt", errno);
	return (size_t)n == adlen + len + taglen ? 0 : k_fail(c, "aead read (short)", EIO);
}

static int k_aead_decrypt(void *vctx, const uint8_t *iv, const uint8_t *ad,
                          size_t adlen, const uint8_t *in, uint8_t *out,
                          size_t len, const uint8_t *tag, size_t taglen)
{
	struct kctx *c = vctx;
	struct iovec s[3] = { { (void *)(uintptr_t)ad, adlen },
	                      { (void *)(uintptr_t)in, len },
	                      { (void *)(uintptr_t)tag, taglen } };
	struct iovec r[2] = { { k_adbuf(adlen), adlen }, { out, len } };
	ssize_t n;
	int rc;

	if (adlen && !r[0].iov_base)
		return -ENOMEM;
	if (!adlen && !len) {
		cb_set_error("through AF_ALG a decryption with neither associated "
		             "data nor text has nothing to read back, so the "
		             "kernel is never asked to verify the tag");
		return -ENOTSUP;
	}
	if ((rc = k_authsize(c, taglen)) < 0 ||
	    (rc = k_send(c, 0, iv, c->alg->iv_len, (int)adlen, s, 3,
	                 adlen + len + taglen)) < 0)
		return rc;
	n = readv(c->op, r, 2);
	if (n < 0)
		return k_fail(c, "aead decrypt", errno);
	return (size_t)n == adlen + len ? 0 : k_fail(c, "aead read (short)", EIO);
}

/* ---- discovery ------------------------------------------------------------ */

/*
 * essiv(authenc(...)): essiv.c puts the encrypted IV into the tail of the
 * destination's associated data, which dm-crypt authenticates because its
 * source and destination share the AAD buffer.  AF_ALG decrypts out of
 * place, so the kernel then verifies the tag over the AAD as sent: what it
 * encrypted does not decrypt (seen with vectors/authenc.vec).
 */
static int k_essiv_aead_probe(const struct cb_impl *impl, const char **why)
{
	(void)impl;
	*why = "through AF_ALG the kernel's essiv AEAD authenticates the AAD "
	       "as sent on decryption, not with the encrypted IV in its tail "
	       "(docs/kernel.md)";
	return -ENOTSUP;
}

/* one implementation for entry e of algorithm a */
static void k_add(int *ni, const struct cb_alg *a, const struct kent *e)
{
	struct cb_impl *p = &impls[*ni];

	memset(p, 0, sizeof *p);
	p->alg = a->name;
	p->driver = strdup(e->driver);
	if (!p->driver)
		return;
	p->priority = e->priority;
	p->ctx_size = sizeof(struct kctx);
	snprintf(notes[*ni], sizeof notes[*ni], "kernel module %.40s, selftest %.15s",
	         e->module, e->selftest[0] ? e->selftest : "-");
	p->note = notes[*ni];
	p->setkey = k_setkey;
	p->free = k_free;
	/* the kernel's essiv and chacha20 give no chaining value (iv_out):
	 * a request after one does not continue its stream */
	p->no_chain = !strncmp(a->name, "essiv(", 6) ||
	              !strcmp(a->name, "chacha20");
	if (a->kind == CB_AEAD && p->no_chain)
		p->probe = k_essiv_aead_probe;
	if (a->kind == CB_CIPHER) {
		p->encrypt = k_encrypt;
		p->decrypt = k_decrypt;
	} else if (a->kind == CB_AEAD) {
		p->aead_encrypt = k_aead_encrypt;
		p->aead_decrypt = k_aead_decrypt;
	} else {
		p->init = k_init;
		p->update = k_update;
		p->final = k_final;
	}
	table[(*ni)++] = p;
}

/* every driver of a in e[], highest priority first, within the --cpu cap */
static void k_add_alg(int *ni, const struct cb_alg *a, const struct kent *e,
                      int n)
{
	int used[K_MAX_IMPLS] = { 0 };

	for (;;) {
		int best = -1;

		for (int i = 0; i < n && i < K_MAX_IMPLS; i++)
			if (!used[i] && !e[i].internal && !strcmp(e[i].name, a->name) &&
			    k_type_fits(a, e[i].type) &&
			    !(k_driver_hw(e[i].driver) & ~cap_hw) &&
			    (best < 0 || e[i].priority > e[best].priority))
				best = i;
		if (best < 0 || *ni >= K_MAX_IMPLS)
			return;
		used[best] = 1;
		k_add(ni, a, &e[best]);
	}
}

static int k_probe(const char **why)
{
	struct kent *e;
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), n, ni = 0;

	if (fd < 0) {
		*why = errno == EAFNOSUPPORT
		       ? "no AF_ALG in this kernel (CONFIG_CRYPTO_USER_API_*; "
		         "load it: modprobe af_alg algif_skcipher algif_hash "
		         "algif_aead)"
		       : "AF_ALG sockets are refused here (socket: permission)";
		return -ENOTSUP;
	}
	close(fd);
	if (!(e = calloc(K_MAX_IMPLS * 4, sizeof *e))) {
		*why = "out of memory";
		return -ENOMEM;
	}
	n = k_read_proc(e, K_MAX_IMPLS * 4);
	k_make_asked(e, n < 0 ? 0 : n);
	for (size_t i = 0; i < cb_nalgs; i++)     /* what dm-crypt would get */
		if (k_type(&cb_algs[i]) &&
		    (fd = k_bind(k_type(&cb_algs[i]), cb_algs[i].name)) >= 0)
			close(fd);
	if ((n = k_read_proc(e, K_MAX_IMPLS * 4)) < 0) {
		free(e);
		*why = "cannot read /proc/crypto";
		return -ENOTSUP;
	}
	for (int m = 0; m < nmade; m++)
		for (int i = 0; i < n; i++)
			if (!strcmp(e[i].driver, made[m][1]))
				snprintf(made[m][0], sizeof made[m][0], "%s", e[i].name);
	if (nmade)
		k_cleanup_at_exit();
	for (size_t i = 0; i < cb_nalgs; i++)
		if (k_type(&cb_algs[i]))
			k_add_alg(&ni, &cb_algs[i], e, n);
	free(e);
	table[ni] = NULL;
	snprintf(details_buf, sizeof details_buf, "AF_ALG, %d drivers; two "
	         "system calls a request%s%s", ni, nmade ? "; created for this "
	         "run, deleted at exit: " : "", nmade ? made[0][1] : "");
	if (!ni) {
		*why = "AF_ALG binds nothing here (load algif_skcipher, "
		       "algif_hash and algif_aead)";
		return -ENOTSUP;
	}
	return 0;
}

static const char *k_version(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u) < 0)
		return "unknown";
	return u.release;
}

static const char *k_details(void)
{
	return details_buf[0] ? details_buf : NULL;
}

static int k_cap(unsigned hw, char *env, size_t n)
{
	(void)env;
	(void)n;
	cap_hw = hw;
	return 0;
}

const struct cb_backend cb_backend_kernel = {
	.name = "kernel",
	.description = "the running kernel's crypto API through AF_ALG",
	.probe = k_probe,
	.version = k_version,
	.details = k_details,
	.impls = table,
	.cap = k_cap,
	.no_templates = 1,
};
