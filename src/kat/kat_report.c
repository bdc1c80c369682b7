/*
 * kat_report.c - what `kat` reports, in three formats: the text table
 * (one row per backend x algorithm, FAIL/SKIP lines as they happen), TAP
 * version 13 for `prove` and JUnit XML for GitLab/Jenkins test reports.
 * In TAP and JUnit every backend x algorithm is one test case; a failing
 * case names each failing record's file:line and driver, a skip gives its
 * reason.  The runners (kat.c, kat_sector.c) only call kat_note(); this
 * file calls nothing of theirs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cb.h"
#include "kat/kat.h"
#include "foundation/util.h"

void kat_note(struct kat_count *cnt, FILE *out, int verbose, int skip,
              const struct vec_rec *r, unsigned line, const char *backend,
              const char *label, const char *fmt, ...)
{
	char what[600], where[300];
	struct kat_note *n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (skip)
		cnt->skipped++;
	else
		cnt->failed++;
	if (out && (verbose || !skip))
		fprintf(out, "%s %s:%u %s %s: %s\n", skip ? "SKIP" : "FAIL",
		        r->file, line ? line : r->line, backend, label, what);
	if (!cnt->log)
		return;
	snprintf(where, sizeof where, "%s:%u", r->file, line ? line : r->line);
	cnt->log->v = cb_xrealloc(cnt->log->v,
	                          (cnt->log->n + 1) * sizeof *cnt->log->v);
	n = &cnt->log->v[cnt->log->n++];
	n->where = cb_xstrdup(where);
	n->label = cb_xstrdup(label);
	n->what = cb_xstrdup(what);
	n->skip = skip;
}

/* bytes [from, to) of p in hex, "..." before and after where cut */
static size_t hex_window(char *buf, size_t n, const uint8_t *p, size_t from,
                         size_t to, size_t len)
{
	size_t k = (size_t)snprintf(buf, n, "%s", from ? "..." : "");

	for (size_t i = from; i < to && k + 3 < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%02x", p[i]);
	if (to < len && k + 4 < n)
		k += (size_t)snprintf(buf + k, n - k, "...");
	return k;
}

const char *kat_diff_text(char *buf, size_t n, const char *name,
                          const uint8_t *want, const uint8_t *got,
                          size_t len)
{
	enum { BEFORE = 8, SHOWN = 24 };
	char w[SHOWN * 2 + 8], g[SHOWN * 2 + 8];
	size_t i = 0, from, to;

	while (i < len && want[i] == got[i])
		i++;
	if (i == len) {
		snprintf(buf, n, "%s: no difference", name);
		return buf;
	}
	from = i > BEFORE ? i - BEFORE : 0;
	if (from + SHOWN > len)               /* a full window at the end */
		from = len > SHOWN ? len - SHOWN : 0;
	to = from + SHOWN < len ? from + SHOWN : len;
	hex_window(w, sizeof w, want, from, to, len);
	hex_window(g, sizeof g, got, from, to, len);
	if (from || to < len)
		snprintf(buf, n, "%s differs at byte %zu of %zu (bytes %zu-%zu "
		         "shown): expected %s got %s", name, i, len, from, to - 1,
		         w, g);
	else
		snprintf(buf, n, "%s differs at byte %zu of %zu: expected %s "
		         "got %s", name, i, len, w, g);
	return buf;
}

void kat_log_free(struct kat_log *log)
{
	for (size_t i = 0; i < log->n; i++) {
		free(log->v[i].where);
		free(log->v[i].label);
		free(log->v[i].what);
	}
	free(log->v);
	log->v = NULL;
	log->n = 0;
}

/* ---- text: the table ------------------------------------------------ */

static void text_begin(FILE *f)
{
	fprintf(f, "%-8s %-46s %6s %6s %7s  %s\n", "backend", "algorithm",
	        "passed", "failed", "skipped", "driver");
}

static void text_one(FILE *f, const struct kat_case *k, unsigned n)
{
	if (k->unavailable && !k->alg)
		fprintf(f, "%-8s unavailable: %s\n", k->backend, k->unavailable);
	else if (k->unavailable)
		fprintf(f, "%-8s %-46s unavailable: %s  %s\n", k->backend, k->alg,
		        k->unavailable, k->driver);
	else
		fprintf(f, "%-8s %-46s %6u %6u %7u  %s\n", k->backend, k->alg,
		        k->c->passed, k->c->failed, k->c->skipped, k->driver);
}

static void text_end(FILE *f, const struct kat_count *t, unsigned ncases,
                     const char *none)
{
	fprintf(f, "%u passed, %u failed", t->passed, t->failed);
	if (t->skipped)
		fprintf(f, ", %u skipped", t->skipped);
	fputc('\n', f);
}

/* ---- TAP version 13 --------------------------------------------------- */

/* A YAML double-quoted scalar. */
static void yaml_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void tap_begin(FILE *f)
{
	fputs("TAP version 13\n", f);
}

static void tap_list(FILE *f, const struct kat_log *log, int skip,
                     const char *key)
{
	int any = 0;

	for (size_t i = 0; log && i < log->n; i++) {
		const struct kat_note *n = &log->v[i];
		char line[1200];

		if (n->skip != skip)
			continue;
		if (!any++)
			fprintf(f, "  %s:\n", key);
		snprintf(line, sizeof line, "%s %s: %s", n->where, n->label,
		         n->what);
		fputs("    - ", f);
		yaml_str(f, line);
		fputc('\n', f);
	}
}

static void tap_one(FILE *f, const struct kat_case *k, unsigned n)
{
	const struct kat_count *c = k->c;

	if (k->unavailable) {
		fprintf(f, "ok %u - %s %s %s # SKIP unavailable: %s\n", n,
		        k->backend, k->alg ? k->alg : "(backend)",
		        k->driver ? k->driver : "", k->unavailable);
		return;
	}
	fprintf(f, "%s %u - %s %s %s (%u passed, %u failed, %u skipped)",
	        c->failed ? "not ok" : "ok", n, k->backend, k->alg, k->driver,
	        c->passed, c->failed, c->skipped);
	if (!c->passed && !c->failed && c->log && c->log->n)
		fprintf(f, " # SKIP %s", c->log->v[0].what);
	fputc('\n', f);
	if (!c->failed && !c->skipped)
		return;
	fputs("  ---\n", f);
	fprintf(f, "  message: \"%u of %u records failed, %u skipped\"\n",
	        c->failed, c->passed + c->failed + c->skipped, c->skipped);
	fprintf(f, "  severity: %s\n", c->failed ? "fail" : "skip");
	tap_list(f, c->log, 0, "failures");
	tap_list(f, c->log, 1, "skips");
	fputs("  ...\n", f);
}

/* No case: "1..0 # SKIP why", which prove counts as a skipped script
 * (cmd_kat exits 0 with it). */
static void tap_end(FILE *f, const struct kat_count *t, unsigned ncases,
                    const char *none)
{
	fprintf(f, "1..%u", ncases);
	if (!ncases)
		fprintf(f, " # SKIP %s", none ? none : "nothing to run");
	fprintf(f, "\n# %u passed, %u failed, %u skipped (records)\n",
	        t->passed, t->failed, t->skipped);
	if (ncases && none)
		fprintf(f, "# nothing ran: %s\n", none);
}

/* The first line of msgs, without its newline, into buf. */
static const char *first_line(char *buf, size_t n, const char *msgs)
{
	size_t l = strcspn(msgs, "\n");

	snprintf(buf, n, "%.*s", (int)(l < n ? l : n - 1), msgs);
	return buf;
}

static void tap_error(FILE *f, const char *msgs)
{
	char line[1024];

	fprintf(f, "TAP version 13\nBail out! %s\n",
	        *msgs ? first_line(line, sizeof line, msgs)
	              : "the vectors did not load");
}

/* ---- JUnit XML ---------------------------------------------------------- */

static struct {
	FILE *mem;
	char *buf;
	size_t len;
	unsigned failures, skipped;
	double seconds;
} ju;

/* XML text/attribute escaping; bytes XML 1.0 cannot carry become '?'. */
static void xml_str(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			fputc((c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f
			      ? '?' : c, f);
		}
	}
}

