/*
 * sysinfo.c - the provenance block (sysinfo.h) that every result carries
 * and `cryptobench sysinfo` prints (commands/cmd_sysinfo.c): host, kernel,
 * CPU identity and crypto flags, the core clock measured by a dependent-add
 * loop, the timer and kernel clocksource, cpufreq governor
 * and boost where readable, compiler and CFLAGS, and each backend's
 * library version with the code path it chose.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/cb.h"
#include "foundation/cpu.h"
#include "system/cpulevel.h"
#include "system/sysinfo.h"
#include "foundation/timing.h"
#include "foundation/util.h"

#ifndef CB_CFLAGS
#define CB_CFLAGS "unknown"
#endif

static struct cb_prov prov;
static int prov_done;

/* First line of a small file, newline stripped; 0 or -1. */
static int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t len;

	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = 0;
	return 0;
}

void cb_iso_time(char *buf, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void fill_boost(char *buf, size_t n)
{
	char v[32];

	if (read_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof v) == 0)
		snprintf(buf, n, "%s", v[0] == '1' ? "on" : "off");
	else if (read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v,
	                   sizeof v) == 0)
		snprintf(buf, n, "%s", v[0] == '1' ? "off" : "on");
	else
		snprintf(buf, n, "unknown");
}

const struct cb_prov *cb_prov(void)
{
	const struct cb_cpu *cpu;
	struct utsname u;

	if (prov_done)
		return &prov;
	prov_done = 1;
	prov.tool_version = CB_VERSION;
	if (gethostname(prov.host, sizeof prov.host - 1) < 0 || !prov.host[0])
		snprintf(prov.host, sizeof prov.host, "unknown");
	if (uname(&u) == 0)
		snprintf(prov.kernel, sizeof prov.kernel, "%s %s %s %s", u.sysname,
		         u.release, u.version, u.machine);
	else
		snprintf(prov.kernel, sizeof prov.kernel, "unknown");
	cpu = cb_cpu();
	snprintf(prov.cpu_model, sizeof prov.cpu_model, "%s", cpu->model);
	snprintf(prov.cpu_vendor, sizeof prov.cpu_vendor, "%s", cpu->vendor);
	prov.cpu_family = cpu->family;
	prov.cpu_model_no = cpu->model_no;
	prov.cpu_stepping = cpu->stepping;
	snprintf(prov.cpu_flags, sizeof prov.cpu_flags, "%s", cpu->flags);
	prov.cpu_mhz = cpu->mhz;
#if defined(__clang__)
	snprintf(prov.compiler, sizeof prov.compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
	snprintf(prov.compiler, sizeof prov.compiler, "gcc %s", __VERSION__);
#else
	snprintf(prov.compiler, sizeof prov.compiler, "unknown");
#endif
	prov.cflags = CB_CFLAGS;
	if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	              prov.governor, sizeof prov.governor) < 0)
		snprintf(prov.governor, sizeof prov.governor, "unknown");
	fill_boost(prov.boost, sizeof prov.boost);
	if (read_line("/sys/devices/system/clocksource/clocksource0/"
	              "current_clocksource", prov.clocksource,
	              sizeof prov.clocksource) < 0)
		snprintf(prov.clocksource, sizeof prov.clocksource, "unknown");
	prov.clock = cb_clock_name();
	prov.cpu_level = cb_cpu_level_name();
	cb_iso_time(prov.started, sizeof prov.started);
	return &prov;
}

double cb_prov_measure_ghz(void)
{
	double g;

	cb_prov();
	g = cb_measure_ghz();
	if (g <= 0)
		return 0;
	if (!prov.ghz_samples)
		prov.ghz_first = g;
	prov.ghz_last = g;
	prov.ghz = (prov.ghz * prov.ghz_samples + g) / (prov.ghz_samples + 1);
	prov.ghz_samples++;
	return g;
}

const char *cb_prov_cycles_note(void)
{
	static char buf[160];

	cb_prov();
	if (prov.ghz <= 0)
		return "no cycle counts: no dependent-add loop for this "
		       "architecture";
	if (prov.ghz_samples > 1)
		snprintf(buf, sizeof buf, "cycles from a dependent-add loop at "
		         "%.2f GHz (%.2f before, %.2f after)", prov.ghz,
		         prov.ghz_first, prov.ghz_last);
	else
		snprintf(buf, sizeof buf, "cycles from a dependent-add loop at "
		         "%.2f GHz", prov.ghz);
	return buf;
}

