#!/bin/sh
# installed.sh - a kernel engineer's first hour with the installed tool.
#
# usage: tests/install/installed.sh STAGE PREFIX TMP   (make test-install:
#        `make install DESTDIR=STAGE PREFIX=PREFIX` first, from the top of
#        the source tree)
#
# The staged tree STAGE/PREFIX, with the source tree out of the way (every
# command runs in TMP, and nothing below names the source tree):
#   - every document the installed header, every --help and the manual page
#     name resolves below it (share/reshape-conform/, also through
#     share/doc/reshape-conform); no --help says <srcdir>;
#   - an installed run reports the suite's commit, not "unknown";
#   - `pkg-config --cflags reshape-candidate` on the staged .pc names the
#     staged include folder;
#   - a small candidate built out of the tree with those flags alone, on the
#     installed adapter kit (tests/install/kernel: kernel.c, linking helper.c's
#     libkernel_helper.so.1) runs, is certified into
#     my-kernel-out-of-tree-1.0.tar.gz, and verifies, plain and with --rerun;
#   - the helper rebuilt differently, the same candidate file fails
#     `verify --rerun`, which names libkernel_helper.so.1.
# Prints one line per failed check and "test-install: N passed, M failed";
# exits 1 when a check failed.

set -u
[ $# -eq 3 ] || { echo "usage: tests/install/installed.sh STAGE PREFIX TMP" >&2; exit 2; }
src=$(pwd)
root=$1$2
tmp=$3
share=$root/share/reshape-conform
tool=$root/bin/reshape-conform
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "test-install: $*" >&2; }
check() { # check WHAT COMMAND...: runs COMMAND, output in $tmp/log
    what=$1; shift
    if "$@" >"$tmp/log" 2>&1; then ok; else tail -20 "$tmp/log" >&2; fail "$what"; fi
}
resolves() { # resolves WHERE PATH: PATH exists below the installed share/
    if [ -e "$share/$2" ] && [ -e "$root/share/doc/reshape-conform/$2" ]; then ok; else
        fail "$1 names '$2', which an installed tree lacks"; fi
}
cd "$tmp" || exit 1

# The documents the header names (paths of the source tree; spec texts by name)
refs=$(grep -o -E '[a-z_]+(/[A-Za-z_]+)+\.(md|rst|yaml)' "$root/include/reshape_candidate.h" | sort -u)
[ -n "$refs" ] || fail "no document named in the installed header"
for r in $refs; do resolves "the header" "$r"; done
for r in $(grep -o -E '^ \* +RESHAPE_OP_[A-Z0-9_]+ +[a-z0-9_]+\.(md|rst)' \
           "$root/include/reshape_candidate.h" | awk '{print $NF}'); do
    resolves "the header" "specs/$r"
done

# ... every --help (paths printed in full)
"$tool" --help >"$tmp/help" 2>&1
for c in run list merge certify verify perf fuzz; do "$tool" "$c" --help >>"$tmp/help" 2>&1; done
if grep -q '<srcdir>' "$tmp/help"; then fail "--help still says <srcdir>"; else ok; fi
if grep -q "(default$" "$tmp/help" && grep -q "^ *$share/cases)$" "$tmp/help"; then ok; else
    fail "run --help does not name $share/cases as the default"; fi
for p in $(grep -o -E "$share/[A-Za-z0-9_./-]+\.(md|rst|yaml|py)" "$tmp/help" | sort -u); do
    resolves "--help" "${p#"$share/"}"
done
if grep -q -E '(^|[ (])(reports|cases|reference|harness|docs|bench)(/[A-Za-z_]+)+\.md' "$tmp/help"; then
    fail "--help names a document by a source-tree path"; else ok; fi

