#!/bin/sh
# tests/test_fleet.sh - `make check-fleet` (issue 11): the fleet playbook for
# real.  Three hosts are Linux network namespaces, each with its own sshd
# (its own UTS name, a throw-away key pair and known_hosts) on an address
# inside its namespace; scripts/fleet runs the real ansible-playbook
# against them, each host at another --cpu level.  Checks: three hosts'
# results come back and are merged; the comparison against the generic
# host shows AES stepping; with one sshd stopped the run names that host,
# keeps the other two and exits 1.  The merged report puts the three hosts
# side by side (compare's verdicts, fleet1 against each).  Everything is
# torn down on exit, also on failure; FLEET_KEEP=DIR keeps the run
# directories (results, logs, report) there.  Root only; skips with the
# reason otherwise.
. tests/lib.sh
top=$(pwd)

[ "$(id -u)" = 0 ] || { echo "SKIP: check-fleet needs root (network namespaces, sshd)"; exit 77; }
for t in ip unshare ssh ssh-keygen ansible-playbook python3 make; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed (scripts/deps.sh fleet)"; exit 77; }
done
[ -x /usr/sbin/sshd ] || { echo "SKIP: sshd not installed (openssh-server)"; exit 77; }
git -C "$top" rev-parse --verify -q HEAD >/dev/null ||
	{ echo "SKIP: not a git checkout (the fleet sends the controller's commit)"; exit 77; }

