#!/bin/sh
# deps.sh build|check|bench - make sure the Debian packages cryptobench needs
# are present.  As root on Debian it installs what is missing with apt-get;
# otherwise it prints the exact command to run and fails.
set -u
what=${1:-build}
need=""
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
add() { for p in "$@"; do have_pkg "$p" || need="$need $p"; done; }

if ! command -v dpkg-query >/dev/null 2>&1; then
	# Not Debian: check with pkg-config only.
	pkg-config --exists libcrypto libgcrypt nettle && exit 0
	echo "cryptobench: needs pkg-config, OpenSSL 3 (libcrypto), libgcrypt and Nettle development files" >&2
	exit 1
fi
add gcc make pkg-config libssl-dev libgcrypt20-dev nettle-dev
case $what in
check) add openssl python3 python3-cryptography gnuplot-nox ;;
bench) add openssl hyperfine gnuplot-nox ;;
esac
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "cryptobench: installing:$need" >&2
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need; } >&2 || {
		echo "cryptobench: apt-get install failed" >&2; exit 1; }
	exit 0
fi
echo "cryptobench: missing Debian packages:$need" >&2
echo "run:  sudo apt-get install -y$need" >&2
exit 1
