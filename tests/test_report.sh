#!/bin/sh
# cryptobench report: index.html from handmade result CSVs (two hosts,
# speed, geli dd and dm-crypt rows, ct rows) - self-contained (no URL to
# fetch), every section there, compare's verdicts between the hosts, the
# constant-time table (hosts and levels, a class a cell), refusal to
# overwrite without --force, exit 2 on bad input or without gnuplot.  Then
# the page in a real browser: headless Chromium loads it from disk, no
# console message may appear, and the page's own check that every chart
# has a rendered size (getBBox) must say so; a screenshot is kept at
# $REPORT_SHOT (default build/test-report.png) to look at.  Skipped (77)
# without gnuplot; the browser part is skipped, with the reason, without
# chromium.
. tests/lib.sh

need gnuplot gnuplot-nox

H=$CSV1_HEADER
lacks() { ! contains "$@"; }
row() { csv1_row "$@"; }
speed_rows() {   # HOST SCALE
	for size in 16 64 256 1024 4096 8192; do
		for dir in encrypt decrypt; do
			row "$1" openssl cbc-aes-openssl 'cbc(aes)' 128 $size $dir \
				$((size * 1000000000 * $2 / (size + 64))) speed 0 ""
			row "$1" native cbc-aes-native 'cbc(aes)' 128 $size $dir \
				$((size * 4000000000 * $2 / (size + 16))) speed 0 ""
		done
		row "$1" gcrypt hmac-sha256-gcrypt 'hmac(sha256)' 256 $size digest \
			$((size * 3000000000 * $2 / (size + 128))) speed 0 ""
	done
	row "$1" nettle cbc-aes-nettle 'cbc(aes)' 128 16 encrypt "" speed 0 "" fail "known-answer vector vectors/aes.vec:12 failed"
}
dd_rows() {      # HOST SCALE: the seed's 17 configurations and dm-crypt's two
	for c in "none 0" "xts(aes) 512" "xts(aes) 256" "cbc(blowfish) 128" \
	         "cbc(camellia) 128" "cbc(des3_ede) 192" "ecb(cipher_null) 0"; do
		set -- "$1" "$2" $c
		row "$1" openssl dd-openssl "$3" "$4" 1048576 encrypt $((500000000 * $2)) dd 4096 ""
	done
	for a in 'hmac(sha512)' 'hmac(sha256)' 'hmac(sha1)' 'hmac(rmd160)' 'hmac(md5)'; do
		row "$1" openssl dd-openssl 'xts(aes)' 512 1048576 encrypt $((300000000 * $2)) dd 4096 "$a"
		row "$1" openssl dd-openssl 'ecb(cipher_null)' 0 1048576 encrypt $((400000000 * $2)) dd 4096 "$a"
	done
	for s in 512 4096; do
		for dir in encrypt decrypt; do
			row "$1" openssl xts-aes-openssl 'xts(aes)' 256 1048576 $dir $((2000000000 * $2)) dd $s ""
			row "$1" openssl essiv-openssl '"essiv(cbc(aes),sha256)"' 256 1048576 $dir $((1000000000 * $2)) dd $s ""
		done
	done
}
{ echo "$H"; speed_rows hostA 1; dd_rows hostA 1; } >"$T/a.csv"
{ echo "$H"; speed_rows hostB 2; dd_rows hostB 1; } >"$T/b.csv"
# ct rows (cryptobench-csv-5, tool ct): verdicts, not speeds
H5="$H,cpu_level,ct_verdict,ct_method,ct_t,ct_measurements,ct_branches,ct_indexes,ct_places,ct_note"
ctrow() {   # HOST BACKEND DRIVER ALG LEVEL VERDICT METHOD [STATUS ERROR]
	printf 'cryptobench-csv-5,0.1.0,%s,"CPU, with ""quotes""",Linux,%s,1.0,%s,%s,128,0,-,,,,,,0,,2025-01-01T00:00:00Z,ct,%s,%s,,0,1,,%s,%s,%s,0.42,40000,0,3,"memory index: BF_encrypt (in libcrypto.so.3)",\r\n' \
		"$1" "$2" "$3" "$4" "${8:-ok}" "${9:-}" "$5" "$6" "$7"
}
{ echo "$H5"
  ctrow hostA openssl cbc-aes-openssl 'cbc(aes)' max constant-time memcheck+timing
  ctrow hostA openssl cbc-aes-openssl 'cbc(aes)' generic 'secret-dependent memory index' memcheck+timing
  ctrow hostA nettle cbc-blowfish-nettle 'cbc(blowfish)' max 'no timing leak found' timing
  ctrow hostA gcrypt cbc-aes-gcrypt 'cbc(aes)' max 'not checked' '' skipped 'valgrind is not installed'
  ctrow hostB openssl cbc-aes-openssl 'cbc(aes)' max 'secret-dependent timing' timing
  row hostA gcrypt cbc-aes-gcrypt 'cbc(aes)' 128 16 encrypt "" speed 0 "" skipped "no 128-bit key" |
	sed 's/\r$/,max,,,,,,,,\r/'
} >"$T/ct.csv"