void cb_prov_print(FILE *f)
{
	const struct cb_prov *p = cb_prov();

	fprintf(f, "%-14s %s\n", "cryptobench", p->tool_version);
	fprintf(f, "%-14s %s\n", "host", p->host);
	fprintf(f, "%-14s %s\n", "kernel", p->kernel);
	fprintf(f, "%-14s %s\n", "cpu", p->cpu_model);
	fprintf(f, "%-14s %s family %d model %d stepping %d\n", "cpu id",
	        p->cpu_vendor, p->cpu_family, p->cpu_model_no, p->cpu_stepping);
	fprintf(f, "%-14s %s\n", "cpu flags", p->cpu_flags[0] ? p->cpu_flags
	                                                  : "(none)");
	fprintf(f, "%-14s %s (--cpu; the libraries' own reports below)\n",
	        "cpu level", p->cpu_level);
	fprintf(f, "%-14s %.0f MHz (as /proc/cpuinfo says)\n", "cpu MHz",
	        p->cpu_mhz);
	if (p->ghz > 0)
		fprintf(f, "%-14s %.2f GHz (dependent-add loop, mean of %u: "
		        "first %.2f, last %.2f)\n", "core clock", p->ghz,
		        p->ghz_samples, p->ghz_first, p->ghz_last);
	else
		fprintf(f, "%-14s unknown (no dependent-add loop here)\n",
		        "core clock");
	fprintf(f, "%-14s %s (kernel clocksource %s", "timer", p->clock,
	        p->clocksource);
#if defined(__aarch64__)
	{
		unsigned long frq;

		/* the generic timer the clock reads count in */
		__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
		fprintf(f, "; generic timer %.2f MHz, CNTFRQ_EL0", frq / 1e6);
	}
#endif
	fputs(")\n", f);
	fprintf(f, "%-14s %s\n", "governor", p->governor);
	fprintf(f, "%-14s %s\n", "boost", p->boost);
	fprintf(f, "%-14s %s\n", "compiler", p->compiler);
	fprintf(f, "%-14s %s\n", "cflags", p->cflags);
	for (int i = 0; cb_backends[i]; i++) {
		const struct cb_backend *b = cb_backends[i];
		const char *why, *det;
		char label[32];

		snprintf(label, sizeof label, "backend %s", b->name);
		if (cb_backend_status(b, &why) < 0) {
			fprintf(f, "%-14s unavailable: %s\n", label, why);
			continue;
		}
		if (b->file) {
			snprintf(label, sizeof label, "plugin %s", b->name);
			fprintf(f, "%-14s %s (ABI %u, sha256 %s)\n", label,
			        b->file, b->abi, cb_prov_plugin_sha256(b));
			snprintf(label, sizeof label, "backend %s", b->name);
		}
		det = b->details ? b->details() : NULL;
		fprintf(f, "%-14s %s%s%s\n", label,
		        b->version ? b->version() : "-", det ? "; " : "",
		        det ? det : "");
		if (b->limits && (det = b->limits())) {
			/* the first line labelled, more lines (native: one a
			 * code path) under it */
			snprintf(label, sizeof label, "limit %s", b->name);
			for (const char *e; *det; det = *e ? e + 1 : e) {
				e = strchr(det, '\n');
				e = e ? e : det + strlen(det);
				fprintf(f, "%-14s %.*s\n", label, (int)(e - det),
				        det);
				*label = 0;
			}
		}
	}
}

/* SHA-256 of a file through the selector's sha256 (one hex string). */
static int file_sha256(const char *path, char *hex)
{
	const struct cb_impl *impl = cb_impl_any("sha256", NULL);
	uint8_t buf[65536], d[32];
	struct cb_inst h;
	FILE *f;
	size_t n;
	int rc;

	if (!impl || !(f = fopen(path, "rb")))
		return -1;
	if ((rc = cb_inst_new(&h, impl, NULL, 0)) == 0 &&
	    (rc = h.impl->init(h.ctx)) == 0) {
		while (rc == 0 && (n = fread(buf, 1, sizeof buf, f)) > 0)
			rc = h.impl->update(h.ctx, buf, n);
		if (rc == 0 && !ferror(f))
			rc = h.impl->final(h.ctx, d);
		cb_inst_free(&h);
	}
	fclose(f);
	for (int i = 0; rc == 0 && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return rc == 0 ? 0 : -1;
}

const char *cb_prov_plugin_sha256(const struct cb_backend *b)
{
	static const struct cb_backend *done[CB_MAX_BACKENDS];
	static char hex[CB_MAX_BACKENDS][65];

	for (int i = 0; i < CB_MAX_BACKENDS; i++) {
		if (done[i] == b)
			return hex[i];
		if (done[i])
			continue;
		done[i] = b;
		if (!b->file || file_sha256(b->file, hex[i]) < 0)
			snprintf(hex[i], sizeof hex[i], "unknown");
		return hex[i];
	}
	return "unknown";
}
