#!/bin/sh
# build_deb.sh - the Debian package of a staged install (make deb,
# install/deb/build.mk).
#
# usage: install/deb/build_deb.sh STAGE VERSION OUT.deb
#
# STAGE/debian/reshape-conform holds `make install PREFIX=/usr` (DESTDIR).
# Gzips the manual page, writes DEBIAN/control with Depends from
# dpkg-shlibdeps over every ELF file of the package plus DEB_PY_DEPENDS (the
# environment's), and builds OUT.deb with dpkg-deb, files owned by root.
# Prints the package's path and its Depends.

set -eu
die() { echo "build_deb.sh: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: install/deb/build_deb.sh STAGE VERSION OUT.deb"
stage=$(cd "$1" && pwd) || die "no folder $1"
version=$2
out=$3
pkg=$stage/debian/reshape-conform
[ -x "$pkg/usr/bin/reshape-conform" ] || die "no $pkg/usr/bin/reshape-conform: run make install first"
: "${DEB_MAINTAINER:?}" "${DEB_PY_DEPENDS:?}"

man=$pkg/usr/share/man/man1/reshape-conform.1
[ -f "$man" ] && gzip -9n "$man"

# every ELF file of the package, relative to STAGE (dpkg-shlibdeps runs there
# and wants debian/control to exist; it reads nothing from it here)
elves=$(cd "$stage" && find debian/reshape-conform -type f | sort | while read -r f; do
    if [ "$(head -c 4 "$f" | tail -c 3)" = ELF ]; then echo "$f"; fi; done)
[ -n "$elves" ] || die "no ELF file in $pkg"
: >"$stage/debian/control"
# shellcheck disable=SC2086  # one word per file, none has spaces
shlibs=$(cd "$stage" && dpkg-shlibdeps -O $elves 2>"$stage/shlibdeps.log") ||
    { cat "$stage/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
shlibs=${shlibs#shlibs:Depends=}
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no library"

mkdir -p "$pkg/DEBIAN"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: reshape-conform
Version: $version
Architecture: $(dpkg --print-architecture)
Maintainer: $DEB_MAINTAINER
Installed-Size: $(du -sk "$pkg" | cut -f1)
Depends: $shlibs, $DEB_PY_DEPENDS
Section: devel
Priority: optional
Description: conformance harness for the tensor Reshape operator
 reshape-conform runs the Reshape conformance suite (OpenVINO Reshape-1,
 oneDNN Graph StaticReshape/DynamicReshape, ONNX Reshape-14) against a
 candidate kernel library, each request in a sandboxed worker, and writes
 JSON, JUnit, Markdown and HTML reports.  Includes the suite's cases, the
 reference candidate, the candidate ABI header and the adapter kit.
CONTROL
mkdir -p "$(dirname "$out")"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$out" >/dev/null
echo "deb: $out"
echo "deb: Depends: $shlibs, $DEB_PY_DEPENDS"
