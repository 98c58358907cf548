# install/deb/build.mk - `make deb`: a Debian package of `make install` with
# PREFIX=/usr, for CI runners and containers (docs/ci.md, "Getting the tool
# onto a runner"):
#
#   build/reshape-conform_$(VERSION)-$(DEB_REVISION)_ARCH.deb
#
# Built with dpkg-deb alone (install/deb/build_deb.sh), no debian/ folder in
# the tree.  Its Depends are exactly what the installed files need at run
# time: the packages of the shared libraries its ELF files link
# (dpkg-shlibdeps), and python3 with the modules reports/render.py imports
# (DEB_PY_DEPENDS).  None of the build or test tools (gcc, criterion,
# chromium, the adapters' libraries) is among them.  tests/ci/deb.sh checks
# it (make test-deb).  DEB_STAGE and DEB_FILE may be set elsewhere, as the
# test does.

DEB_REVISION   ?= 1
DEB_ARCH       := $(shell dpkg --print-architecture 2>/dev/null || echo unknown)
DEB_VERSION    := $(VERSION)-$(DEB_REVISION)
DEB_STAGE      ?= $(BUILD)/deb-stage
DEB_FILE       ?= $(BUILD)/reshape-conform_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_MAINTAINER ?= reshape-conformance maintainers <reshape-conformance@localhost>
# the renderer's interpreter and the modules it imports beyond the standard
# library (reports/*.py: jinja2, markupsafe, yaml)
DEB_PY_DEPENDS := python3, python3-jinja2, python3-markupsafe, python3-yaml

DEB_PACKAGES += dpkg-dev binutils
.PHONY: deb

deb: $(BUILD)/reshape-conform $(BUILD)/libreshape_ref.so $(BUILD)/reshape-candidate.pc
	@rm -rf $(DEB_STAGE) && mkdir -p $(DEB_STAGE)/debian
	@$(MAKE) --no-print-directory -s install PREFIX=/usr \
	  DESTDIR=$(abspath $(DEB_STAGE))/debian/reshape-conform >$(DEB_STAGE)/install.log
	@DEB_MAINTAINER='$(DEB_MAINTAINER)' DEB_PY_DEPENDS='$(DEB_PY_DEPENDS)' \
	  sh install/deb/build_deb.sh $(DEB_STAGE) $(DEB_VERSION) $(DEB_FILE)
