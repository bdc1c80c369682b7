/*
 * test_csv.c - unit tests for the RFC 4180 reader (src/foundation/csv.c): quoting,
 * doubled quotes, embedded commas and line breaks, CRLF and LF, a BOM,
 * concatenated files with repeated or changed headers, the typed column
 * checks, and every malformed input with the FILE:LINE it must name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "foundation/csv.h"

#include "check.h"

static int parse(struct cb_csv *c, const char *text)
{
	return cb_csv_parse(c, "t.csv", text, strlen(text));
}

/* Field r,f of the data rows equals want. */
static int field_is(const struct cb_csv *c, size_t r, size_t f,
                    const char *want)
{
	return r < c->nrows && f < c->rows[r].nfields &&
	       !strcmp(c->rows[r].fields[f], want);
}

/* text must be rejected with an error that starts with "t.csv:LINE: " and
 * contains word. */
static void bad(const char *name, const char *text, size_t len,
                unsigned long line, const char *word)
{
	struct cb_csv c;
	char want[64], what[2048];
	int rc = cb_csv_parse(&c, "t.csv", text, len);

	snprintf(want, sizeof want, "t.csv:%lu: ", line);
	snprintf(what, sizeof what, "%s: rejected", name);
	check(rc == -EINVAL, what);
	snprintf(what, sizeof what, "%s: names %s (got '%s')", name, want, c.err);
	check(!strncmp(c.err, want, strlen(want)), what);
	snprintf(what, sizeof what, "%s: says '%s' (got '%s')", name, word, c.err);
	check(strstr(c.err, word) != NULL, what);
	check(c.rows == NULL && c.hdrs == NULL, "nothing kept after an error");
	cb_csv_free(&c);
}

static void bad_str(const char *name, const char *text, unsigned long line,
                    const char *word)
{
	bad(name, text, strlen(text), line, word);
}

static void test_basic(void)
{
	struct cb_csv c;

	check(parse(&c, "a,b,c\n1,2,3\n4,,6\n") == 0, "basic parses");
	check(c.nhdrs == 1 && c.hdrs[0].ncols == 3, "basic header");
	check(!strcmp(c.hdrs[0].names[2], "c"), "basic header names");
	check(c.nrows == 2, "basic rows");
	check(field_is(&c, 0, 0, "1") && field_is(&c, 1, 1, "") &&
	      field_is(&c, 1, 2, "6"), "basic fields");
	check(c.rows[0].line == 2 && c.rows[1].line == 3, "basic line numbers");
	check(cb_csv_col(&c, 0, "b") == 1 && cb_csv_col(&c, 0, "z") == -1,
	      "column lookup");
	check(!strcmp(cb_csv_get(&c, &c.rows[1], "c"), "6") &&
	      cb_csv_get(&c, &c.rows[1], "z") == NULL, "get by name");
	check(cb_csv_has(&c, "a") && !cb_csv_has(&c, "q"), "has column");
	cb_csv_free(&c);

	check(parse(&c, "a,b\n1,2") == 0 && c.nrows == 1 &&
	      field_is(&c, 0, 1, "2"), "no final newline");
	cb_csv_free(&c);
	check(parse(&c, "a,b\n1,\n") == 0 && field_is(&c, 0, 1, ""),
	      "trailing comma is an empty last field");
	cb_csv_free(&c);
	check(parse(&c, "a,b\n") == 0 && c.nrows == 0 && c.nhdrs == 1,
	      "header only: no rows, no error");
	cb_csv_free(&c);
	check(parse(&c, "x\n\n1\n\n\n2\n") == 0 && c.nrows == 2 &&
	      c.rows[1].line == 6, "blank lines skipped, lines still counted");
	cb_csv_free(&c);
	check(parse(&c, " a , b \n 1 , 2 \n") == 0 &&
	      !strcmp(c.hdrs[0].names[0], " a ") && field_is(&c, 0, 1, " 2 "),
	      "spaces are part of a field");
	cb_csv_free(&c);
	check(parse(&c, "a\tb,c\nx\ty,z\n") == 0 && field_is(&c, 0, 0, "x\ty"),
	      "tab inside a field");
	cb_csv_free(&c);
	check(parse(&c, "h\n\xc3\xa9t\xc3\xa9,\n") != 0, "utf-8 row with 2 fields "
	      "vs 1 column rejected");
	cb_csv_free(&c);
	check(parse(&c, "h\n\xc3\xa9t\xc3\xa9\n") == 0 &&
	      field_is(&c, 0, 0, "\xc3\xa9t\xc3\xa9"), "utf-8 text kept");
	cb_csv_free(&c);
	check(parse(&c, "\xef\xbb\xbfh,i\n1,2\n") == 0 &&
	      !strcmp(c.hdrs[0].names[0], "h"), "byte-order mark skipped");
	cb_csv_free(&c);
}