# ... and the manual page (PREFIX/share/reshape-conform/...)
man=$root/share/man/man1/reshape-conform.1
for p in $(sed 's/\\-/-/g' "$man" | grep -o -E 'PREFIX/share/reshape-conform/[A-Za-z0-9_./-]+' \
           | sed 's/[.,)]*$//' | sort -u); do
    rel=${p#PREFIX/share/reshape-conform/}
    [ -z "$rel" ] || resolves "the manual page" "$rel"
done
for r in $(sed 's/\\-/-/g' "$man" | grep -o -E '(^|[ (])[a-z_]+(/[A-Za-z_]+)+\.(md|rst|yaml)' \
           | sed 's/^[ (]//' | grep -v '^share/' | sort -u); do
    resolves "the manual page" "$r"
done
for d in FORMAT.md COVERAGE.md; do
    if grep -q "$d" "$man"; then resolves "the manual page" "cases/$d"; fi
done

# An installed run names the suite's commit
check "the installed tool failed on the reference" "$tool" --quiet --json ref.json \
    --cases "$share/cases/openvino_reshape_1.yaml"
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
if grep -q "\"git_commit\": \"$commit\"" ref.json && [ "$commit" != unknown ]; then ok; else
    fail "the installed run reports the suite at $(grep git_commit ref.json), not $commit"; fi

# pkg-config on the staged install
cflags=$(PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --cflags reshape-candidate)
inc=$(echo $cflags | sed -n 's/^-I//p')
if [ -n "$inc" ] && [ "$(cd "$inc" 2>/dev/null && pwd -P)" = "$(cd "$root/include" && pwd -P)" ]
then ok; else fail "pkg-config --cflags reshape-candidate gave '$cflags', not $root/include"; fi

# A candidate built out of the tree with those flags alone
mkdir kernel && cp "$src/tests/install/kernel/kernel.c" "$src/tests/install/kernel/helper.c" kernel/
cd kernel || exit 1
helper() { # helper BUILD: libkernel_helper.so.1, build number BUILD
    cc -shared -fPIC -DHELPER_BUILD="$1" -Wl,-soname,libkernel_helper.so.1 helper.c \
        -o libkernel_helper.so.1
}
check "the helper library did not build" helper 1
# shellcheck disable=SC2086
check "the candidate did not build with the pkg-config flags alone" \
    cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden $cflags kernel.c \
    -o libmykernel.so -L. -l:libkernel_helper.so.1 -Wl,-rpath,"$tmp/kernel"
cases="--cases $share/cases/openvino_reshape_1.yaml --cases $share/cases/openvino_reshape_1_short.yaml"
# shellcheck disable=SC2086
check "the candidate is not conformant on the OpenVINO cases" \
    "$tool" --candidate libmykernel.so $cases --report-dir out --quiet
if grep -q "skipped: layout in_place is not among the candidate's declared layouts" out/report.md
then ok; else fail "report.md does not name the candidate's declared limits"; fi
# shellcheck disable=SC2086
check "certify failed" "$tool" certify --candidate libmykernel.so $cases --out dist --quiet
bundle=dist/my-kernel-out-of-tree-1.0.tar.gz
if [ -f "$bundle" ]; then ok; else fail "no $bundle: $(ls dist)"; fi
# shellcheck disable=SC2086
check "verify refused the bundle" "$tool" verify "$bundle" $cases
# shellcheck disable=SC2086
check "verify --rerun refused the bundle" "$tool" verify "$bundle" $cases --rerun libmykernel.so
if grep -q "every library as the bundle pins it" "$tmp/log"; then ok; else
    fail "the rerun did not compare the libraries"; fi

# The library it links, rebuilt: the same candidate file no longer verifies
check "the helper library did not build again" helper 2
# shellcheck disable=SC2086
"$tool" verify "$bundle" $cases --rerun libmykernel.so >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^problem: rerun-library-mismatch: libkernel_helper.so.1: the bundle " \
       "$tmp/log"; then ok; else
    cat "$tmp/log" >&2; fail "verify --rerun with another libkernel_helper.so.1 exited $rc"; fi

echo "test-install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