# ---- the page --------------------------------------------------------
expect_exit 0 "report of two hosts" "$CB" report "$T/a.csv" "$T/b.csv" -o "$T/rep"
page=$T/rep/index.html
check "index.html written" [ -s "$page" ]
check "says where" contains "$err" "$T/rep/index.html"
html=$(cat "$page" 2>/dev/null)
nsvg=$(grep -c '<svg' "$page")
check "a chart per alg/key and the geli bars (3)" [ "$nsvg" -eq 3 ]
check "no http(s) URL at all" sh -c "! grep -Eqi 'https?:' '$page'"
check "nothing loaded: no src=, <link, @import" \
	sh -c "! grep -Eqi '(src=|<link|@import|url\\([^#])' '$page'"
check "ids unique across charts" \
	sh -c "[ -z \"\$(grep -o \"id='[^']*'\" '$page' | sort | uniq -d)\" ]"
check "summary section" contains "$html" 'id="summary"'
check "summary: native's ratio to the best library" contains "$html" "&times;</td>"
check "compare's verdicts between the hosts" contains "$html" "hostA</h3>"
check "verdict counts from compare" contains "$html" "points matched"
check "hostB's doubled speed is a verdict other than same" contains "$html" '<td class="bad">'
check "geli table beside the seed (3DES row, seed figure)" contains "$html" "<td>3DES-CBC</td><td class=\"n\">13.9</td>"
check "geli: this run's figure" contains "$html" "<td class=\"n\">500.0</td>"
check "dm-crypt ratio xts/essiv" contains "$html" "<td class=\"n\">2.00</td>"
check "dm-crypt 512-byte read row" contains "$html" "<td class=\"n\">512</td><td>read (decrypt)</td>"
check "known-answer failure listed with file:line" contains "$html" "b.csv:"
check "provenance" contains "$html" "CPU, with &quot;quotes&quot;"
check "no constant-time verdicts: said" contains "$html" "No constant-time verdicts in these files"
check "no ct rows: compare's ct columns not shown" lacks "$html" "base_ct_verdict"

# The constant-time section: implementations x CPU level (and host)
expect_exit 0 "report with ct rows" "$CB" report "$T/a.csv" "$T/b.csv" "$T/ct.csv" -o "$T/ct"
ct=$(cat "$T/ct/index.html" 2>/dev/null)
sect=$(sed -n '/<section id="ct">/,/<\/section>/p' "$T/ct/index.html")
check "ct: the section and its link" sh -c "grep -q 'href=\"#ct\"' '$T/ct/index.html' && grep -q '<h2>Constant time</h2>' '$T/ct/index.html'"
check "ct: a column per host and level" contains "$sect" "<th>hostA --cpu max</th><th>hostA --cpu generic</th><th>hostB --cpu max</th>"
check "ct: a row per implementation" [ "$(printf '%s\n' "$sect" | grep -c '^<tr><td>')" -eq 3 ]
check "ct: counts by class" contains "$sect" "5 verdicts: <b>2</b> leak, <b>1</b> clean, <b>1</b> timing-only, <b>1</b> not checked."
check "ct: a leak cell" contains "$sect" '<td class="ct-leak" title="cbc-aes-openssl: memcheck+timing; t 0.42, 40000 measurements; 0 branches, 3 memory indexes: memory index: BF_encrypt (in libcrypto.so.3)'
check "ct: the cell's verdict and method" contains "$sect" "secret-dependent memory index<br><span class=\"small\">memcheck+timing, t 0.42, 3 places</span>"
check "ct: a clean cell" contains "$sect" '<td class="ct-clean"'
check "ct: a timing-only cell" contains "$sect" '<td class="ct-timing"'
check "ct: a not-checked cell says why" contains "$sect" "not checked<br><span class=\"small\">valgrind is not installed"
check "ct: an empty cell" contains "$sect" "<td>&ndash;</td>"
check "ct: no chart of ct rows" [ "$(grep -c '<svg' "$T/ct/index.html")" -eq "$nsvg" ]
check "ct: the skipped ct row is not a failed point" [ "$(grep -c '^<li>' "$T/ct/index.html")" -eq 2 ]
check "ct: not counted as known answers; a skipped point is skipped, not failed" \
	contains "$ct" '<td>gcrypt</td><td class="n">6</td><td class="n">1</td><td class="n">0</td>'
