/*
 * template.h - generic templates composed from a backend's primitives,
 * as the kernel's crypto templates are: essiv(cbc(aes),sha256),
 * authenc(hmac(sha256),cbc(aes)) and essiv(authenc(...),sha256).
 */
#ifndef CB_TEMPLATE_H
#define CB_TEMPLATE_H

#include "core/cb.h"

#define CB_MAX_TEMPLATES 8

/* The kernel's crypto_authenc_extractkeys(): rtattr {len, type = 1}, be32
 * enckeylen, then authkey || enckey.  0 or -EINVAL. */
int cb_authenc_split(const uint8_t *key, size_t keylen,
                     const uint8_t **ak, size_t *aklen,
                     const uint8_t **ek, size_t *eklen);

/* The primitives a backend's templates are composed from, selected by the
 * core (NULL where there is none); sha may come from another backend. */
struct cb_tmpl_parts {
	const char *backend;            /* the backend's name, for driver names */
	const struct cb_impl *cbc;      /* cbc(aes)                              */
	const struct cb_impl *ecb;      /* ecb(aes)                              */
	const struct cb_impl *hmac;     /* hmac(sha256)                          */
	const struct cb_impl *sha;      /* sha256                                */
	const struct cb_impl *gcm;      /* gcm(aes)                              */
	int has_rfc4106;                /* the backend has its own rfc4106       */
	int has_null;                   /* the backend has its own cipher_null   */
};

/*
 * Append to out[at..] the templates that the parts allow (at most room
 * entries); returns how many were added.  The impls are allocated once
 * and live until exit.
 */
size_t cb_templates_build(const struct cb_tmpl_parts *p,
                          const struct cb_impl **out, size_t at, size_t room);

#endif
