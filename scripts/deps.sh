#!/bin/sh
# scripts/deps.sh GOAL... - make sure the Debian packages a make goal needs
# are installed.  GOAL is a make goal (build, check, check-asan,
# check-valgrind, bench, bench-geli, parity, plots, fuzz, ci, ...); several
# goals are checked together.  Every package missing for them is named in
# one message.  As root it installs them itself with
# `apt-get install -y --no-install-recommends` (only what the goals use,
# one line per step, apt's output in build/deps-apt.log); otherwise it
# prints the command to run (with sudo only where sudo exists) and fails.
# `scripts/deps.sh --list GOAL...` prints the packages, installed or not.
set -u
cd "$(dirname "$0")/.." || exit 2
LOG=${DEPS_LOG:-build/deps-apt.log}

pkgs_for() {   # the packages of one goal
	# valgrind: its headers for ct's memcheck method (cryptobench ct), and
	# valgrind itself to run it
	build="gcc libc6-dev make pkg-config libssl-dev libgcrypt20-dev nettle-dev libmbedtls-dev valgrind"
	# check: the tests' tools - openssl and python3-cryptography (reference
	# values), gnuplot (plots, report), groff (the man page), perl (prove)
	tests="openssl python3 python3-cryptography gnuplot-nox groff-base perl"
	case $1 in
	build|all|install|bench-essiv|bench-native|bench-anchor|bench-generations) echo "$build" ;;
	bench) echo "$build gnuplot-nox" ;;      # gnuplot: bench's HTML report
	bench-power) echo "$build gnuplot-nox" ;;  # two benches (tests/power)
	check-report) echo "$build gnuplot-nox chromium" ;;   # a real browser
	check|check-asan) echo "$build $tests" ;;
	check-valgrind) echo "$build $tests valgrind" ;;
	check-ct) echo "$build" ;;    # valgrind is in the build's list
	bench-geli) echo "$build hyperfine" ;;
	parity) echo "$build openssl" ;;
	plots) echo "$build gnuplot-nox" ;;
	fuzz) echo "$build clang libfuzzer-14-dev" ;;
	# fleet: Ansible and ssh on the controller; check-fleet also sshd and ip
	# for its namespace hosts (rsync for users' synchronize-based variants)
	fleet) echo "$build ansible-core openssh-client python3 gnuplot-nox" ;;
	check-fresh) echo "debootstrap git mount" ;;   # scripts/fresh-debian
	# check-kernel: Debian's kernel booted under qemu with an initramfs of
	# busybox, dmsetup, cryptsetup and the modules (scripts/kernel-guest)
	check-kernel) echo "$build qemu-system-x86 linux-image-amd64 busybox-static dmsetup cryptsetup-bin cpio kmod" ;;
	check-fleet) echo "$build ansible-core openssh-client openssh-server iproute2 rsync python3" ;;
	# check-arm64: an arm64 root by debootstrap, run through qemu-user's
	# binfmt handler; its own packages are installed inside it
	check-arm64) echo "debootstrap qemu-user-static binfmt-support git mount" ;;
	ci) for g in check check-asan check-valgrind fuzz check-report check-fleet check-kernel check-arm64 check-ct; do pkgs_for $g; done ;;
	*) echo "deps.sh: unknown goal '$1'" >&2; return 2 ;;
	esac
}

list=0
[ "${1:-}" = --list ] && { list=1; shift; }
[ $# -eq 0 ] && set -- build
want=""
for g in "$@"; do
	p=$(pkgs_for "$g") || exit 2
	for x in $p; do
		case " $want " in *" $x "*) ;; *) want="$want $x" ;; esac
	done
done
if [ $list -eq 1 ]; then
	echo $want
	exit 0
fi
goals=$(echo "$*" | sed 's/ /, make /g')

if ! command -v dpkg-query >/dev/null 2>&1; then
	# Not Debian: check the libraries with pkg-config only.
	pkg-config --exists libcrypto libgcrypt nettle 2>/dev/null && exit 0
	echo "cryptobench: needs a C compiler, make, pkg-config, OpenSSL 3" \
	     "(libcrypto), libgcrypt and Nettle development files" >&2
	exit 1
fi

need=""
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $want 2>/dev/null |
            sed -n 's/ install ok installed$//p')
for x in $want; do
	case " $(echo $installed) " in *" $x "*) ;; *) need="$need $x" ;; esac
done
[ -z "$need" ] && exit 0
n=$(echo $need | wc -w)
cmd="apt-get install -y --no-install-recommends$need"

if [ "$(id -u)" != 0 ]; then
	echo "cryptobench: make $goals needs $n Debian package(s) not installed here:$need" >&2
	if command -v sudo >/dev/null 2>&1; then
		echo "  run:  sudo apt-get update && sudo $cmd" >&2
	else
		echo "  run as root:  apt-get update && $cmd" >&2
	fi
	exit 1
fi

mkdir -p "$(dirname "$LOG")"
: >"$LOG"
echo "cryptobench: make $goals needs $n Debian package(s):$need" >&2
step() {   # step TEXT CMD...: one line; the command's output goes to the log
	what=$1; shift
	printf 'cryptobench:   %s ... ' "$what" >&2
	echo "# $*" >>"$LOG"
	if DEBIAN_FRONTEND=noninteractive "$@" >>"$LOG" 2>&1; then
		echo "done" >&2
	else
		echo "failed; the last lines of $LOG:" >&2
		tail -n 15 "$LOG" | sed 's/^/    /' >&2
		exit 1
	fi
}
step "apt-get update (log: $LOG)" apt-get update
# shellcheck disable=SC2086
step "apt-get install --no-install-recommends ($n packages)" \
	apt-get install -y --no-install-recommends $need
exit 0