static void test_quoting(void)
{
	struct cb_csv c;

	check(parse(&c, "a,b\n\"x,y\",\"\"\n") == 0 && field_is(&c, 0, 0, "x,y") &&
	      field_is(&c, 0, 1, ""), "quoted comma, empty quoted field");
	cb_csv_free(&c);
	check(parse(&c, "a,b\n\"say \"\"hi\"\"\",\"\"\"\"\n") == 0 &&
	      field_is(&c, 0, 0, "say \"hi\"") && field_is(&c, 0, 1, "\""),
	      "doubled quotes");
	cb_csv_free(&c);
	check(parse(&c, "a,b\n\"line1\nline2\",x\n3,4\n") == 0 && c.nrows == 2 &&
	      field_is(&c, 0, 0, "line1\nline2") && c.rows[0].line == 2 &&
	      c.rows[1].line == 4, "embedded newline: row keeps its start line");
	cb_csv_free(&c);
	check(parse(&c, "a,b\r\n\"l1\r\nl2\",x\r\n3,4\r\n") == 0 &&
	      field_is(&c, 0, 0, "l1\nl2") && c.rows[1].line == 4,
	      "embedded CRLF becomes LF");
	cb_csv_free(&c);
	check(parse(&c, "\"a\",\"b\"\n\"1\",\"2\"") == 0 &&
	      !strcmp(c.hdrs[0].names[1], "b") && field_is(&c, 0, 1, "2"),
	      "quoted header, quoted last field at EOF");
	cb_csv_free(&c);
	check(parse(&c, "a,b\n\"\",\"\"\n") == 0 && field_is(&c, 0, 0, ""),
	      "two empty quoted fields");
	cb_csv_free(&c);
}

static void test_crlf(void)
{
	struct cb_csv c;

	check(parse(&c, "a,b\r\n1,2\r\n3,4\r\n") == 0 && c.nrows == 2 &&
	      field_is(&c, 1, 1, "4") && c.rows[1].line == 3, "CRLF file");
	cb_csv_free(&c);
	check(parse(&c, "a,b\r\n1,2\n3,4\r\n") == 0 && c.nrows == 2,
	      "mixed CRLF and LF");
	cb_csv_free(&c);
	check(parse(&c, "a,b\r\n\r\n1,2\r\n") == 0 && c.nrows == 1 &&
	      c.rows[0].line == 3, "blank CRLF line skipped");
	cb_csv_free(&c);
}

static void test_concat(void)
{
	struct cb_csv c;

	check(parse(&c, "h,x\nA,1\nh,x\nB,2\nh,x\r\nC,3\n") == 0 &&
	      c.nrows == 3 && c.nhdrs == 1 && field_is(&c, 2, 0, "C") &&
	      c.rows[1].line == 4 && c.rows[2].line == 6,
	      "repeated headers skipped");
	cb_csv_free(&c);
	check(parse(&c, "h,x\nA,1\nh,x,extra\nB,2,e\nh,x\nC,3\n") == 0 &&
	      c.nrows == 3 && c.nhdrs == 2 && c.rows[0].hdr == 0 &&
	      c.rows[1].hdr == 1 && c.rows[2].hdr == 0 &&
	      !strcmp(cb_csv_get(&c, &c.rows[1], "extra"), "e") &&
	      cb_csv_get(&c, &c.rows[0], "extra") == NULL,
	      "a changed header starts a new section; an old one comes back");
	cb_csv_free(&c);
	check(parse(&c, "\"h\",x\nA,1\nh,\"x\"\nB,2\n") == 0 && c.nhdrs == 1 &&
	      c.nrows == 2, "quoted and unquoted header spellings are equal");
	cb_csv_free(&c);
	bad_str("changed header with a duplicate", "h,x\nA,1\nh,y,y\n", 3,
	        "duplicate column 'y'");
	bad_str("row of the old width after a new header",
	        "h,x\nA,1\nh,x,z\nB,2\n", 4, "header (line 3) has 3 columns");
}