check "ct: the page counts the rows apart" contains "$ct" "(113 rows and 5 constant-time verdicts)"
check "ct: compare's verdict on hostB" contains "$ct" "ct-worse"
check "ct: compare's ct columns with it" contains "$ct" "<td>max</td><td>constant-time</td><td>secret-dependent timing</td>"
expect_exit 0 "report of ct rows alone" "$CB" report "$T/ct.csv" -o "$T/ctonly"
check "ct alone: the section" grep -q '<td class="ct-leak"' "$T/ctonly/index.html"
{ echo "$H5"; ctrow hostA openssl d 'cbc(aes)' max 'constant time mostly' timing; } >"$T/ctbad.csv"
expect_exit 2 "ct: a garbled verdict" "$CB" report "$T/a.csv" "$T/ctbad.csv" -o "$T/ctbad"
check "ct: the garbled verdict with FILE:LINE" contains "$err" "ctbad.csv:2: column 'ct_verdict': 'constant time mostly' is not a ct verdict"
check "ct: no page for it" [ ! -e "$T/ctbad/index.html" ]

# Two CPU levels of one host: compare's fleet mode by cpu_level.
awk 'NR == 1 { sub(/\r$/, ""); print $0 ",cpu_level"; next }
     { sub(/\r$/, ""); print $0 ",aesni" }' "$T/a.csv" >"$T/c.csv"
expect_exit 0 "report of two CPU levels" "$CB" report "$T/a.csv" "$T/c.csv" -o "$T/lv"
lv=$(cat "$T/lv/index.html" 2>/dev/null)
check "levels side by side" contains "$lv" "hostA @aesni</h3>"
check "levels: compare's verdicts" contains "$lv" "points matched"
check "levels: compare ran" sh -c "! grep -q 'compare failed' '$T/lv/index.html'"

# One matching rule for report and compare (issue 44): native's driver
# names its code path (cbc-aes-native-aesni, -vaes256), yet at two levels
# it is native against native; a kernel's second driver at one level is
# another implementation (only in NEW), never folded into a median with
# the first.  The report's verdicts are compare's, point for point.
lvl() {   # LEVEL NATIVE_PATH NATIVE_SCALE [second kernel driver]
	for size in 512 4096; do
		row hostA native "cbc-aes-native-$2" 'cbc(aes)' 128 $size encrypt \
			$((size * 1000000 * $3)) speed 0 ""
		row hostA kernel cbc-aes-aesni 'cbc(aes)' 128 $size encrypt \
			$((size * 1000000)) speed 0 ""
		[ -n "${4:-}" ] && row hostA kernel "$4" 'cbc(aes)' 128 $size \
			encrypt $((size * 3000000)) speed 0 ""
	done | sed "s/\r\$/,$1\r/"
}
{ echo "$H,cpu_level"; lvl aesni aesni 2; } >"$T/l1.csv"
{ echo "$H,cpu_level"; lvl vaes256 vaes256 2 cbc-aes-vaes-avx2; } >"$T/l2.csv"
expect_exit 0 "one rule: compare of the two levels" "$CB" compare "$T/l1.csv" "$T/l2.csv"
check "one rule: compare matches native and the kernel's driver" contains "$out" "4 matched: 0 regressions, 0 improved, 4 same, 0 noise; 0 only in BASE, 2 only in NEW"
expect_exit 0 "one rule: report of the two levels" "$CB" report "$T/l1.csv" "$T/l2.csv" -o "$T/l12"
l12=$(cat "$T/l12/index.html" 2>/dev/null)
check "one rule: the report's counts are compare's" contains "$l12" "<b>4</b> same, <b>2</b> only-new"
check "one rule: nothing only in BASE" lacks "$l12" "only-base"
check "one rule: no median of two drivers (noise, improved)" sh -c \
	'! printf "%s" "$1" | grep -q "<b>[0-9]*</b> \(noise\|improved\)"' - "$l12"