static void junit_begin(FILE *f)
{
	memset(&ju, 0, sizeof ju);
	ju.mem = open_memstream(&ju.buf, &ju.len);
	if (!ju.mem) {
		cb_err("out of memory");
		exit(CB_EXIT_USAGE);
	}
}

static void junit_notes(FILE *m, const struct kat_log *log, int skip)
{
	for (size_t i = 0; log && i < log->n; i++)
		if (log->v[i].skip == skip) {
			xml_str(m, log->v[i].where);
			fputc(' ', m);
			xml_str(m, log->v[i].label);
			fputs(": ", m);
			xml_str(m, log->v[i].what);
			fputc('\n', m);
		}
}

static void junit_one(FILE *f, const struct kat_case *k, unsigned n)
{
	const struct kat_count *c = k->c;
	FILE *m = ju.mem;

	fputs("    <testcase classname=\"cryptobench.kat.", m);
	xml_str(m, k->backend);
	fputs("\" name=\"", m);
	xml_str(m, k->alg ? k->alg : "(backend)");
	if (k->driver) {
		fputc(' ', m);
		xml_str(m, k->driver);
	}
	fprintf(m, "\" time=\"%.6f\">\n", k->seconds);
	ju.seconds += k->seconds;
	if (k->unavailable || (!c->passed && !c->failed)) {
		ju.skipped++;
		fputs("      <skipped message=\"", m);
		xml_str(m, k->unavailable ? k->unavailable
		           : c->log && c->log->n ? c->log->v[0].what : "");
		fputs("\"/>\n", m);
	} else if (c->failed) {
		ju.failures++;
		fprintf(m, "      <failure type=\"mismatch\" message=\"%u of %u "
		        "records failed, first: ", c->failed,
		        c->passed + c->failed + c->skipped);
		for (size_t i = 0; c->log && i < c->log->n; i++)
			if (!c->log->v[i].skip) {
				xml_str(m, c->log->v[i].where);
				break;
			}
		fputs("\">", m);
		junit_notes(m, c->log, 0);
		fputs("</failure>\n", m);
	}
	if (!k->unavailable && c->skipped) {
		fputs("      <system-out>skipped:\n", m);
		junit_notes(m, c->log, 1);
		fputs("</system-out>\n", m);
	}
	fputs("    </testcase>\n", m);
}

