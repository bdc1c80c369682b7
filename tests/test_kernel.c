/*
 * test_kernel - the kernel backend's AF_ALG errors become the usual
 * messages and return codes (docs/kernel.md): ENOENT when a driver does not
 * exist (bind), EINVAL for a key the kernel refuses (a malformed authenc
 * blob), ENOKEY when a keyed algorithm gets no key, EBADMSG for a tag that
 * does not verify, and an implementation of every kind round-trips.  Where
 * the kernel has no AF_ALG (this project's development VM) the backend
 * must say why, and the test is skipped (exit 77) after checking that;
 * `make check-kernel` runs it inside Debian's kernel under qemu.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "check.h"

static const struct cb_impl *pick(const char *alg)
{
	return cb_impl_select(cb_backend_find("kernel"), alg, NULL, NULL);
}

/* a copy of impl bound to another driver name: what a user's typo does */
static void bind_missing(const struct cb_impl *impl)
{
	struct cb_impl fake = *impl;
	void *ctx = calloc(1, impl->ctx_size);
	uint8_t key[32] = { 1 };
	int rc;

	fake.driver = "cbc-aes-no-such-driver";
	cb_clear_error();
	rc = fake.setkey(ctx, &fake, key, 16);
	checkf(rc == -ENOENT, "bind of a missing driver: %d, not -ENOENT", rc);
	checkf(strstr(cb_last_error(), "cbc-aes-no-such-driver") != NULL,
	       "the message names the driver: '%s'", cb_last_error());
	fake.free(ctx);
	free(ctx);
}

static void bad_authenc_key(void)
{
	const struct cb_impl *impl = pick("authenc(hmac(sha256),cbc(aes))");
	struct cb_inst x;
	/* rtattr length 8 claims no key-length field: the kernel's
	 * crypto_authenc_extractkeys refuses it */
	uint8_t blob[8 + 32 + 16] = { 0x04, 0x00, 0x01, 0x00, 0, 0, 0, 0x10 };
	int rc;

	if (!impl) {
		skip("no authenc(hmac(sha256),cbc(aes)) in this kernel");
		return;
	}
	cb_clear_error();
	rc = cb_inst_new(&x, impl, blob, sizeof blob);
	checkf(rc == -EINVAL, "malformed authenc key: %d, not -EINVAL", rc);
	checkf(strstr(cb_last_error(), "EINVAL") || strstr(cb_last_error(),
	       "Invalid argument"), "EINVAL's message: '%s'", cb_last_error());
	if (rc == 0)
		cb_inst_free(&x);
}

static void no_key(void)
{
	const struct cb_impl *impl = pick("hmac(sha256)");
	void *ctx;
	int rc;

	if (!impl) {
		skip("no hmac(sha256) in this kernel");
		return;
	}
	ctx = calloc(1, impl->ctx_size);
	cb_clear_error();
	rc = impl->setkey(ctx, impl, NULL, 0);   /* a MAC without its key */
	if (rc == 0 && (rc = impl->init(ctx)) == 0 &&
	    (rc = impl->update(ctx, (const uint8_t *)"abc", 3)) == 0) {
		uint8_t d[CB_MAX_DIGEST];

		rc = impl->final(ctx, d);
	}
	checkf(rc == -ENOKEY, "hmac without a key: %d, not -ENOKEY", rc);
	checkf(strstr(cb_last_error(), "ENOKEY") != NULL, "ENOKEY's message: '%s'",
	       cb_last_error());
	impl->free(ctx);
	free(ctx);
}

static void bad_tag(void)
{
	const struct cb_impl *impl = pick("authenc(hmac(sha256),cbc(aes))");
	uint8_t blob[8 + 32 + 16] = { 0x08, 0x00, 0x01, 0x00, 0, 0, 0, 0x10 };
	uint8_t iv[16] = { 7 }, ad[24] = { 1 }, pt[64], ct[64], back[64], tag[32];
	struct cb_inst x;
	int rc;

	if (!impl) {
		skip("no authenc in this kernel");
		return;
	}
	for (size_t i = 0; i < sizeof pt; i++)
		pt[i] = (uint8_t)i;
	for (size_t i = 8; i < sizeof blob; i++)
		blob[i] = (uint8_t)(i * 7);
	if (cb_inst_new(&x, impl, blob, sizeof blob) < 0) {
		checkf(0, "authenc key: %s", cb_last_error());
		return;
	}
	rc = impl->aead_encrypt(x.ctx, iv, ad, sizeof ad, pt, ct, sizeof pt,
	                        tag, sizeof tag);
	check(rc == 0, "authenc encrypt");
	rc = impl->aead_decrypt(x.ctx, iv, ad, sizeof ad, ct, back, sizeof ct,
	                        tag, sizeof tag);
	check(rc == 0 && !memcmp(back, pt, sizeof pt), "authenc round trip");
	tag[5] ^= 1;
	cb_clear_error();
	rc = impl->aead_decrypt(x.ctx, iv, ad, sizeof ad, ct, back, sizeof ct,
	                        tag, sizeof tag);
	checkf(rc == -EBADMSG, "flipped tag: %d, not -EBADMSG", rc);
	checkf(strstr(cb_last_error(), "EBADMSG") != NULL, "EBADMSG's message: '%s'",
	       cb_last_error());
	cb_inst_free(&x);
}

int main(void)
{
	const struct cb_backend *b = cb_backend_find("kernel");
	const char *why = "";

	check(b != NULL, "a backend named kernel");
	if (!b)
		return finish();
	if (cb_backend_status(b, &why) < 0) {
		/* no AF_ALG: unavailable with a reason that names the module */
		checkf(strstr(why, "af_alg") != NULL || strstr(why, "AF_ALG") != NULL,
		       "the reason names AF_ALG: '%s'", why);
		check(cb_impl_find(b, "xts(aes)", 0) == NULL,
		      "no implementations without AF_ALG");
		printf("skipped: the kernel backend is unavailable here: %s\n", why);
		printf("%u passed, %u failed\n", passed, failed);
		return failed ? 1 : 77;
	}
	if (pick("cbc(aes)"))
		bind_missing(pick("cbc(aes)"));
	bad_authenc_key();
	no_key();
	bad_tag();
	return finish();
}
