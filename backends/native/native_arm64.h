/*
 * native_arm64.h - the AArch64 half of the native backend: its one code
 * path's routine table ("ce": the ARMv8 Crypto Extensions,
 * backends/native/aarch64/aes_ce.c, contracts in native_ce.h), the choice
 * from getauxval(AT_HWCAP) (HWCAP_AES) and a --cpu level's cap ("none":
 * --cpu generic or neon).  Included once, by native.c (the
 * architecture-neutral glue), after struct path; the interface it fills
 * is listed there ("the architecture's half").
 *
 * One request's encryption is one CBC chain (ESSIV's salt encryption
 * fused in front); decryption, ECB and XTS keep 8 blocks in flight; a
 * multi-sector CBC encryption and a batch (--mb) run 8 chains
 * interleaved (the ESSIV IVs of the 8 in one ECB call).  gcm(aes)
 * (aarch64/gcm_ce.c) runs 8 counter blocks' AESE/AESMC beside 8 blocks'
 * PMULL GHASH, and needs HWCAP_PMULL beside HWCAP_AES (gcm_ok).
 */
#ifndef CB_NATIVE_ARM64_H
#define CB_NATIVE_ARM64_H

#include <sys/auxv.h>

#include "native_ce.h"

#ifndef HWCAP_AES
#define HWCAP_AES (1 << 3)
#endif
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1 << 4)
#endif

static const char *const isa_names[CB_NATIVE_NISA] = { "ce" };

static const struct path path_ce = {
	.cbc_enc = cb_ce_cbc_enc, .essiv_enc = cb_ce_essiv_cbc_enc,
	.lanes8 = cb_ce_cbc_enc_lanes8,
	.ecb_enc = cb_ce_ecb_enc, .ecb_dec = cb_ce_ecb_dec,
	.cbc_dec = cb_ce_cbc_dec, .essiv_dec = cb_ce_essiv_cbc_dec,
	.xts_enc = cb_ce_xts_enc, .xts_dec = cb_ce_xts_dec,
	.lanes = cb_ce_cbc_enc_lanes8, .lanes_any = cb_ce_cbc_enc_lanes8,
	.nlanes = 8, .lane_mult = 16,
	.gcm_enc = cb_ce_gcm_enc, .gcm_dec = cb_ce_gcm_dec,
	.ghash = cb_ce_ghash,
	.gcm_probe = { cb_ce_gcm_probe128, cb_ce_gcm_probe256 },
	.probe = cb_ce_probe, .width = 1,
};

#define NATIVE_PATHS(X) X(ce)

#define ARCH_DESCRIPTION "cryptobench's own AES on the ARMv8 Crypto " \
                         "Extensions (fused ESSIV-CBC, multi-sector CBC, XTS, " \
                         "GCM with PMULL)"
#define ARCH_PATH_LIST   "none or ce"
#define ARCH_CAPPED      "capped below the Crypto Extensions " \
                         "(CRYPTOBENCH_ISA=none, --cpu generic or neon)"
#define ARCH_NO_AES      "CPU has no AES instructions (HWCAP_AES)"
#define ARCH_FLAGS_NAME  "hwcap"

static int arch_cpu(char *flags, size_t n, int *gcm_ok)
{
	unsigned long hw = getauxval(AT_HWCAP);

	if (gcm_ok)
		*gcm_ok = (hw & HWCAP_AES) && (hw & HWCAP_PMULL);
	if (flags && n)
		snprintf(flags, n, "%s%s", hw & HWCAP_AES ? "aes" : "",
		         hw & HWCAP_PMULL ? " pmull" : "");
	return hw & HWCAP_AES ? CB_NATIVE_CE : -ENOTSUP;
}

static const char *arch_lacks(int isa)
{
	(void)isa;
	return "no such code path";
}

/* --cpu: CRYPTOBENCH_ISA=ce where the level allows AES, else none. */
static int native_cap(unsigned hw, char *env, size_t n)
{
	snprintf(env, n, "CRYPTOBENCH_ISA=%s", hw & CB_HW_AES ? "ce" : "none");
	return 1;
}

#endif
