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

# ---- options ---------------------------------------------------------------
expect_exit 2 "an unknown --format is a usage error" "$CB" kat --format yaml "$good"
check "it names the formats" contains "$err" "text, tap, junit"
expect_exit 0 "kat --help" "$CB" kat --help
check "--help lists --format" contains "$out" "--format text|tap|junit"
check "--help lists tap and junit" contains "$out" "tap: TAP version 13"
finish
