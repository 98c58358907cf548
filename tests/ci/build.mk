# tests/ci/build.mk - what a CI runner meets: Jenkins' JUnit schema for the
# JUnit tests, the Debian package (make deb) and the CI templates.
#
# JUNIT_XSD is Jenkins' junit-10.xsd (xunit plugin), vendored outside the
# repository; tests/reports (junit.c, junit_known.c) and test-ci-template
# validate the harness's JUnit against it with xmllint.
# A clone alone has no such file: those tests then skip (Criterion's skip,
# with the reason; `--verbose` lists them), and junit_xsd_note says so once.
JUNIT_XSD ?= ../shared/vendor/junit-10.xsd
junit_xsd_note = [ -r "$(JUNIT_XSD)" ] || echo "$@: JUNIT_XSD='$(JUNIT_XSD)' names no readable \
	file: the tests that validate against Jenkins' junit-10.xsd are skipped (make JUNIT_XSD=PATH runs them)"

DEB_PACKAGES += libxml2-utils

# make test-deb: builds the package into a temporary folder (make deb with
# DEB_STAGE and DEB_FILE there) and checks it with tests/ci/deb.sh: its
# fields, that Depends are exactly the runtime dependencies, its contents,
# and a 5-case run of the unpacked tool (dpkg -x).
TEST_RUNS += test-deb
.PHONY: test-deb

test-deb: $(BUILD)/reshape-conform $(BUILD)/libreshape_ref.so $(BUILD)/broken/special_zero_ignored.so
	@d=$$(mktemp -d "$${TMPDIR:-/tmp}/test-deb-XXXXXX") && trap 'rm -rf "$$d"' EXIT && \
	  $(MAKE) --no-print-directory -s deb DEB_STAGE="$$d/stage" DEB_FILE="$$d/reshape-conform.deb" \
	    >"$$d/deb.log" 2>&1 || { cat "$$d/deb.log" >&2; exit 1; }; \
	  sh tests/ci/deb.sh "$$d/reshape-conform.deb" $(DEB_VERSION) "$$d"

# make test-ci-template: ci/run-template.sh (the CI templates' steps) end
# to end on broken candidates with a baseline, a regression, a fix and
# expectations, two shards and a merge each, every JUnit validated against
# JUNIT_XSD; and each step line of the script is in both templates
# (tests/ci/template.sh).  A few seconds: 5 cases, 2 variants.
TEST_RUNS += test-ci-template
.PHONY: test-ci-template

CI_TEMPLATE_CANDIDATES := $(BUILD)/broken/base.so $(BUILD)/broken/special_zero_ignored.so \
                          $(BUILD)/broken/copies_one_long.so

test-ci-template: $(BUILD)/reshape-conform $(CI_TEMPLATE_CANDIDATES)
	@d=$$(mktemp -d "$${TMPDIR:-/tmp}/test-ci-template-XXXXXX") && trap 'rm -rf "$$d"' EXIT && \
	  sh tests/ci/template.sh $(JUNIT_XSD) "$$d"
