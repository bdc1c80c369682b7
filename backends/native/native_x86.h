/*
 * native_x86.h - the x86-64 half of the native backend: its code paths'
 * routine tables (aesni, vaes256, vaes512: the .S files under
 * backends/native/x86_64/, contracts in native_asm.h), how CPUID and
 * XGETBV pick the best path, and a --cpu level's cap.  Included once, by
 * native.c (the architecture-neutral glue), after struct path; the
 * interface it fills is listed there ("the architecture's half").
 */
#ifndef CB_NATIVE_X86_H
#define CB_NATIVE_X86_H

#include <cpuid.h>

static const char *const isa_names[CB_NATIVE_NISA] = {
	"aesni", "vaes256", "vaes512",
};

/*
 * Encryption of one request is one CBC chain, latency-bound whatever the
 * vector width: every path uses the AES-NI chain routine (and its 8-lane
 * one for 8 requests or fewer), with ESSIV's AES-256 of the IV fused in.
 * Decryption, ECB, XTS and GCM use the path's widest vectors.
 */
#define X86_COMMON                                                             \
	.cbc_enc = cb_aesni_cbc_enc, .essiv_enc = cb_aesni_essiv_cbc_enc,      \
	.lanes8 = cb_aesni_cbc_enc_lanes8,                                     \
	.essiv_lanes8 = cb_aesni_essiv_cbc_enc_lanes8

static const struct path path_aesni = {
	X86_COMMON,
	.ecb_enc = cb_aesni_ecb_enc, .ecb_dec = cb_aesni_ecb_dec,
	.cbc_dec = cb_aesni_cbc_dec, .essiv_dec = cb_aesni_essiv_cbc_dec,
	.xts_enc = cb_aesni_xts_enc, .xts_dec = cb_aesni_xts_dec,
	.lanes = cb_aesni_cbc_enc_lanes8, .lanes_any = cb_aesni_cbc_enc_lanes8,
	.nlanes = 8, .lane_mult = 16,
	.ghash = cb_aesni_ghash,
	.gcm_req = { { cb_aesni_gcm_dec, cb_aesni_gcm_enc },
	             { cb_aesni_gcm_dec_small, cb_aesni_gcm_enc_small } },
	.gcm_probe = { cb_aesni_gcm_probe128, cb_aesni_gcm_probe256 },
	.probe = cb_aesni_probe, .width = 1,
};
static const struct path path_vaes256 = {
	X86_COMMON,
	.ecb_enc = cb_vaes256_ecb_enc, .ecb_dec = cb_vaes256_ecb_dec,
	.cbc_dec = cb_vaes256_cbc_dec, .essiv_dec = cb_vaes256_essiv_cbc_dec,
	.xts_enc = cb_vaes256_xts_enc, .xts_dec = cb_vaes256_xts_dec,
	.xts_enc_sec = cb_vaes256_xts_enc_sectors,
	.xts_dec_sec = cb_vaes256_xts_dec_sectors,
	.lanes = cb_vaes256_cbc_enc_lanes16,
	.lanes_any = cb_vaes256_cbc_enc_lanes16_any,
	.nlanes = 16, .lane_mult = 2048, .halves = 1,
	.ghash = cb_vaes256_ghash,
	.gcm_req = { { cb_vaes256_gcm_dec, cb_vaes256_gcm_enc },
	             { cb_vaes256_gcm_dec_small, cb_vaes256_gcm_enc_small } },
	.gcm_probe = { cb_vaes256_gcm_probe128, cb_vaes256_gcm_probe256 },
	.probe = cb_vaes256_probe, .width = 2,
};
static const struct path path_vaes512 = {
	X86_COMMON,
	.ecb_enc = cb_vaes512_ecb_enc, .ecb_dec = cb_vaes512_ecb_dec,
	.cbc_dec = cb_vaes512_cbc_dec, .essiv_dec = cb_vaes512_essiv_cbc_dec,
	.xts_enc = cb_vaes512_xts_enc, .xts_dec = cb_vaes512_xts_dec,
	.xts_enc_iv = cb_vaes512_xts_enc_iv, .xts_dec_iv = cb_vaes512_xts_dec_iv,
	.xts_enc_sec = cb_vaes512_xts_enc_sectors,
	.xts_dec_sec = cb_vaes512_xts_dec_sectors,
	.lanes = cb_vaes512_cbc_enc_lanes16,
	.lanes_any = cb_vaes256_cbc_enc_lanes16_any,
	.nlanes = 16, .lanes32 = cb_vaes512_cbc_enc_lanes32, .lane_mult = 64,
	.lanes64 = cb_vaes512_cbc_enc_lanes64,
	.essiv8 = cb_vaes512_essiv_enc_ptrs8,
	.ghash = cb_vaes512_ghash,
	.gcm_req = { { cb_vaes512_gcm_dec, cb_vaes512_gcm_enc },
	             { cb_vaes512_gcm_dec_small, cb_vaes512_gcm_enc_small } },
	.gcm_probe = { cb_vaes512_gcm_probe128, cb_vaes512_gcm_probe256 },
	.probe = cb_vaes512_probe, .width = 4,
};

