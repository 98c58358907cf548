#!/bin/sh
# standalone.sh - a clone is the whole project, and it installs like a tool.
#
# usage: tests/standalone/standalone.sh   (from the top of a git checkout;
#                                          `make test-standalone` runs it)
#
# Clones the checkout's HEAD into an empty temporary folder (nothing beside
# the clone), then in the clone:
#   - no tracked file names the folder above the checkout, except a make
#     variable's default in Makefile or a *.mk file;
#   - `make run` builds, runs the harness on the reference (exit 0), writes
#     the four reports and leaves `git status --porcelain` empty;
#   - `reshape-conform --help` and `help` list every command of the dispatch
#     table in harness/cli/main.c;
#   - the manual page names every command, every option of every command's
#     --help, every verdict of reports/SCHEMA.md and every exit status;
#   - `make install DESTDIR=... PREFIX=...`, then the installed tool, run
#     from another folder with no option, finds its cases, its renderer and
#     the reference, and exits 0 with the four reports written;
#   - `pkg-config --cflags reshape-candidate` compiles a kernel source
#     against the installed header, and names the staged copy's folder
#     (the .pc is relocatable; tests/install/installed.sh goes further);
#   - `make uninstall` removes every installed file.
# Uncommitted changes are not in the clone: it tests what HEAD holds.
# Prints one line per failed check and "test-standalone: N passed, M failed";
# exits 1 when a check failed.

set -u
src=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/standalone-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "test-standalone: $*" >&2; }
check() { # check WHAT COMMAND...: runs COMMAND, output in $tmp/log
    what=$1; shift
    if "$@" >"$tmp/log" 2>&1; then ok; else tail -20 "$tmp/log" >&2; fail "$what"; fi
}
# the clone's make is its own, not a part of the make that runs this test
unset MAKEFLAGS MFLAGS MAKELEVEL

head=$(git -C "$src" rev-parse HEAD) || { fail "not a git checkout: $src"; exit 1; }
git clone -q --no-checkout "$src" "$tmp/clone" && git -C "$tmp/clone" checkout -q "$head" \
    || { fail "cannot clone $src at $head"; exit 1; }
cd "$tmp/clone" || exit 1

# The folder above: written with a bracket so that this file does not match.
outside=$(git grep -l -e '[.][.]/shared' -- ':!Makefile' ':!*.mk')
if [ -z "$outside" ]; then ok; else fail "tracked files name the folder above: $outside"; fi

check "make run failed in a fresh clone" make run
for f in report.json report.xml report.md report.html; do
    if [ -s "reports/reference/$f" ]; then ok; else fail "make run wrote no reports/reference/$f"; fi
done
dirty=$(git status --porcelain)
if [ -z "$dirty" ]; then ok; else fail "make run left the tree modified: $dirty"; fi

# --help and help: every command of the dispatch table
commands=$(sed -n 's/^ *{"\([a-z]*\)", cmd_[a-z_]*,.*/\1/p' harness/cli/main.c)
[ -n "$commands" ] || fail "no command found in the table of harness/cli/main.c"
build/reshape-conform --help >"$tmp/help" 2>&1 || fail "--help exited $?"
build/reshape-conform help >"$tmp/help2" 2>&1 || fail "help exited $?"
cmp -s "$tmp/help" "$tmp/help2" || fail "help and --help differ"
for c in $commands; do
    if grep -q "^  $c " "$tmp/help"; then ok; else fail "--help does not list '$c'"; fi
done

# The manual page against what the tool says of itself
man=install/reshape-conform.1
manwords=$(sed 's/\\-/-/g' "$man")
for c in $commands; do
    build/reshape-conform "$c" --help >>"$tmp/usages" 2>&1
    if printf '%s\n' "$manwords" | grep -q "^\.B $c\$"; then ok; else fail "$man: no command '$c'"; fi
done
for o in $(grep -o -e '--[a-z][a-z-]*' "$tmp/usages" | sort -u); do
    if printf '%s\n' "$manwords" | grep -q -e "$o"; then ok; else fail "$man: no option '$o'"; fi
done
for v in $(sed -n 's/^| `\([A-Z_]*\)` |.*/\1/p' reports/SCHEMA.md); do
    if printf '%s\n' "$manwords" | grep -q "^\.B $v\$"; then ok; else fail "$man: no verdict '$v'"; fi
done
for s in 0 1 2 3; do
    if printf '%s\n' "$manwords" | sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' | grep -q "^\.B $s\$"; then
        ok; else fail "$man: no exit status $s"; fi
done

# make install into a staging folder, then the tool from elsewhere
stage="$tmp/stage"
prefix=/opt/reshape
check "make install failed" make install DESTDIR="$stage" PREFIX="$prefix"
# the zygotes' program, found from bin/ as ../libexec/reshape-conform/
if [ -x "$stage$prefix/libexec/reshape-conform/reshape-conform-worker" ]; then ok; else
    fail "make install wrote no libexec/reshape-conform/reshape-conform-worker"; fi
mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere" || exit 1
mv "$tmp/clone" "$tmp/moved"  # the installed tool may not use the source tree
check "the installed tool failed on the reference" \
    "$stage$prefix/bin/reshape-conform" --quiet --report-dir out
for f in report.json report.xml report.md report.html; do
    if [ -s "out/$f" ]; then ok; else fail "the installed tool wrote no out/$f"; fi
done
if grep -q "\"path\": \"$stage$prefix/lib/libreshape_ref.so\"" out/report.json; then ok; else
    fail "the installed tool did not run the installed reference"; fi
if grep -q "$stage$prefix/share/reshape-conform/cases/" out/report.json; then ok; else
    fail "the installed tool did not run the installed cases"; fi

# pkg-config for a kernel build
printf '#include <reshape_candidate.h>\n_Static_assert(RESHAPE_ABI_VERSION == 1, "abi");\n' \
    >kernel.c
cflags=$(PKG_CONFIG_PATH="$stage$prefix/lib/pkgconfig" pkg-config --define-prefix \
         --cflags reshape-candidate)
case $cflags in
*"-I$stage$prefix/include"*) ok ;;
*) fail "pkg-config --cflags reshape-candidate gave '$cflags'" ;;
esac
# shellcheck disable=SC2086
check "a kernel source did not compile with the pkg-config flags" \
    gcc -std=c11 -Wall -Werror $cflags -c kernel.c -o kernel.o
# relocatable: the .pc names its prefix from its own folder, whatever pkg-config defines
plain=$(PKG_CONFIG_PATH="$stage$prefix/lib/pkgconfig" pkg-config --dont-define-prefix \
        --cflags reshape-candidate)
plain=$(echo $plain)  # pkg-config ends its flags with a blank
if [ "$plain" = "-I$stage$prefix/lib/pkgconfig/../../include" ]; then ok; else
    fail "the .pc names '$plain', not its own folder's prefix"; fi

check "make uninstall failed" make -C "$tmp/moved" uninstall DESTDIR="$stage" PREFIX="$prefix"
left=$(find "$stage" -type f)
if [ -z "$left" ]; then ok; else fail "make uninstall left: $left"; fi

echo "test-standalone: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
