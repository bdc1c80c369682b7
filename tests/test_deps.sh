#!/bin/sh
# scripts/deps.sh with fake dpkg-query, apt-get, id and sudo on PATH: the
# one message names every package missing for the goals; root installs
# them itself with --no-install-recommends (one line per step, apt's output
# in the log, its tail on a failure); non-root is told the command, with
# sudo only when sudo exists; nothing missing is silent.
. tests/lib.sh

# A PATH without the real tools deps.sh asks (symlinks to everything else).
mkdir -p "$T/sys" "$T/fake"
for f in /usr/local/bin/* /usr/bin/* /bin/*; do
	b=${f##*/}
	case $b in sudo|dpkg-query|apt-get|id) continue ;; esac
	[ -e "$T/sys/$b" ] || ln -s "$f" "$T/sys/$b" 2>/dev/null
done
cat >"$T/fake/dpkg-query" <<'EOF'
#!/bin/sh
# -W -f=FORMAT PKG...: the installed ones ($FAKE_INSTALLED) as "PKG install ok installed"
shift 2
for p in "$@"; do
	case " $FAKE_INSTALLED " in
	*" $p "*) echo "$p install ok installed" ;;
	*) echo "dpkg-query: no packages found matching $p" >&2 ;;
	esac
done
EOF
cat >"$T/fake/apt-get" <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKE_LOG"
echo "Reading package lists... (fake apt output)"
[ "$1" = install ] && [ -n "${FAKE_APT_FAIL:-}" ] && { echo "E: Unable to locate package x"; exit 100; }
exit 0
EOF
printf '#!/bin/sh\necho "$FAKE_UID"\n' >"$T/fake/id"
printf '#!/bin/sh\nexit 0\n' >"$T/sudo"
chmod +x "$T/fake/"* "$T/sudo"
export FAKE_LOG="$T/calls" DEPS_LOG="$T/apt.log"

deps() {   # deps UID SUDO(0|1) GOAL...
	uid=$1 sudo=$2; shift 2
	rm -f "$T/calls"
	mkdir -p "$T/sudo-dir"; rm -f "$T/sudo-dir/sudo"
	[ "$sudo" = 1 ] && cp "$T/sudo" "$T/sudo-dir/sudo"
	FAKE_UID=$uid PATH="$T/fake:$T/sudo-dir:$T/sys" \
		expect_exit "$want" "deps.sh $* (uid $uid, sudo $sudo)" sh scripts/deps.sh "$@"
}
all_named() {   # every package of the goals appears in $err
	for p in $(sh scripts/deps.sh --list "$@"); do
		contains "$err" " $p" || { echo "    $p not named"; return 1; }
	done
}

export FAKE_INSTALLED=""
for goal in build check check-valgrind bench-geli fuzz; do
	want=1 deps 1000 0 $goal
	check "non-root $goal: every package named" all_named $goal
	check "non-root $goal: one message line and one command" [ "$(printf '%s\n' "$err" | wc -l)" -eq 2 ]
	check "non-root $goal: no sudo without sudo" contains "$err" "run as root:  apt-get update && apt-get install -y --no-install-recommends"
	check "non-root $goal: nothing installed" [ ! -e "$T/calls" ]
done
want=1 deps 1000 1 check
check "non-root with sudo: sudo command" contains "$err" "sudo apt-get install -y --no-install-recommends"
check "with sudo: every package" all_named check

# Two goals at once: one message for both.
want=1 deps 1000 0 build check
check "build+check: one message" [ "$(printf '%s\n' "$err" | grep -c 'needs')" -eq 1 ]
check "build+check: no package twice" [ "$(printf '%s\n' "$err" | head -1 | tr ' ' '\n' | grep -c '^gcc$')" -eq 1 ]

# Some installed: only the rest named.
FAKE_INSTALLED="gcc libc6-dev make pkg-config libssl-dev libgcrypt20-dev nettle-dev libmbedtls-dev valgrind"
want=0 deps 1000 0 build
check "build present: silent" [ -z "$err" ]
want=1 deps 1000 0 check
check "check: gcc not named when installed" eval '! contains "$err" " gcc "'
check "check: python3-cryptography named" contains "$err" "python3-cryptography"

# Root: installs, quietly, --no-install-recommends, apt output in the log.
FAKE_INSTALLED=""
want=0 deps 0 0 check
check "root: apt-get update first" [ "$(head -1 "$T/calls")" = update ]
check "root: install without recommends" grep -q '^install -y --no-install-recommends gcc .*python3-cryptography' "$T/calls"
check "root: one line per step" [ "$(printf '%s\n' "$err" | wc -l)" -eq 3 ]
check "root: apt's output in the log, not on the terminal" grep -q 'fake apt output' "$DEPS_LOG"
check "root: nothing of apt's on stderr" eval '! contains "$err" "Reading package lists"'
check "root: installs nothing more than the goal's" [ "$(grep -c . "$T/calls")" -eq 2 ]
FAKE_APT_FAIL=1 want=1 deps 0 0 build
check "root: a failed install shows apt's last lines" contains "$err" "Unable to locate package"
unset FAKE_APT_FAIL

want=2 deps 1000 0 nosuch
check "unknown goal named" contains "$err" "nosuch"
finish
