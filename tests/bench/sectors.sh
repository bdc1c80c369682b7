#!/usr/bin/env bash
# tests/bench/sectors.sh - multi-sector ESSIV-CBC-AES-128 encryption (1 MiB
# of 4 KiB sectors) and XTS-AES-256 at 4 KiB (both directions) on the
# native paths of the levels named (default: vaes256 aesni), against each
# level's AES throughput bound nr / (16 x R), R from `cryptobench --cpu
# LEVEL sysinfo`'s `limit native` line (issue 42 item 6).  ROUNDS rounds
# (default 9), each pinned to one allowed CPU (the next one each round), the
# levels in alternating order; c/B is speed's cycles_per_byte (ns/B times
# the dependent-add clock).  Prints per level and point the median c/B with
# its 95 % CI (order statistics) and the fraction of the bound.  A
# measurement, not a test: run from the top of the tree after make.
set -eu
CB=${CB_BIN:-./cryptobench}
ROUNDS=${ROUNDS:-9}
LEVELS=${*:-vaes256 aesni}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CPUS=($(taskset -pc $$ | sed 's/.*: //; s/,/ /g' | tr ' ' '\n' |
	awk -F- 'NF == 2 { for (i = $1; i <= $2; i++) print i; next } { print }'))
for lv in $LEVELS; do
	r=$("$CB" --cpu "$lv" sysinfo 2>/dev/null |
	    sed -n 's/^limit native *\([0-9.]*\) AES block-rounds.*/\1/p')
	[ -n "$r" ] || { echo "sectors.sh: no limit native line at --cpu $lv" >&2; exit 2; }
	echo "$lv $r" >>"$tmp/rates"
done
for k in $(seq 1 "$ROUNDS"); do
	cpu=${CPUS[$(( (k - 1) % ${#CPUS[@]} ))]}
	order=$LEVELS
	[ $((k % 2)) = 1 ] || order=$(echo "$LEVELS" | tr ' ' '\n' | tac | tr '\n' ' ')
	for lv in $order; do
		s() { taskset -c "$cpu" "$CB" --cpu "$lv" speed --sec 0.2 --reps 1 \
		      --no-progress --format csv --backend native "$@" | tail -n +2 |
		      sed "s/^/$lv,$1,/" >>"$tmp/rows"; }
		s --alg 'essiv(cbc(aes),sha256)' --driver essiv-cbc-aes-native \
		  --key-bits 128 --sizes 1m --sector-size 4096 --encrypt
		s --alg 'xts(aes)' --key-bits 512 --sizes 4096
	done
done
python3 - "$tmp/rates" "$tmp/rows" <<'PY'
import csv, sys, statistics
from math import comb
rate = dict(l.split() for l in open(sys.argv[1]))
d = {}
for x in csv.reader(open(sys.argv[2])):
    lv, what, c = x[0], x[1], x[2:]
    d.setdefault((lv, c[8], c[9], c[11]), []).append(float(c[15]))
def ci(v):          # the widest symmetric order statistics covering 95 %
    v, n, best = sorted(v), len(v), None
    for k in range(n // 2):
        if sum(comb(n, i) for i in range(k + 1, n - k)) / 2 ** n >= 0.95:
            best = (v[k], v[n - 1 - k])
    return best or (v[0], v[-1])
for (lv, alg, bits, dirn), v in sorted(d.items()):
    nr = {128: 10, 192: 12, 256: 14}[int(bits) // (2 if alg == 'xts(aes)' else 1)]
    b = nr / (16 * float(rate[lv]))
    m, (lo, hi) = statistics.median(v), ci(v)
    print(f"{lv:8} {alg:24} {dirn:8} {m:.3f} c/B [{lo:.3f}, {hi:.3f}]"
          f"  bound {b:.3f}: {100 * b / m:.0f} % [{100 * b / hi:.0f}, {100 * b / lo:.0f}]")
PY