/* The <testsuites> and <testsuite> start tags. */
static void junit_head(FILE *f, unsigned ncases, unsigned failures,
                       unsigned errors, unsigned skipped, double seconds)
{
	char host[256] = "localhost", stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gethostname(host, sizeof host - 1);
	host[sizeof host - 1] = 0;
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S",
	         gmtime_r(&now, &tm));
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"cryptobench kat\" tests=\"%u\" "
	        "failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.6f\">\n",
	        ncases, failures, errors, skipped, seconds);
	fprintf(f, "  <testsuite name=\"cryptobench.kat\" package=\"cryptobench\""
	        " id=\"0\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
	        "skipped=\"%u\" time=\"%.6f\" timestamp=\"%s\" hostname=\"",
	        ncases, failures, errors, skipped, seconds, stamp);
	xml_str(f, host);
	fputs("\">\n", f);
}

/* A document with one error case: the vectors did not load.  Its name is
 * the first message's FILE:LINE, the message that line, the text all. */
static void junit_error(FILE *f, const char *msgs)
{
	char line[1024], name[1024];
	const char *m = *msgs ? first_line(line, sizeof line, msgs)
	                      : "the vectors did not load";
	const char *sep = strstr(m, ": ");

	snprintf(name, sizeof name, "%.*s", sep ? (int)(sep - m) : (int)strlen(m),
	         m);
	junit_head(f, 1, 0, 1, 0, 0);
	fputs("    <properties></properties>\n"
	      "    <testcase classname=\"cryptobench.kat.vectors\" name=\"", f);
	xml_str(f, name);
	fputs("\" time=\"0\">\n      <error type=\"bad-input\" message=\"", f);
	xml_str(f, m);
	fputs("\">", f);
	xml_str(f, msgs);
	fputs("</error>\n    </testcase>\n"
	      "    <system-out></system-out>\n    <system-err>", f);
	xml_str(f, msgs);
	fputs("</system-err>\n  </testsuite>\n</testsuites>\n", f);
}

static void junit_end(FILE *f, const struct kat_count *t, unsigned ncases,
                      const char *none)
{
	fclose(ju.mem);
	junit_head(f, ncases, ju.failures, 0, ju.skipped, ju.seconds);
	fputs("    <properties>\n", f);
	fprintf(f, "      <property name=\"records.passed\" value=\"%u\"/>\n"
	        "      <property name=\"records.failed\" value=\"%u\"/>\n"
	        "      <property name=\"records.skipped\" value=\"%u\"/>\n",
	        t->passed, t->failed, t->skipped);
	if (none) {
		fputs("      <property name=\"nothing.ran\" value=\"", f);
		xml_str(f, none);
		fputs("\"/>\n", f);
	}
	fputs("    </properties>\n", f);
	fwrite(ju.buf, 1, ju.len, f);
	fputs("    <system-out>", f);
	if (none) {
		fputs("nothing ran: ", f);
		xml_str(f, none);
	}
	fputs("</system-out>\n    <system-err></system-err>\n"
	      "  </testsuite>\n</testsuites>\n", f);
	free(ju.buf);
	memset(&ju, 0, sizeof ju);
}

const struct kat_writer kat_writers[] = {
	{ "junit", 1, junit_begin, junit_one, junit_end, junit_error,
	  "JUnit XML: a testcase per backend x algorithm (GitLab, Jenkins)" },
	{ "tap", 1, tap_begin, tap_one, tap_end, tap_error,
	  "TAP version 13: a test per backend x algorithm (prove)" },
	{ "text", 0, text_begin, text_one, text_end, NULL,
	  "the table, FAIL/SKIP lines as they happen (default)" },
};
const size_t kat_nwriters = sizeof kat_writers / sizeof kat_writers[0];

const struct kat_writer *kat_writer_find(const char *name)
{
	for (size_t i = 0; i < kat_nwriters; i++)
		if (!strcmp(kat_writers[i].name, name))
			return &kat_writers[i];
	return NULL;
}
