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

# make test-gitlab: the GitLab template run by a GitLab runner,
# gitlab-ci-local's shell executor, on a candidate's project made in a
# temporary folder: two shards and the merge on broken candidates with and
# without a baseline; it checks the runner's own job results, logs and
# artifacts (tests/ci/gitlab.sh says which).  gitlab-ci-local is npm's,
# pinned (4.65.0 runs on Node 20; later ones need a newer Node), and
# needs rsync (Debian's).  It is installed once into NPM_CACHE, outside
# the clone, and reused by later runs; where the npm registry does not
# answer, the test is skipped with one line (1.7 s).  Part of make test:
# 19.3 s on a loaded 2-core machine with the package installed, 44.1 s the
# first time (npm's install 10 s, and the tool relinked).
TEST_RUNS += test-gitlab
DEB_PACKAGES += rsync
.PHONY: test-gitlab

NPM_CACHE ?= /var/cache/reshape-conformance/npm
GITLAB_CI_LOCAL_VERSION := 4.65.0
# $(call npm_dir,NAME,VERSION): the folder NAME@VERSION is installed into;
# $(call npm_install,NAME,VERSION): installs it there, with the
# dependencies it names, unless it is there already.  A folder is used
# only once complete: npm installs into DIR.tmp, a stamp is written, and
# DIR.tmp becomes DIR.
npm_dir = $(NPM_CACHE)/$(1)-$(2)
npm_install = d='$(call npm_dir,$(1),$(2))'; [ -f "$$d/.installed" ] || { \
	  echo "$@: npm install $(1)@$(2) into $$d"; \
	  mkdir -p '$(NPM_CACHE)' && rm -rf "$$d.tmp" && \
	  npm install --prefix "$$d.tmp" --no-audit --no-fund --no-save --loglevel=error \
	    --fetch-timeout=30000 --fetch-retries=1 '$(1)@$(2)' && \
	  echo '$(1)@$(2)' >"$$d.tmp/.installed" && rm -rf "$$d" && mv "$$d.tmp" "$$d"; }
GITLAB_CI_LOCAL := $(call npm_dir,gitlab-ci-local,$(GITLAB_CI_LOCAL_VERSION))/node_modules/.bin/gitlab-ci-local

test-gitlab: $(BUILD)/reshape-conform $(CI_TEMPLATE_CANDIDATES)
	@command -v rsync >/dev/null || { $(call adapter_apt,rsync); }
	@command -v npm >/dev/null || { $(call adapter_apt,npm); } || true
	@if ! command -v npm >/dev/null; then \
	  echo "test-gitlab: skipped: no npm, and Debian's npm could not be installed"; \
	elif [ ! -f '$(call npm_dir,gitlab-ci-local,$(GITLAB_CI_LOCAL_VERSION))/.installed' ] && \
	    ! timeout 60 npm ping --fetch-timeout=20000 --fetch-retries=0 >/dev/null 2>&1; then \
	  echo "test-gitlab: skipped: the npm registry does not answer (npm ping), so gitlab-ci-local@$(GITLAB_CI_LOCAL_VERSION) cannot be installed"; \
	else $(call npm_install,gitlab-ci-local,$(GITLAB_CI_LOCAL_VERSION)) && \
	  d=$$(mktemp -d "$${TMPDIR:-/tmp}/test-gitlab-XXXXXX") && trap 'rm -rf "$$d"' EXIT && \
	  sh tests/ci/gitlab.sh $(GITLAB_CI_LOCAL) "$$d"; fi
