/*
 * native_arch.h - the few primitives of the architecture that the native
 * backend's services use beside a path's table (native_gcm.c,
 * native_limits.c, native.c): the key schedule, a block or two of ECB
 * outside any path's loop, the dependent-add probe that measures a cycle,
 * and whether every path has gcm(aes).  x86-64: native_asm.h's routines;
 * AArch64: native_ce.h's.
 */
#ifndef CB_NATIVE_ARCH_H
#define CB_NATIVE_ARCH_H

#if defined(__x86_64__)
#include "native_asm.h"

#define ARCH_GCM         1      /* gcm(aes) on every path (PCLMULQDQ)    */
#define arch_expand_key  cb_aes_expand_key
#define arch_ecb_enc     cb_aesni_ecb_enc   /* a block or two, any path  */
#define arch_probe_adds  cb_native_probe_adds
#define ARCH_PROBE_N     160000             /* probe iterations: ~1M cycles */
#define ARCH_RATE_UNIT   "AES block-rounds/cycle"

#elif defined(__aarch64__)
#include "native_ce.h"

#define ARCH_GCM         1      /* gcm(aes) on ce (PMULL)             */
#define ARCH_CLMUL       "PMULL"  /* GCM's multiplier, in messages     */
#define ARCH_GCM_BOUND   "PMULL"
#define arch_expand_key  cb_ce_expand_key
#define arch_ecb_enc     cb_ce_ecb_enc
#define arch_probe_adds  cb_ce_probe_adds
#define ARCH_PROBE_N     100000
#define ARCH_RATE_UNIT   "AESE+AESMC pairs/cycle"

#endif
#endif