# ---- refusals and bad input ------------------------------------------
before=$(cksum <"$page")
expect_exit 2 "refuses to overwrite" "$CB" report "$T/a.csv" -o "$T/rep"
check "refusal names the file" contains "$err" "index.html exists"
check "nothing rewritten" [ "$(cksum <"$page")" = "$before" ]
expect_exit 0 "--force replaces" "$CB" report "$T/a.csv" -o "$T/rep" --force
check "replaced" [ "$(cksum <"$page")" != "$before" ]
{ echo "$H"; speed_rows hostA 1; printf 'cryptobench-csv-1,"open\n'; } >"$T/bad.csv"
expect_exit 2 "malformed CSV" "$CB" report "$T/bad.csv" -o "$T/rep2"
check "malformed CSV: file:line" contains "$err" "bad.csv:"
check "malformed CSV: no page" [ ! -e "$T/rep2/index.html" ]
expect_exit 2 "no -o" "$CB" report "$T/a.csv"
expect_exit 2 "missing file" "$CB" report "$T/none.csv" -o "$T/rep3"
check "missing file named" contains "$err" "none.csv"
GNUPLOT=/nonexistent/gnuplot expect_exit 2 "no gnuplot" \
	env GNUPLOT=/nonexistent/gnuplot "$CB" report "$T/a.csv" -o "$T/rep4"
check "no gnuplot: says so" contains "$err" "gnuplot not found"

# ---- the charts a person reads (issue 45) ------------------------------
# Request-size series and sector series (4096-byte requests as 512- and
# 4096-byte sectors, as bench writes them), several drivers of a backend
# (ESSIV: three native ones with long names): every series its own colour
# and marker, the sector sizes on their own axis (not single points at
# x = 4096), legends inside their panel (the browser part, below).
sec_rows() {
	for size in 16 256 4096; do
		for dir in encrypt decrypt; do
			row hostA openssl cbc-aes-openssl 'cbc(aes)' 128 $size $dir $((size * 900000)) speed 0 ""
			row hostA native cbc-aes-native-vaes512 'cbc(aes)' 128 $size $dir $((size * 2000000)) speed 0 ""
			row hostA native cbc-aes-native-aesni 'cbc(aes)' 128 $size $dir $((size * 1500000)) speed 0 ""
		done
	done
	for s in 512 4096; do
		for dir in encrypt decrypt; do
			row hostA native cbc-aes-native-vaes512 'cbc(aes)' 128 4096 $dir $((30000000000 / s * 100)) speed $s ""
			row hostA openssl cbc-aes-openssl 'cbc(aes)' 128 4096 $dir $((5000000 * s / 8)) speed $s ""
			for d in vaes512 vaes256 aesni; do
				row hostA native "\"essiv(cbc-aes-native-$d,sha256-native)\"" '"essiv(cbc(aes),sha256)"' 256 4096 $dir $((1000000 * s / 4)) speed $s ""
			done
			for b in openssl gcrypt nettle; do
				row hostA $b "\"essiv(cbc-aes-$b,sha256-$b)\"" '"essiv(cbc(aes),sha256)"' 256 4096 $dir $((900000 * s / 4)) speed $s ""
			done
		done
	done
}
{ echo "$H"; sec_rows; } >"$T/sec.csv"
expect_exit 0 "report of sector series" "$CB" report "$T/sec.csv" -o "$T/sec"
if command -v python3 >/dev/null 2>&1; then
	r=$(python3 - "$T/sec/index.html" <<'PY' 2>&1
import re, sys
h = open(sys.argv[1]).read()
bad = []
nsec = 0
for svg in re.findall(r'<svg.*?</svg>', h, re.S):
    title = re.search(r'<text>([^<]*)</text>', svg).group(1)
    style = {}
    for g in re.findall(r'<g id="c\d+-gnuplot_plot_\d+[a-z]" >(.*?)\n\t</g>', svg, re.S):
        label = re.search(r'<text>([^<]*)</text>', g)
        pts = re.findall(r"<use xlink:href='#c\d+-gpPt(\d+)' transform='translate\(([\d.]+),[\d.]+\)[^']*' color='([^']*)'", g)
        if not label or not pts:
            continue
        st = (pts[0][2], pts[0][0])
        if style.setdefault(label.group(1), st) != st:
            bad.append('%s: %s drawn two ways' % (title, label.group(1)))
    pairs = list(style.values())
    for l, st in style.items():
        if pairs.count(st) > 1:
            bad.append('%s: %s shares colour and marker %s' % (title, l, st))
        if [p[0] for p in pairs].count(st[0]) > 1:
            bad.append('%s: %s shares colour %s' % (title, l, st[0]))
    if 'sector size (bytes)' in svg:
        nsec += 1
    if '-byte sectors)' in svg:
        bad.append('%s: a sector size in a label, not on an axis' % title)
if nsec != 2:
    bad.append('%d charts with a sector-size axis, not 2' % nsec)
print('\n'.join(bad) if bad else 'ok')
PY
)
	check "charts: every series its own colour and marker, sectors on their own axis ($r)" [ "$r" = ok ]