static void test_malformed(void)
{
	static const char nul[] = "a,b\n1,2\n3,\0\n";
	static const char nul_quoted[] = "a,b\n1,\"x\0y\"\n";

	bad_str("empty file", "", 1, "empty file");
	bad_str("only blank lines", "\n\r\n\n", 4, "empty file");
	bad_str("unterminated quote", "a,b\n1,2\n\"open,3\n4,5\n", 3,
	        "unterminated");
	bad_str("unterminated quote in header", "\"a,b\n", 1, "unterminated");
	bad_str("text after closing quote", "a,b\n\"x\"y,2\n", 2,
	        "after the closing quote");
	bad_str("quote in unquoted field", "a,b\n1,2\nx\"y,3\n", 3,
	        "quote inside an unquoted field");
	bad_str("too few fields", "a,b,c\n1,2,3\n1,2\n", 3, "2 fields");
	bad_str("too many fields", "a,b\n1,2\n3,4\n5,6,7\n", 4, "3 fields");
	bad_str("field count after a multi-line field",
	        "a,b\n\"x\ny\",1\n2\n", 4, "1 field,");
	bad_str("bare carriage return", "a,b\r1,2\n", 1, "carriage return");
	bad("NUL byte", nul, sizeof nul - 1, 3, "NUL");
	bad("NUL in a quoted field", nul_quoted, sizeof nul_quoted - 1, 2, "NUL");
	bad_str("control byte", "a,b\n1,2\n\001\002,3\n", 3, "control byte 0x01");
	bad_str("DEL byte", "a,b\n1,\x7f\n", 2, "control byte 0x7f");
	bad_str("invalid UTF-8", "a,b\n1,2\n3,\xff\xfe\n", 3, "invalid UTF-8");
	bad_str("overlong UTF-8", "a,b\n\xc0\xaf,1\n", 2, "invalid UTF-8");
	bad_str("truncated UTF-8 at end", "a,b\n1,\xe2\x82", 2, "invalid UTF-8");
	bad_str("empty column name", "a,,c\n1,2,3\n", 1, "no name");
	bad_str("duplicate column", "a,b,a\n1,2,3\n", 1, "duplicate column 'a'");
	bad_str("junk in line 7 after a quoted field",
	        "a,b\n\"1\n2\n3\",4\n5,6\n7,8\n9,\x01\n", 7, "control byte");
}

static void test_binary_file(void)
{
	char junk[4096];
	struct cb_csv c;
	unsigned s = 12345;

	for (size_t i = 0; i < sizeof junk; i++) {
		s = s * 1103515245u + 12345u;
		junk[i] = (char)(s >> 16);
	}
	check(cb_csv_parse(&c, "t.csv", junk, sizeof junk) == -EINVAL &&
	      !strncmp(c.err, "t.csv:", 6), "random bytes rejected with a line");
	cb_csv_free(&c);
}

static const struct cb_csv_col cols[] = {
	{ "name", CB_CSV_REQUIRED | CB_CSV_NONEMPTY },
	{ "bits", CB_CSV_REQUIRED | CB_CSV_UINT },
	{ "speed", CB_CSV_REQUIRED | CB_CSV_NUMBER | CB_CSV_EMPTY_OK |
	           CB_CSV_NONNEG },
	{ "delta", CB_CSV_NUMBER },
	{ "opt", CB_CSV_UINT | CB_CSV_EMPTY_OK },
	{ NULL, 0 },
};

