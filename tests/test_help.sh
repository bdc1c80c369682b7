#!/bin/sh
# Help and the manual: `cryptobench --help`, `-h`, `help`, `help CMD`,
# `CMD --help` and `CMD -h` for every command exit 0; every option in every
# command's option table (`help --options CMD`) appears in that command's
# help and in its section of docs/cryptobench.1; the page names every exit
# code and environment variable the sources read; groff renders it without
# warnings (skipped with a reason when groff is missing); `make install`
# into a DESTDIR installs the binary and the page where man finds it; --help
# names the page by its path in a build tree.
. tests/lib.sh
MAN=docs/cryptobench.1

expect_exit 0 "--help" "$CB" --help
cmds=$(printf '%s\n' "$out" | sed -nE 's/^  ([a-z]+) +[a-z(].*/\1/p')
check "--help lists the commands" [ "$(echo $cmds | wc -w)" -ge 7 ]
check "commands sorted" [ "$cmds" = "$(printf '%s\n' "$cmds" | LC_ALL=C sort)" ]
expect_exit 0 "-h" "$CB" -h
expect_exit 0 "help" "$CB" help
check "help names help CMD" contains "$out" "help [COMMAND]"
expect_exit 2 "help of an unknown command" "$CB" help nosuch
check "unknown command named" contains "$err" "nosuch"
expect_exit 2 "no command" "$CB"

# The manual's text with \- as -, one section per command.
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$MAN" >"$T/man.txt"
section() {   # the lines of the manual between ".SS cryptobench CMD" and the next .SS/.SH
	awk -v c="$1" '
		/^\.S[SH] / { on = index($0, "\"cryptobench " c) == 5 ||
		              index($0, "\"cryptobench " c " ") == 5 ||
		              $0 == ".SS \"cryptobench " c "\""; next }
		on' "$T/man.txt"
}
word() {      # word TEXT WORD: WORD appears as a whole option word in TEXT
	printf '%s\n' "$1" | grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)"
}

for c in $cmds; do
	expect_exit 0 "help $c" "$CB" help "$c"
	help=$out
	check "help $c: usage line" contains "$help" "usage: cryptobench $c"
	expect_exit 0 "$c --help" "$CB" "$c" --help
	check "$c --help is help $c" [ "$out" = "$help" ]
	expect_exit 0 "$c -h" "$CB" "$c" -h
	check "$c -h is help $c" [ "$out" = "$help" ]
	expect_exit 0 "help --options $c" "$CB" help --options "$c"
	opts=$out
	sect=$(section "$c")
	check "manual has a section for $c" [ -n "$sect" ]
	for o in $opts; do
		check "$c $o in its --help" word "$help" "$o"
		check "$c $o in the manual's $c section" word "$sect" "$o"
	done
done
check "speed has options" [ -n "$("$CB" help --options speed)" ]

# A value that looks like help is a value, not a request for help.
expect_exit 2 "speed --alg --help is an alg" "$CB" speed --alg --help
check "named as an unknown alg" contains "$err" "unknown algorithm '--help'"

# Exit codes and environment variables.
for code in 0 1 2 77; do
	check "manual: exit $code" grep -q "^\.B $code\$" "$MAN"
done
for v in $(grep -ohE 'getenv\("[A-Z_]+"\)' src/*/*.c backends/*.c backends/*/*.c |
           sed -E 's/getenv\("(.*)"\)/\1/' | sort -u); do
	check "manual: environment $v" grep -qE "^\.BR? $v( |\$)" "$MAN"
done
check "manual: FILES" grep -q '^\.SH FILES' "$MAN"

if command -v groff >/dev/null 2>&1; then
	LC_ALL=C groff -man -ww -z "$MAN" >"$T/groff" 2>&1
	check "groff renders the page without warnings" [ ! -s "$T/groff" ]
	sed 's/^/    /' "$T/groff" | head -5
else
	echo "skip: groff not installed (apt-get install groff-base): page not rendered"
fi

# make install into a DESTDIR, PREFIX=/opt/cb: the binary in PREFIX/bin,
# the page in PREFIX/share/man/man1, where man finds it from the PATH
# (man-db maps DIR/bin to DIR/share/man).  Its install steps run from
# `make -n install`, so that nothing is rebuilt here.
env -u MAKEFLAGS -u MAKELEVEL -u BUILD make -n --no-print-directory install \
	DESTDIR="$T/dest" PREFIX=/opt/cb >"$T/install" 2>&1
grep -E '^install ' "$T/install" >"$T/install.sh"
check "make install installs the man page" grep -q 'docs/cryptobench.1' "$T/install.sh"
# (each step on its own: a build under BUILD=build/asan has no ./cryptobench
# or build/plugins to install, and the binary's checks are then skipped)
while IFS= read -r step; do sh -c "$step" >/dev/null 2>&1; done <"$T/install.sh"
check "make install: PREFIX/share/man/man1/cryptobench.1" \
	cmp -s "$MAN" "$T/dest/opt/cb/share/man/man1/cryptobench.1"
[ -x ./cryptobench ] &&
	check "make install: PREFIX/bin/cryptobench" [ -x "$T/dest/opt/cb/bin/cryptobench" ]
if command -v man >/dev/null 2>&1; then
	found=$(env -u MANPATH PATH="$T/dest/opt/cb/bin:$PATH" man -w cryptobench 2>&1)
	check "man finds the installed page from PREFIX/bin on the PATH ($found)" \
		[ "$found" = "$T/dest/opt/cb/share/man/man1/cryptobench.1" ]
	check "man ./docs/cryptobench.1 reads the build tree's page" \
		sh -c 'MANPAGER=cat man ./docs/cryptobench.1 2>/dev/null | grep -q "^NAME"'
else
	echo "skip: man not installed: the installed page not looked up"
fi
# --help names the page man can open: a build tree's by its path, the
# installed binary's by name
if [ -x "$T/dest/opt/cb/bin/cryptobench" ]; then
	expect_exit 0 "installed --help" "$T/dest/opt/cb/bin/cryptobench" --help
	check "installed --help: man cryptobench" contains "$out" "The manual: man cryptobench."
fi
if [ -f "$(dirname "$CB")/docs/cryptobench.1" ]; then
	expect_exit 0 "build tree --help" "$CB" --help
	page=$(cd "$(dirname "$CB")" && pwd)/docs/cryptobench.1
	[ "$(cd "$(dirname "$CB")" && pwd)" = "$(pwd)" ] && page=./docs/cryptobench.1
	check "build tree --help: man $page" contains "$out" "The manual: man $page (a build tree"
	expect_exit 0 "build tree kat --help" "$CB" kat --help
	check "and in each command's help" contains "$out" "The manual: man $page"
fi
finish
