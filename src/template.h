/*
 * template.h - generic templates composed from a backend's primitives,
 * as the kernel's crypto templates are: essiv(cbc(aes),sha256),
 * authenc(hmac(sha256),cbc(aes)) and essiv(authenc(...),sha256).
 */
#ifndef CB_TEMPLATE_H
#define CB_TEMPLATE_H

#include "cb.h"

#define CB_MAX_TEMPLATES 8

/* The kernel's crypto_authenc_extractkeys(): rtattr {len, type = 1}, be32
 * enckeylen, then authkey || enckey.  0 or -EINVAL. */
int cb_authenc_split(const uint8_t *key, size_t keylen,
                     const uint8_t **ak, size_t *aklen,
                     const uint8_t **ek, size_t *eklen);

/*
 * Append to out[at..] the templates that backend b's primitives allow
 * (at most room entries); returns how many were added.  The impls are
 * allocated once and live until exit.
 */
size_t cb_templates_build(const struct cb_backend *b,
                          const struct cb_impl **out, size_t at, size_t room);

#endif
