#!/bin/sh
# kat --format tap|junit: one test case per backend x algorithm, a failure
# naming the record's file:line and driver, skips with their reason.  `prove`
# must accept the TAP; the JUnit XML must carry the JUnit schema's required
# elements and attributes (checked with python3 xml.etree).  A flipped vector
# (tests/data/independent-flipped.vec) shows as a failing case.
. tests/lib.sh
good=vectors/xts.vec
bad=tests/data/independent-flipped.vec
rec=$(cat tests/data/independent-flipped.line)
# a failure names the line of the field that differed (ct, byte 33 flipped)
line=$(awk -v l="$rec" 'NR >= l && /^ct = / { print NR; exit }' "$bad")
diff="ct differs at byte 33 of "

# ---- TAP -----------------------------------------------------------------
expect_exit 0 "tap: good vectors exit 0" "$CB" kat --format tap "$good"
printf '%s\n' "$out" >"$T/good.tap"
check "tap: first line is the version" [ "$(head -n 1 "$T/good.tap")" = "TAP version 13" ]
n=$(grep -cE '^(not )?ok [0-9]+ - ' "$T/good.tap")
check "tap: the plan counts every case" grep -qx "1..$n" "$T/good.tap"
check "tap: one case per backend x algorithm" grep -q '^ok [0-9]* - gcrypt xts(aes) xts-aes-gcrypt ' "$T/good.tap"
check "tap: no case fails" [ -z "$(grep '^not ok' "$T/good.tap")" ]
check "tap: a skip gives its reason" grep -q 'xts.vec:[0-9]* xts-aes-openssl: 384-bit keys unavailable' "$T/good.tap"
expect_exit 1 "tap: flipped vector exits 1" "$CB" kat --format tap --backend openssl "$bad"
printf '%s\n' "$out" >"$T/bad.tap"
check "tap: the flipped record is a failing case" grep -q '^not ok [0-9]* - openssl ' "$T/bad.tap"
check "tap: the failure names file:line and driver" grep -q "\"$bad:$line [a-z(].*-openssl.*: " "$T/bad.tap"
check "tap: exactly one failing case" [ "$(grep -c '^not ok' "$T/bad.tap")" -eq 1 ]
check "tap: the failure says the byte, expected and got" grep -q "$diff[0-9]* (bytes 25-48 shown): expected \\.\\.\\.[0-9a-f]\\{48\\}\\.\\.\\. got \\.\\.\\.[0-9a-f]\\{48\\}\\.\\.\\.\"" "$T/bad.tap"
expect_exit 1 "text: flipped vector exits 1" "$CB" kat --backend openssl "$bad"
check "text: the FAIL line names the ct line, byte, expected, got" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^FAIL $bad:$line openssl .*$diff.*expected .* got '" - "$out"
expect_exit 1 "-v: flipped vector exits 1" "$CB" kat -v --backend openssl "$bad"
check "-v: the same FAIL line" contains "$out" "FAIL $bad:$line openssl"
check "-v: with the difference" contains "$out" "$diff"
expect_exit 0 "tap: an unavailable backend is a skip" "$CB" kat --format tap --alg sha256 "$good" vectors/hash.vec
check "tap: native has no sha256, nothing listed for it" [ -z "$(printf '%s' "$out" | grep ' native sha256')" ]
if command -v prove >/dev/null 2>&1; then
	prove -e "$CB kat --format tap" "$good" >"$T/prove" 2>&1
	check "prove accepts the TAP of good vectors" [ $? -eq 0 ]
	check "prove saw every case" grep -q "Tests=$n," "$T/prove"
	prove -e "$CB kat --format tap --backend openssl" "$bad" >"$T/prove" 2>&1
	check "prove reports the flipped vector as a failure" [ $? -ne 0 ]
	check "prove names the failed test" grep -q 'Failed 1/' "$T/prove"
else
	echo "SKIP: prove (perl) not installed: TAP not run through prove"
fi

# ---- JUnit -----------------------------------------------------------------
expect_exit 1 "junit: flipped vector exits 1" "$CB" kat --format junit "$good" "$bad"
printf '%s\n' "$out" >"$T/bad.xml"
expect_exit 0 "junit: good vectors exit 0" "$CB" kat --format junit "$good"
printf '%s\n' "$out" >"$T/good.xml"
if command -v python3 >/dev/null 2>&1; then
	cat >"$T/junit.py" <<'PY'
import sys, xml.etree.ElementTree as ET
path, want_fail = sys.argv[1], sys.argv[2]
root = ET.parse(path).getroot()
assert root.tag == 'testsuites', root.tag
suites = root.findall('testsuite')
assert suites, 'no testsuite'
ncases = nfail = 0
for s in suites:
    for a in ('name', 'tests', 'failures', 'errors', 'time', 'timestamp',
              'hostname', 'id', 'package'):
        assert a in s.attrib, 'testsuite lacks ' + a
    for e in ('properties', 'system-out', 'system-err'):
        assert s.find(e) is not None, 'testsuite lacks <%s>' % e
    cases = s.findall('testcase')
    assert int(s.get('tests')) == len(cases), 'tests= does not count the cases'
    f = [c for c in cases if c.find('failure') is not None]
    assert int(s.get('failures')) == len(f), 'failures= does not count them'
    for c in cases:
        for a in ('name', 'classname', 'time'):
            assert a in c.attrib, 'testcase lacks ' + a
        for x in c.findall('failure'):
            assert 'message' in x.attrib and 'type' in x.attrib, 'failure lacks message/type'
    ncases += len(cases)
    nfail += len(f)
    for c in f:
        if want_fail != '-':
            assert want_fail in c.find('failure').text, c.find('failure').text