tag=cbf$$
net=$(( $$ % 250 + 1 ))
mkdir -p "$T/res"
made_run_sshd=0
teardown() {
	if [ -n "${FLEET_KEEP:-}" ] && [ -d "$T/res" ]; then
		mkdir -p "$FLEET_KEEP" && cp -r "$T/res/." "$FLEET_KEEP/" &&
			cp "$T"/*.log "$FLEET_KEEP/" 2>/dev/null
		echo "kept in $FLEET_KEEP"
	fi
	for i in 1 2 3; do
		ns=${tag}_$i
		ip netns pids "$ns" 2>/dev/null | while read -r p; do kill "$p" 2>/dev/null; done
		ip netns del "$ns" 2>/dev/null
		ip link del "${tag}v$i" 2>/dev/null
	done
	[ $made_run_sshd = 1 ] && rmdir /run/sshd 2>/dev/null
	rm -rf "$T"
}
trap teardown EXIT
trap 'exit 2' INT TERM

addr() { echo "10.200.$net.$(( 4 * $1 + 2 ))"; }   # host i's sshd address
ssh-keygen -q -t ed25519 -N '' -C cbfleet-client -f "$T/id" || exit 2
ssh-keygen -q -t ed25519 -N '' -C cbfleet-host -f "$T/hostkey" || exit 2
cp "$T/id.pub" "$T/authorized_keys"
: >"$T/known_hosts"
[ -d /run/sshd ] || { mkdir -p /run/sshd && made_run_sshd=1; }

start_host() {   # i: namespace, veth pair, addresses, sshd named fleet<i>
	i=$1 ns=${tag}_$i a=$(addr "$1")
	ip netns add "$ns" || return 1
	ip link add "${tag}v$i" type veth peer name "${tag}p$i" || return 1
	ip link set "${tag}p$i" netns "$ns" || return 1
	ip addr add "10.200.$net.$(( 4 * i + 1 ))/30" dev "${tag}v$i" || return 1
	ip link set "${tag}v$i" up || return 1
	ip netns exec "$ns" ip addr add "$a/30" dev "${tag}p$i" || return 1
	ip netns exec "$ns" ip link set "${tag}p$i" up || return 1
	ip netns exec "$ns" ip link set lo up || return 1
	cat >"$T/sshd$i.conf" <<-CONF
	ListenAddress $a
	Port 22
	HostKey $T/hostkey
	PidFile $T/sshd$i.pid
	AuthorizedKeysFile $T/authorized_keys
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	Subsystem sftp internal-sftp
	CONF
	echo "$a $(cut -d' ' -f1,2 "$T/hostkey.pub")" >>"$T/known_hosts"
	ip netns exec "$ns" unshare --uts sh -c \
		"hostname fleet$i && exec /usr/sbin/sshd -f '$T/sshd$i.conf'" || return 1
}
sshto() { ssh -i "$T/id" -o UserKnownHostsFile="$T/known_hosts" -o GlobalKnownHostsFile=/dev/null \
	-o StrictHostKeyChecking=yes -o BatchMode=yes -o ConnectTimeout=3 "root@$(addr "$1")" "$2"; }

for i in 1 2 3; do
	if ! start_host $i 2>"$T/ns.err"; then
		if [ $i = 1 ]; then echo "SKIP: cannot create network namespaces here: $(head -n 1 "$T/ns.err")"; exit 77; fi
		cat "$T/ns.err"; fail "namespace host $i"; finish; exit 1
	fi
done
for i in 1 2 3; do
	n=0
	until h=$(sshto $i hostname 2>/dev/null); do
		n=$((n + 1)); [ $n -lt 20 ] || break; sleep 0.25
	done
	check "sshd $i answers as fleet$i (known_hosts, key)" [ "$h" = "fleet$i" ]
done

# Levels standing for three generations (the best this CPU has last).
top_level=max
for l in vaes256 avx2 aesni; do
	"$CB" --cpu $l list backends >/dev/null 2>&1 && { top_level=$l; break; }
done
cat >"$T/inventory.ini" <<EOF2
[netns]
fleet1 ansible_host=$(addr 1) cb_cpu=generic cb_remote_dir=$T/remote1
fleet2 ansible_host=$(addr 2) cb_cpu=aesni cb_remote_dir=$T/remote2
fleet3 ansible_host=$(addr 3) cb_cpu=$top_level cb_remote_dir=$T/remote3

[netns:vars]
ansible_user=root
ansible_ssh_private_key_file=$T/id
ansible_ssh_common_args='-o UserKnownHostsFile=$T/known_hosts -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes'
ansible_python_interpreter=/usr/bin/python3
cb_physical=this-vm
cb_sec=0.05
cb_sizes=4096
cb_algs=["cbc(aes)", "cbc(blowfish)"]
cb_jobs=1
EOF2
# No ssh connection sharing: a stopped sshd must mean an unreachable host.
export ANSIBLE_SSH_ARGS="-o ControlMaster=no" FLEET_RESULTS="$T/res" CB="$top/$CB"

# ---- all three hosts -----------------------------------------------------------
FLEET_RUN=all scripts/fleet "$T/inventory.ini" >"$T/all.log" 2>&1; rc=$?
check "fleet run exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 30 "$T/all.log"
r=$T/res/all
for i in 1 2 3; do
	check "fleet$i: CSV fetched" [ -s "$r/fleet$i.csv" ]
	check "fleet$i: reported ok" grep -qx "fleet$i ok" "$r/hosts.txt"
	check "fleet$i: its own host name in the CSV" grep -q ",fleet$i," "$r/fleet$i.csv"
done
check "merged CSV holds three hosts" [ "$(grep -o ',fleet[123],' "$r/merged.csv" | sort -u | wc -l)" -eq 3 ]
check "hosts built at the controller's commit" [ -d "$T/remote1/$(git rev-parse HEAD)" ]
c=$r/compare-fleet1-fleet2.txt
check "generic -> aesni compared" [ -s "$c" ]
check "AES steps from generic to aesni" grep -Eq '^cbc\(aes\).*(improved|faster)' "$c"
check "Blowfish does not step up 2x" sh -c '! awk '\''$1 == "cbc(blowfish)" && $9 + 0 > 2'\'' "$1" | grep -q .' - "$c"
check "generic -> $top_level compared" grep -Eq '^cbc\(aes\).*(improved|faster)' "$r/compare-fleet1-fleet3.txt"
check "the output names the baseline" grep -q "against the baseline fleet1" "$T/all.log"
page=$r/report/index.html
check "merged report written" [ -s "$page" ]
if [ -s "$page" ]; then
	for i in 1 2 3; do
		check "report: fleet$i's summary" grep -q "fleet$i @" "$page"
		check "report: fleet$i's provenance" grep -q "<h3>fleet$i" "$page"
	done
	check "report: fleet2 side by side with fleet1" grep -q "<h3>fleet1 @generic &rarr; fleet2 @aesni</h3>" "$page"
	check "report: fleet3 side by side with fleet1" grep -q "<h3>fleet1 @generic &rarr; fleet3 @$top_level</h3>" "$page"
	check "report: compare's verdicts in it" grep -q "points matched" "$page"
fi

# ---- one host's sshd stopped ---------------------------------------------------
kill "$(cat "$T/sshd3.pid")"
ip netns pids "${tag}_3" | while read -r p; do kill "$p" 2>/dev/null; done
sleep 0.5
FLEET_RUN=one-down scripts/fleet "$T/inventory.ini" >"$T/down.log" 2>&1; rc=$?
r=$T/res/one-down
check "a failed host makes the exit status 1" [ $rc -eq 1 ]
check "the stopped host is reported by name" grep -q "^fleet3 FAILED unreachable" "$r/hosts.txt"
check "with the reason" grep -Eq "^fleet3 FAILED .*(refused|timed out|No route)" "$r/hosts.txt"
check "the run's output names it too" grep -q "fleet3 FAILED" "$T/down.log"
for i in 1 2; do
	check "fleet$i kept" grep -qx "fleet$i ok" "$r/hosts.txt"
	check "fleet$i's CSV kept" [ -s "$r/fleet$i.csv" ]
done
check "merged CSV holds the two" [ "$(grep -o ',fleet[123],' "$r/merged.csv" | sort -u | wc -l)" -eq 2 ]
check "the report shows the two" sh -c "grep -q '&rarr; fleet2 @aesni</h3>' '$r/report/index.html' &&
	! grep -q 'fleet3 @' '$r/report/index.html'"
[ "$failed" -eq 0 ] || { echo "--- one-down log:"; tail -n 20 "$T/down.log"; }
finish