fi

# ---- in a real browser -----------------------------------------------
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "chromium not installed (apt-get install --no-install-recommends chromium): browser checks skipped"
	finish
	exit $?
fi
chrome() {   # OUT ERR ARGS...: one headless run with a fresh profile
	o=$1 e=$2; shift 2
	prof=$(mktemp -d "$T/prof.XXXXXX")
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--no-first-run --disable-sync --user-data-dir="$prof" \
		--enable-logging=stderr --v=0 "$@" >"$o" 2>"$e"
}
"$CB" report "$T/a.csv" "$T/b.csv" "$T/ct.csv" -o "$T/rep" --force 2>/dev/null
# The harness must see a console error when there is one.
printf '<!DOCTYPE html><html><body><script>nosuchfunction();</script></body></html>\n' >"$T/broken.html"
chrome "$T/b.out" "$T/b.err" --virtual-time-budget=3000 --dump-dom "file://$T/broken.html"
check "harness: a console error is seen" grep -q "CONSOLE" "$T/b.err"

chrome "$T/dom" "$T/dom.err" --virtual-time-budget=5000 --dump-dom "file://$page"
check "browser: page loaded" grep -q "render-status" "$T/dom"
check "browser: every chart rendered (getBBox > 0)" \
	grep -q "data-status=\"ok\">$nsvg of $nsvg charts rendered" "$T/dom"
check "browser: no console message" sh -c "! grep -q CONSOLE '$T/dom.err'"
grep CONSOLE "$T/dom.err" | head -5
# Legends inside their panel: the page with a script appended that
# measures each legend text (getBoundingClientRect, in the SVG's units)
# against the column of its panel (gnuplot's multiplot splits the width
# evenly into a column per direction, each titled by it) and the SVG.
cat >"$T/legend.js" <<'JS'
var bad = [];
document.querySelectorAll("svg.plot").forEach(function (svg) {
  var r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
  var k = vb.width / r.width, t = [];
  svg.querySelectorAll("g[id*=gnuplot_plot_] text").forEach(function (e) {
    var b = e.getBoundingClientRect();
    var x = { l: (b.left - r.left) * k, r: (b.right - r.left) * k,
              b: (b.bottom - r.top) * k, s: e.textContent };
    t.push(x);
  });
  var n = 0;      /* the columns: the first row's panel titles */
  svg.querySelectorAll("text").forEach(function (e) {
    if (/^(encrypt|decrypt|digest)$/.test(e.textContent)) n++;
  });
  var w = vb.width / (n || 1);
  t.forEach(function (x) {
    if (Math.floor(x.l / w) != Math.floor((x.r - 1) / w) || x.r > vb.width ||
        x.b > vb.height)
      bad.push(x.s + " [" + Math.round(x.l) + "," + Math.round(x.r) + "] of " +
               n + " columns of " + Math.round(w));
  });
});
var d = document.createElement("div"); d.id = "legend-check";
d.textContent = bad.length ? "legends out: " + bad.join("; ") : "legends inside";
document.body.appendChild(d);
JS
{ cat "$T/sec/index.html"; printf '<script>'; cat "$T/legend.js"; printf '</script>\n'; } >"$T/sec/legend.html"
chrome "$T/ldom" "$T/ldom.err" --virtual-time-budget=5000 --window-size=1280,2000 --dump-dom "file://$T/sec/legend.html"
check "browser: every legend inside its panel ($(grep -o 'legends out: [^<]*' "$T/ldom" | cut -c 1-300))" \
	grep -q '<div id="legend-check">legends inside</div>' "$T/ldom"
shot=${REPORT_SHOT:-${BUILD:-build}/test-report.png}
mkdir -p "$(dirname "$shot")"
chrome "$T/s.out" "$T/s.err" --screenshot="$shot" --window-size=1280,2000 "file://$page"
check "browser: screenshot saved" [ -s "$shot" ]
check "screenshot is a PNG" [ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
echo "screenshot: $shot"
finish