assert int(root.get('tests')) == ncases
assert (nfail > 0) == (want_fail != '-'), 'failures: %d' % nfail
print('ok: cases %d failures %d' % (ncases, nfail))
PY
	r=$(python3 "$T/junit.py" "$T/good.xml" - 2>&1)
	check "junit: good XML has the required elements ($r)" contains "$r" "ok: "
	r=$(python3 "$T/junit.py" "$T/bad.xml" "$bad:$line" 2>&1)
	check "junit: flipped vector is failing cases naming $bad:$line ($r)" contains "$r" "ok: "
else
	echo "SKIP: python3 not installed: JUnit XML not parsed"
fi
check "junit: the failure names the driver" grep -q "$bad:$line [^<]*-gcrypt" "$T/bad.xml"
check "junit: the failure says the byte, expected and got" grep -q "$bad:$line [^<]*$diff[^<]* expected [^<]* got " "$T/bad.xml"
check "junit: a skip is a skipped or system-out line with its reason" grep -q "duplicated keys" "$T/good.xml"

# ---- nothing to run, a file that does not parse (issue 45) ------------------
# a backend with no implementation of a file's algorithms: TAP's skip plan
# with the reason, exit 0, so prove passes (the README's recipe)
mkdir "$T/vec" && cp "$good" vectors/serpent.vec "$T/vec/"
nb=$("$CB" list algs 2>/dev/null | awk '$1 == "openssl" && $2 ~ /serpent/' | wc -l)
if [ "$nb" -eq 0 ]; then
	expect_exit 0 "tap: nothing to run on the backend exits 0" "$CB" kat --format tap --backend openssl "$T/vec/serpent.vec"
	check "tap: its plan is 1..0 # SKIP naming the file" sh -c "printf '%s\n' \"\$1\" | grep -q '^1\.\.0 # SKIP .*serpent.vec: no implementation of its algorithms on openssl'" - "$out"
	if command -v prove >/dev/null 2>&1; then
		prove --ext=.vec -e "$CB kat --backend openssl --format tap" "$T/vec" >"$T/prove" 2>&1
		check "prove with --backend openssl passes ($(tail -n 1 "$T/prove"))" [ $? -eq 0 ]
		check "prove says serpent.vec was skipped" grep -q 'serpent.vec .*skipped: .*no implementation' "$T/prove"
	fi
else
	echo "SKIP: openssl has serpent here: no file without an openssl implementation"
fi
expect_exit 0 "tap: every record filtered out by --alg exits 0" "$CB" kat --format tap --backend openssl --alg sha256 "$good"
check "tap: the skip says no record of the --alg" contains "$out" "1..0 # SKIP $good: no record of the --alg given"

# a vectors file with no records: named, with why nothing ran; exit 77
: >"$T/empty.vec"
expect_exit 77 "kat of an empty file exits 77" "$CB" kat "$T/empty.vec"
check "it names the file and why nothing ran" contains "$err" "nothing ran: $T/empty.vec: no records"
expect_exit 0 "tap: an empty file is a skip" "$CB" kat --format tap --backend openssl "$T/empty.vec"
check "tap: 1..0 # SKIP naming the empty file" contains "$out" "1..0 # SKIP $T/empty.vec: no records"
expect_exit 77 "junit: an empty file exits 77" "$CB" kat --format junit "$T/empty.vec"
check "junit: the document says why nothing ran" contains "$out" "nothing ran: $T/empty.vec: no records"

# a file that does not parse: TAP Bail out! and a JUnit error case, exit 2
odd=tests/data/bad-input/oddhex.vec
expect_exit 2 "tap: a file that does not parse exits 2" "$CB" kat --format tap "$odd"
check "tap: Bail out! naming FILE:LINE" contains "$out" "Bail out! $odd:4: pt: odd number of hex digits"
check "tap: the message also on stderr" contains "$err" "$odd:4: pt: odd number"
expect_exit 2 "junit: a file that does not parse exits 2 (--format after it)" "$CB" kat "$odd" --format junit
printf '%s\n' "$out" >"$T/err.xml"
if command -v python3 >/dev/null 2>&1; then
	r=$(python3 - "$T/err.xml" "$odd:4" <<'PY' 2>&1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
s = root.find('testsuite')
cases = s.findall('testcase')
assert len(cases) == 1, len(cases)
e = cases[0].find('error')
assert e is not None, 'no <error>'
assert cases[0].get('name') == sys.argv[2], cases[0].get('name')
assert e.get('message').startswith(sys.argv[2] + ': pt: odd'), e.get('message')
assert root.get('errors') == '1' and s.get('errors') == '1' and s.get('tests') == '1'
print('ok')
PY
)
	check "junit: one error case named $odd:4 ($r)" [ "$r" = ok ]
fi
check "junit: the error names FILE:LINE" grep -q "<error type=\"bad-input\" message=\"$odd:4: pt: odd number of hex digits\"" "$T/err.xml"

# repeated --alg: both run
expect_exit 0 "kat --alg 'xts(aes)' --alg 'cbc(aes)'" "$CB" kat --backend gcrypt --alg 'xts(aes)' --alg 'cbc(aes)' "$good" vectors/aes.vec
check "xts(aes) ran" contains "$out" "xts-aes-gcrypt"
check "cbc(aes) ran" contains "$out" "cbc-aes-gcrypt"

# ---- options ---------------------------------------------------------------
expect_exit 2 "an unknown --format is a usage error" "$CB" kat --format yaml "$good"
check "it names the formats" contains "$err" "text, tap, junit"
expect_exit 0 "kat --help" "$CB" kat --help
check "--help lists --format" contains "$out" "--format text|tap|junit"
check "--help lists tap and junit" contains "$out" "tap: TAP version 13"
finish