/* every path, lowest first (enum cb_native_isa's order) */
#define NATIVE_PATHS(X) X(aesni) X(vaes256) X(vaes512)

#define ARCH_DESCRIPTION "cryptobench's own AES-NI/VAES assembly " \
                         "(fused ESSIV-CBC, multi-sector CBC, XTS, GCM)"
#define ARCH_PATH_LIST   "none, aesni, vaes256 or vaes512"
#define ARCH_CAPPED      "capped below AES-NI (CRYPTOBENCH_ISA=none, " \
                         "--cpu generic)"
#define ARCH_NO_AES      "CPU has no AES-NI"
#define ARCH_FLAGS_NAME  "cpu"

struct cpu_caps {
	int aes, pclmul, osxsave, avx, avx2, bmi2, vaes, vpclmulqdq;
	int avx512f, avx512vl, avx512bw;
	int ymm_os, zmm_os;       /* XCR0: the OS saves that state        */
};

static void cpu_caps(struct cpu_caps *k)
{
	unsigned a, b, c, d, max;

	memset(k, 0, sizeof *k);
	max = __get_cpuid_max(0, NULL);
	if (max < 1 || !__get_cpuid(1, &a, &b, &c, &d))
		return;
	k->aes = (c >> 25) & 1;
	k->pclmul = (c >> 1) & 1;
	k->osxsave = (c >> 27) & 1;
	k->avx = (c >> 28) & 1;
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		k->avx2 = (b >> 5) & 1;
		k->avx512f = (b >> 16) & 1;
		k->avx512vl = (b >> 31) & 1;
		k->avx512bw = (b >> 30) & 1;
		k->bmi2 = (b >> 8) & 1;
		k->vaes = (c >> 9) & 1;
		k->vpclmulqdq = (c >> 10) & 1;
	}
	if (k->osxsave) {
		unsigned lo, hi;

		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		k->ymm_os = (lo & 0x06) == 0x06;      /* SSE, AVX            */
		k->zmm_os = (lo & 0xe6) == 0xe6;      /* + opmask, ZMM hi/lo */
	}
}

/* vaes512 also needs AVX512BW and BMI2 (GCM's byte masks, VPSHUFB on
 * zmm, BZHI): every CPU with VAES and AVX-512 has them */
static int caps_isa(const struct cpu_caps *k)
{
	if (!k->aes)
		return -ENOTSUP;
	if (!(k->vaes && k->vpclmulqdq && k->avx && k->avx2 && k->ymm_os))
		return CB_NATIVE_AESNI;
	if (!(k->avx512f && k->avx512vl && k->avx512bw && k->bmi2 &&
	      k->zmm_os))
		return CB_NATIVE_VAES256;
	return CB_NATIVE_VAES512;
}

/*
 * The best path this CPU runs (or -ENOTSUP), the features seen written to
 * flags (n bytes; NULL: not wanted), *gcm_ok whether GCM's carry-less
 * multiplication is there.
 */
static int arch_cpu(char *flags, size_t n, int *gcm_ok)
{
	struct cpu_caps k;
	int m = 0;

	cpu_caps(&k);
	if (gcm_ok)
		*gcm_ok = k.pclmul;
	if (flags && n) {
		*flags = 0;
#define FLAG(f) if (k.f && m < (int)n) \
	m += snprintf(flags + m, n - m, "%s" #f, m ? " " : "")
		FLAG(aes);
		FLAG(pclmul);
		FLAG(vaes);
		FLAG(vpclmulqdq);
		FLAG(avx2);
		FLAG(avx512f);
		FLAG(avx512vl);
#undef FLAG
		if (k.osxsave && (!k.ymm_os || !k.zmm_os) && m < (int)n)
			snprintf(flags + m, n - m, "; os saves no %s",
			         k.ymm_os ? "zmm" : "ymm");
	}
	return caps_isa(&k);
}

/* why path isa, above this CPU's best, is not here */
static const char *arch_lacks(int isa)
{
	return isa == CB_NATIVE_VAES512 ? "CPU (or OS) lacks VAES with AVX-512"
	       : "CPU (or OS) lacks VAES/VPCLMULQDQ with AVX2";
}

/*
 * --cpu: the cap goes through CRYPTOBENCH_ISA, read by the constructor
 * when the program loads (the core re-executes with it set).  A level
 * without AES-NI leaves native no path ("none": unavailable).
 */
static int native_cap(unsigned hw, char *env, size_t n)
{
	const char *isa = "none";

	if (hw & CB_HW_AES)
		isa = !(hw & CB_HW_VAES && hw & CB_HW_AVX2) ? "aesni"
		    : !(hw & CB_HW_AVX512) ? "vaes256" : "vaes512";
	snprintf(env, n, "CRYPTOBENCH_ISA=%s", isa);
	return 1;
}

#endif
