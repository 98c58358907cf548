#!/bin/sh
# deb.sh - the Debian package of `make deb` as a CI runner meets it.
#
# usage: tests/ci/deb.sh PACKAGE.deb VERSION TMP   (make test-deb, from the
#        top of the source tree, after `make deb DEB_FILE=PACKAGE.deb`)
#
#   - dpkg-deb -I: Package reshape-conform, the VERSION given, this machine's
#     Architecture;
#   - Depends names exactly the packages the installed files need at run
#     time: the package of every library an ELF file of it links (NEEDED,
#     objdump -p, resolved by ldconfig and dpkg -S; its own files aside),
#     python3, and the package of every module reports/*.py imports beyond
#     the standard library and the renderer's own files; no other (no gcc,
#     no -dev, no criterion, no chromium);
#   - dpkg-deb -c: the tool, its worker, the reference, the renderer, the
#     cases and the manual page, all below ./usr;
#   - unpacked with dpkg -x into TMP/root, its reshape-conform run --help names
#     its own share folder, and a 5-case run of its own cases exits 0 on the
#     installed reference and 1 on a broken candidate, its JUnit naming the
#     case file cases/openvino_reshape_1.yaml, not the unpacked path.
# Prints one line per failed check and "test-deb: N passed, M failed";
# exits 1 when a check failed.

set -u
[ $# -eq 3 ] || { echo "usage: tests/ci/deb.sh PACKAGE.deb VERSION TMP" >&2; exit 2; }
deb=$1
version=$2
tmp=$3
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "test-deb: $*" >&2; }
expect() { # expect WHAT TEST...
    what=$1; shift
    if "$@"; then ok; else fail "$what"; fi
}

field() { dpkg-deb -f "$deb" "$1"; }
expect "Package is $(field Package), not reshape-conform" [ "$(field Package)" = reshape-conform ]
expect "Version is $(field Version), not $version" [ "$(field Version)" = "$version" ]
arch=$(dpkg --print-architecture)
expect "Architecture is $(field Architecture), not $arch" [ "$(field Architecture)" = "$arch" ]

# Depends as sorted names, versions and alternatives' bars dropped
field Depends | tr ',' '\n' | sed -e 's/(.*)//' -e 's/^ *//' -e 's/ *$//' | sort -u \
    >"$tmp/depends"

root=$tmp/root
dpkg -x "$deb" "$root" || { fail "dpkg -x $deb failed"; exit 1; }

# The packages the files need: the libraries of every ELF file, the Python
# modules of the renderer.
package_of() { # the package owning PATH, else nothing
    dpkg -S "$1" 2>/dev/null | head -n 1 | cut -d: -f1
}
{
    find "$root" -type f | while read -r f; do
        [ "$(head -c 4 "$f" | tail -c 3)" = ELF ] || continue
        objdump -p "$f" | awk '$1 == "NEEDED" { print $2 }'
    done | sort -u | while read -r soname; do
        [ -e "$root/usr/lib/$soname" ] && continue     # its own
        path=$(ldconfig -p | awk -v s="$soname" '$1 == s { print $NF; exit }')
        p=$(package_of "$path")
        [ -n "$p" ] || p=$(package_of "$(readlink -f "$path")")
        echo "${p:-UNKNOWN-$soname}"
    done
    echo python3
    # the top-level modules reports/*.py imports, less the standard library
    # and its own files
    sed -n -e 's/^ *import \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
        -e 's/^ *from \([A-Za-z_][A-Za-z0-9_]*\)[A-Za-z0-9_.]* import .*/\1/p' \
        "$root"/usr/share/reshape-conform/reports/*.py | sort -u | while read -r m; do
        [ -f "$root/usr/share/reshape-conform/reports/$m.py" ] && continue
        file=$(/usr/bin/python3 -c "import sys
if '$m' in sys.stdlib_module_names: sys.exit(0)
import $m; print($m.__file__)") || { echo "UNKNOWN-python-$m"; continue; }
        [ -n "$file" ] || continue
        p=$(package_of "$file")
        echo "${p:-UNKNOWN-python-$m}"
    done
} | sort -u >"$tmp/needed"
if cmp -s "$tmp/depends" "$tmp/needed"; then ok; else
    fail "Depends is not exactly what the files need (< Depends, > needed): $(diff "$tmp/depends" "$tmp/needed" | grep '^[<>]' | tr '\n' ' ')"
fi
for p in gcc make libcriterion3 libcriterion-dev chromium; do
    expect "Depends names $p, a build or test tool" sh -c "! grep -qx '$p' '$tmp/depends'"
done

dpkg-deb -c "$deb" | awk '{ print $6 }' >"$tmp/contents"
for f in ./usr/bin/reshape-conform ./usr/libexec/reshape-conform/reshape-conform-worker \
         ./usr/lib/libreshape_ref.so ./usr/share/reshape-conform/reports/render.py \
         ./usr/share/reshape-conform/cases/openvino_reshape_1.yaml \
         ./usr/share/man/man1/reshape-conform.1.gz ./usr/include/reshape_candidate.h; do
    expect "the package lacks $f" grep -qx "$f" "$tmp/contents"
done
expect "the package has files outside ./usr" sh -c "! grep -v -e '^\./\$' -e '^\./usr/' '$tmp/contents'"

# the unpacked tool runs where it lies
tool=$root/usr/bin/reshape-conform
if "$tool" run --help >"$tmp/help" 2>&1; then ok; else fail "reshape-conform run --help failed: $(head -3 "$tmp/help")"; fi
expect "run --help does not name the unpacked share folder" grep -q "$root/usr/share/reshape-conform" "$tmp/help"
run() { # run CANDIDATE NAME: a 5-case run of the unpacked tool on its own cases, in TMP
    (cd "$tmp" && "$tool" ${1:+--candidate "$1"} --filter 'openvino_example_*' \
        --variants dense --quiet --json "$2.json" --junit "$2.xml" >"$2.out" 2>&1)
}
run "" reference; rc=$?
expect "the installed reference exited $rc, not 0: $(tail -2 "$tmp/reference.out")" [ $rc -eq 0 ]
run "$(pwd)/build/broken/special_zero_ignored.so" broken; rc=$?
expect "special_zero_ignored exited $rc, not 1: $(tail -2 "$tmp/broken.out")" [ $rc -eq 1 ]
expect "the JUnit does not name cases/openvino_reshape_1.yaml" \
    grep -q 'name="case_file.1" value="cases/openvino_reshape_1.yaml"' "$tmp/broken.xml"
expect "the JUnit names the unpacked tree" sh -c "! grep -q '$root' '$tmp/broken.xml'"
expect "the run had not 5 cases" grep -q 'tests="5"' "$tmp/broken.xml"

echo "test-deb: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