static void check_bad(const char *name, const char *text, unsigned long line,
                      const char *word)
{
	struct cb_csv c;
	char want[64], what[2048];

	snprintf(want, sizeof want, "t.csv:%lu: ", line);
	if (parse(&c, text) < 0) {
		snprintf(what, sizeof what, "%s: parses (%s)", name, c.err);
		check(0, what);
		return;
	}
	snprintf(what, sizeof what, "%s: rejected", name);
	check(cb_csv_check(&c, cols) == -EINVAL, what);
	snprintf(what, sizeof what, "%s: names %s and '%s' (got '%s')", name,
	         want, word, c.err);
	check(!strncmp(c.err, want, strlen(want)) && strstr(c.err, word), what);
	cb_csv_free(&c);
}

static void test_check(void)
{
	struct cb_csv c;
	double d;

	check(parse(&c, "name,bits,speed,delta,extra\n"
	                "x,128,1.5e9,-2.5,anything\ny,0,,0,\nz,1,nan,+3,\n") == 0 &&
	      cb_csv_check(&c, cols) == 0, "typed check passes, extras ignored");
	cb_csv_free(&c);
	check_bad("missing required column", "name,speed\nx,1\n", 1,
	          "missing required column 'bits'");
	check_bad("missing column in a second header",
	          "name,bits,speed\nx,1,2\nname,speed\ny,3\n", 3, "'bits'");
	check_bad("non-numeric", "name,bits,speed\nx,1,2\ny,2,fast\n", 3,
	          "'speed': 'fast' is not a number");
	check_bad("negative speed", "name,bits,speed\nx,1,-2\n", 2, "negative");
	check_bad("non-integer bits", "name,bits,speed\nx,12.5,2\n", 2,
	          "'bits': '12.5' is not a non-negative integer");
	check_bad("negative bits", "name,bits,speed\nx,-1,2\n", 2, "'bits'");
	check_bad("empty bits", "name,bits,speed\nx,,2\n", 2, "'bits'");
	check_bad("empty name", "name,bits,speed\n,1,2\n", 2, "'name' is empty");
	check_bad("number with spaces", "name,bits,speed\nx,1, 2\n", 2,
	          "not a number");
	check_bad("hex number", "name,bits,speed\nx,1,0x10\n", 2, "not a number");
	check_bad("infinity", "name,bits,speed\nx,1,inf\n", 2, "not a number");
	check_bad("overflow", "name,bits,speed\nx,1,1e999\n", 2, "not a number");
	check_bad("nan where not allowed", "name,bits,speed,delta\nx,1,1,nan\n", 2,
	          "'delta'");
	check_bad("row after a multi-line field",
	          "name,bits,speed\n\"a\nb\",1,2\nc,x,3\n", 4, "'bits'");
	check(cb_csv_number("1.25e3", &d) == 0 && d == 1250, "number parse");
	check(cb_csv_number(".5", &d) == 0 && d == 0.5, "leading dot");
	check(cb_csv_number("", &d) < 0 && cb_csv_number("-", &d) < 0 &&
	      cb_csv_number("1e", &d) < 0 && cb_csv_number("1,5", &d) < 0,
	      "bad numbers");
}

static void test_file(void)
{
	char path[] = "/tmp/test_csv_XXXXXX";
	struct cb_csv c;
	int fd = mkstemp(path);
	FILE *f;

	if (fd < 0) {
		check(0, "mkstemp");
		return;
	}
	f = fdopen(fd, "w");
	fputs("a,b\r\n1,\"2\r\n3\"\r\n", f);
	fclose(f);
	check(cb_csv_read(&c, path) == 0 && c.nrows == 1 &&
	      field_is(&c, 0, 1, "2\n3") && !strcmp(c.name, path),
	      "read from a file");
	cb_csv_free(&c);
	unlink(path);
	check(cb_csv_read(&c, path) == -ENOENT && strstr(c.err, path) &&
	      strstr(c.err, "No such file"), "missing file names the path");
	cb_csv_free(&c);
	check(cb_csv_read(&c, "/") < 0 && strstr(c.err, "/:"),
	      "a directory is an I/O error");
	cb_csv_free(&c);
}

int main(void)
{
	test_basic();
	test_quoting();
	test_crlf();
	test_concat();
	test_malformed();
	test_binary_file();
	test_check();
	test_file();
	return finish();
}
