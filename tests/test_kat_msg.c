/*
 * test_kat_msg - a FAIL line of `kat` carries what the implementation said:
 * the errno's name and text and the message it set (cb_set_error), for
 * every kind of call that can fail (setting the key, a cipher, an AEAD's
 * encrypt and decrypt, a digest, a derivation); a refusal (-ENOTSUP) is a
 * SKIP with its reason, also on an AEAD's encrypt.  Fake implementations
 * fail on purpose; the records are written here.  A wrong answer is named
 * on the line of the field that differed, with the first differing byte
 * and the bytes expected and got around it (kat_diff_text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "kat/kat.h"

#include "check.h"

static int fail_with(int rc, const char *what)
{
	cb_set_error("fake: %s planted", what);
	return rc;
}

static int32_t ok_key(void *c, const struct cb_impl *i, const uint8_t *k,
                      size_t n)
{
	(void)c, (void)i, (void)k, (void)n;
	return 0;
}

static int32_t bad_key(void *c, const struct cb_impl *i, const uint8_t *k,
                       size_t n)
{
	(void)c, (void)i, (void)k, (void)n;
	return fail_with(-EKEYREJECTED, "setkey");
}

static int32_t bad_crypt(void *c, const uint8_t *iv, const uint8_t *in,
                         uint8_t *out, size_t len)
{
	(void)c, (void)iv, (void)in, (void)out, (void)len;
	return fail_with(-EIO, "encrypt");
}

static int32_t bad_aead(void *c, const uint8_t *iv, const uint8_t *ad,
                        size_t adl, const uint8_t *in, uint8_t *out,
                        size_t len, uint8_t *tag, size_t tl)
{
	(void)c, (void)iv, (void)ad, (void)adl, (void)in, (void)out, (void)len;
	(void)tag, (void)tl;
	return fail_with(-EMSGSIZE, "aead");
}

static int32_t refuse_aead(void *c, const uint8_t *iv, const uint8_t *ad,
                           size_t adl, const uint8_t *in, uint8_t *out,
                           size_t len, uint8_t *tag, size_t tl)
{
	(void)c, (void)iv, (void)ad, (void)adl, (void)in, (void)out, (void)len;
	(void)tag, (void)tl;
	return fail_with(-ENOTSUP, "a refusal");
}

static int32_t bad_aead_dec(void *c, const uint8_t *iv, const uint8_t *ad,
                            size_t adl, const uint8_t *in, uint8_t *out,
                            size_t len, const uint8_t *tag, size_t tl)
{
	return bad_aead(c, iv, ad, adl, in, out, len, (uint8_t *)tag, tl);
}

static int32_t refuse_aead_dec(void *c, const uint8_t *iv, const uint8_t *ad,
                               size_t adl, const uint8_t *in, uint8_t *out,
                               size_t len, const uint8_t *tag, size_t tl)
{
	return refuse_aead(c, iv, ad, adl, in, out, len, (uint8_t *)tag, tl);
}

/* the input, byte 9 flipped: a wrong answer, no error */
static int32_t wrong_crypt(void *c, const uint8_t *iv, const uint8_t *in,
                           uint8_t *out, size_t len)
{
	(void)c, (void)iv;
	memmove(out, in, len);
	if (len > 9)
		out[9] ^= 0x01;
	return 0;
}

static int32_t zero_final(void *c, uint8_t *out)
{
	(void)c;
	memset(out, 0, 32);
	return 0;
}

static int32_t ok_init(void *c) { (void)c; return 0; }
static int32_t ok_update(void *c, const uint8_t *in, size_t n)
{
	(void)c, (void)in, (void)n;
	return 0;
}
static int32_t bad_final(void *c, uint8_t *out)
{
	(void)c, (void)out;
	return fail_with(-EOVERFLOW, "final");
}

static int32_t bad_derive(void *c, const struct cb_impl *i, const uint8_t *p,
                          size_t pl, const uint8_t *s, size_t sl,
                          const struct cb_kdf_params *k, uint8_t *o, size_t ol)
{
	(void)c, (void)i, (void)p, (void)pl, (void)s, (void)sl, (void)k;
	(void)o, (void)ol;
	return fail_with(-ERANGE, "derive");
}

static const char records[] =
	"alg = cbc(aes)\nkey = 000102030405060708090a0b0c0d0e0f\n"
	"iv = 000102030405060708090a0b0c0d0e0f\n"
	"pt = 000102030405060708090a0b0c0d0e0f\n"
	"ct = 000102030405060708090a0b0c0d0e0f\n\n"
	"alg = gcm(aes)\nkey = 000102030405060708090a0b0c0d0e0f\n"
	"iv = 000102030405060708090a0b\nassoc = 00\npt = 01\nct = 02\n"
	"tag = 000102030405060708090a0b0c0d0e0f\n\n"
	"alg = sha256\nmsg = 616263\n"
	"md = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n\n"
	"alg = pbkdf2(hmac(sha256))\npassword = 70\nsalt = 73\niterations = 1\n"
	"dk = 0102030405060708\n";

/* Run impl over the records; what kat printed, in buf. */
static void run(const struct cb_impl *impl, const struct vec_file *f,
                size_t nf, char *buf, size_t n)
{
	struct kat_count cnt = {0};
	FILE *out = tmpfile();
	size_t got;

	kat_run_impl(impl, "fake", f, nf, &cnt, out, 1);
	rewind(out);
	got = fread(buf, 1, n - 1, out);
	buf[got] = 0;
	fclose(out);
}

static void expect(const struct cb_impl *impl, const struct vec_file *f,
                   size_t nf, const char *want1, const char *want2)
{
	char buf[4096];

	run(impl, f, nf, buf, sizeof buf);
	checkf(strstr(buf, want1) && strstr(buf, want2),
	       "%s: kat printed '%s', not a line with '%s' and '%s'",
	       impl->driver, buf, want1, want2);
}

/* kat_diff_text: the window around the first difference, cut with "..." */
static void diff_text(void)
{
	uint8_t a[100], b[100];
	char buf[400];

	for (size_t i = 0; i < sizeof a; i++)
		a[i] = b[i] = (uint8_t)i;
	b[50] = 0xee;
	kat_diff_text(buf, sizeof buf, "ct", a, b, sizeof a);
	checkf(strstr(buf, "ct differs at byte 50 of 100 (bytes 42-65 shown): "
	               "expected ...2a2b2c2d2e2f303132333435") != NULL, "diff at 50: %s",
	       buf);
	checkf(strstr(buf, "got ...2a2b2c2d2e2f3031ee33") != NULL, "got at 50: %s", buf);
	checkf(strstr(buf, "4041... got") && buf[strlen(buf) - 1] == '.',
	       "cut after byte 65 on both: %s", buf);
	b[50] = 50;
	b[2] = 0;
	kat_diff_text(buf, sizeof buf, "md", a, b, sizeof a);
	checkf(strstr(buf, "md differs at byte 2 of 100 (bytes 0-23 shown): "
	               "expected 000102") != NULL, "diff at 2, no cut before: %s",
	       buf);
	kat_diff_text(buf, sizeof buf, "tag", a, b, 4);
	checkf(!strcmp(buf, "tag differs at byte 2 of 4: expected 00010203 got "
	               "00010003"), "whole field shown: %s", buf);
}

int main(void)
{
	const struct cb_impl key = { .alg = "cbc(aes)", .driver = "badkey",
	        .ctx_size = 1, .setkey = bad_key, .encrypt = bad_crypt,
	        .decrypt = bad_crypt };
	const struct cb_impl cipher = { .alg = "cbc(aes)", .driver = "badcbc",
	        .ctx_size = 1, .setkey = ok_key, .encrypt = bad_crypt,
	        .decrypt = bad_crypt };
	const struct cb_impl aead = { .alg = "gcm(aes)", .driver = "badgcm",
	        .ctx_size = 1, .setkey = ok_key, .aead_encrypt = bad_aead,
	        .aead_decrypt = bad_aead_dec };
	const struct cb_impl refuse = { .alg = "gcm(aes)", .driver = "nogcm",
	        .ctx_size = 1, .setkey = ok_key, .aead_encrypt = refuse_aead,
	        .aead_decrypt = refuse_aead_dec };
	const struct cb_impl hash = { .alg = "sha256", .driver = "badsha",
	        .ctx_size = 1, .init = ok_init, .update = ok_update,
	        .final = bad_final };
	const struct cb_impl kdf = { .alg = "pbkdf2(hmac(sha256))",
	        .driver = "badkdf", .ctx_size = 1, .derive = bad_derive };
	const struct cb_impl wrong = { .alg = "cbc(aes)", .driver = "wrongcbc",
	        .ctx_size = 1, .setkey = ok_key, .encrypt = wrong_crypt,
	        .decrypt = wrong_crypt };
	const struct cb_impl zero = { .alg = "sha256", .driver = "zerosha",
	        .ctx_size = 1, .init = ok_init, .update = ok_update,
	        .final = zero_final };
	char path[] = "/tmp/test_kat_msg.XXXXXX";
	struct vec_file *files = NULL;
	size_t nf = 0;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, records, sizeof records - 1) < 0 ||
	    close(fd) < 0 || kat_load(path, &files, &nf) < 0 ||
	    kat_validate(files, nf) < 0) {
		printf("cannot write or load %s\n", path);
		return 1;
	}
	unlink(path);
	expect(&key, files, nf, "FAIL", "setting the key failed: EKEYREJECTED "
	       "(Key was rejected by service): fake: setkey planted");
	expect(&cipher, files, nf, "FAIL", "EIO (Input/output error): fake: "
	       "encrypt planted");
	expect(&aead, files, nf, "FAIL", "encrypt returned an error: EMSGSIZE "
	       "(Message too long): fake: aead planted");
	expect(&refuse, files, nf, "SKIP", "request not supported by this "
	       "driver: fake: a refusal planted");
	expect(&hash, files, nf, "FAIL", "EOVERFLOW (Value too large for defined "
	       "data type): fake: final planted");
	expect(&kdf, files, nf, "FAIL", "derive returned an error: ERANGE "
	       "(Numerical result out of range): fake: derive planted");
	/* the ct field is line 5 of records, sha256's md line 17 */
	expect(&wrong, files, nf, ":5 fake wrongcbc: encrypt (out of place): "
	       "ciphertext mismatch: ", "ct differs at byte 9 of 16: expected "
	       "000102030405060708090a0b0c0d0e0f got "
	       "000102030405060708080a0b0c0d0e0f");
	expect(&zero, files, nf, ":17 fake zerosha: digest mismatch: md differs "
	       "at byte 0 of 32 (bytes 0-23 shown): expected ba7816bf",
	       "got 000000000000");
	diff_text();
	for (size_t i = 0; i < nf; i++)
		vec_free(&files[i]);
	free(files);
	return finish();
}
