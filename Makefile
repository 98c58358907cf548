# Makefile - builds, tests and runs reshape-conformance.
#
# This file holds what every part shares: flags, the two object trees (plain
# and sanitized), the Debian package check and the user-facing targets.  Each
# part keeps its own rules beside it in a build.mk, found by pattern below,
# and adds to these lists:
#   ALL_TARGETS   what `make` builds
#   TEST_RUNS     phony targets `make test` runs, after ALL_TARGETS, several
#                 at a time: each must run beside any other (its own
#                 temporary folders, nothing written into the tree)
#   DEB_PACKAGES  Debian packages the part needs at build or test time
#
# User-facing targets: all, run, test, test-quick, generate, bench, candidates,
# install, uninstall, deb, scoreboard, repro, deps, clean.  README.md and
# docs/testing.md explain them.

# No built-in implicit rules: every rule is written in these files, and make
# spent 0.35 CPU-s of each start trying them on the 749 dependency files it
# includes (0.44 -> 0.10 s a start; make test starts 38 makes, counted
# through a logging `make` ahead in PATH).
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

BUILD   := build
PYTHON  := /usr/bin/python3
CC      := gcc
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN    := -Wall -Wextra -Werror
CFLAGS  := $(CSTD) $(WARN) -O2 -g -fPIC -Iinclude
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_CFLAGS := $(CSTD) $(WARN) -O1 -g -fPIC -Iinclude $(SAN)
DEPFLAGS = -MMD -MP
# -jN for the sub-make of `make run`: every core, unless make was given -j.
RUN_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))

# Linked into every sanitized Criterion binary: LeakSanitizer stays on in the
# test children and is off in Criterion's own runner (tests/common/runner_lsan.c);
# ASan's strstr check is off in them (tests/common/asan_options.c says why).
SAN_TEST_RUNNER := $(BUILD)/san/obj/tests/common/runner_lsan.o \
                   $(BUILD)/san/obj/tests/common/asan_options.o

# $(call san_run,COMMAND): runs a sanitized test binary, its output kept in
# build/<target>.log, and fails when a sanitizer reported in any of its
# processes.  Criterion ignores the exit status of a test's child once the
# test has reported, so a leak found as a child exits would only be printed.
san_run = log=$(BUILD)/$@.log; $(1) >$$log 2>&1; rc=$$?; cat $$log; \
	if grep -q -E 'ERROR: (Leak|Address)Sanitizer|runtime error:' $$log; then \
	  echo "$@: a sanitizer reported in $$log" >&2; exit 1; fi; exit $$rc

ALL_TARGETS  :=
TEST_RUNS    :=
DEB_PACKAGES := gcc make libc6-dev python3 python3-yaml libyaml-dev libjansson-dev \
                libcriterion-dev libssl-dev time

# make test: the build and then the TEST_RUNS targets, TEST_JOBS at a time
# (default: one more than the cores: several targets spend seconds asleep,
# on timeouts, hangs and late threads, and a third target keeps both cores
# of a 2-core machine busy meanwhile: 198.8 s there with 2 at a time, 177.3
# s with 3), each Criterion binary as many tests at a time (CRITERION_JOBS,
# unless set: 183.3 s with its default of one a core, 172.5 s), each one's
# output printed whole when it ends, then the wall and CPU time of each
# (tests/test_times.sh, from TEST_TIMES).  Targets start slowest first, by
# the times of the last run.
TEST_JOBS  ?= $(shell echo $$(($$(nproc) + 1)))
TEST_TIMES := $(BUILD)/test-times
# $(TEST_TIMES)/run: "WALL JOBS CORES UTC COMMIT COMMAND STATUS" of the
# run, kept with the times in $(TEST_TIMES).last for `make bench`.
TEST_COMMAND = $(if $(TESTS_WITH_SAN),make-test,make-test-run)

.PHONY: all run test test-quick test-build test-run generate bench candidates scoreboard deps \
        clean
all:

# Plain objects: build/obj/<source path>.o; sanitized: build/san/obj/...
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/san/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $(DEPFLAGS) -c $< -o $@

# Parts, found by pattern: reference/build.mk, harness/build.mk, tests/build.mk,
# candidates/*/build.mk, ...
include $(sort $(wildcard */build.mk */*/build.mk))

all: $(ALL_TARGETS)

# Install the Debian packages that are missing (needs root on a fresh
# machine); a no-op when everything is there.  Waits up to 10 minutes for
# another apt or dpkg to finish rather than failing at once.
deps:
	@missing=""; for p in $(sort $(DEB_PACKAGES)); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' \
	    || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $$missing \
	    || { echo "deps: could not install$$missing" >&2; exit 1; }; \
	fi

# The user-facing commands install first, then build in a second make so that
# nothing is compiled before its packages exist.  make test sets
# TESTS_WITH_SAN: a plain target whose sanitized twin runs its tests against
# a sanitized build of the same code may leave those tests to it
# (tests/harness/build.mk says which).
test: deps
	@$(MAKE) --no-print-directory test-build
	@$(MAKE) --no-print-directory test-run TESTS_WITH_SAN=1

# make test-quick: for the edit loop, every test target but the sanitized
# reruns (TEST_RUNS ending in -san), which make test adds; the same table.
test-quick: deps
	@$(MAKE) --no-print-directory test-build
	@$(MAKE) --no-print-directory test-run TEST_RUNS="$(filter-out %-san,$(TEST_RUNS))" \
	  TEST_COMMAND=make-test-quick

# The build before the tests, on every core, its time kept for the table.
test-build:
	@rm -rf $(TEST_TIMES) && mkdir -p $(TEST_TIMES)
	@/usr/bin/time -f "%e %U %S" -o $(TEST_TIMES)/build.time \
	  $(MAKE) --no-print-directory -j$(TEST_JOBS) all

test-run:
	@mkdir -p $(TEST_TIMES)
	@order=$$(for t in $(TEST_RUNS); do f=$(TEST_TIMES).last/$$t.time; \
	  echo "$$( [ -f $$f ] && tail -n 1 $$f | cut -d' ' -f1 || echo 1e9) $$t"; done \
	  | sort -g -r | cut -d' ' -f2 | sed 's/^/timed-/'); \
	echo "test-run: $(words $(TEST_RUNS)) targets, $(TEST_JOBS) at a time, each one's output when it ends"; \
	start=$$(date +%s.%N); \
	CRITERION_JOBS=$${CRITERION_JOBS:-$(TEST_JOBS)} \
	  $(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target $$order; rc=$$?; \
	wall=$$(awk "BEGIN { print $$(date +%s.%N) - $$start }"); \
	echo "$$wall $(TEST_JOBS) $$(nproc) $$(date -u +%Y-%m-%dT%H:%M:%SZ) $(SUITE_COMMIT) $(TEST_COMMAND) $$rc" \
	  >$(TEST_TIMES)/run; \
	sh tests/test_times.sh $(TEST_TIMES) $$wall $(TEST_JOBS); \
	rm -rf $(TEST_TIMES).last && cp -r $(TEST_TIMES) $(TEST_TIMES).last; exit $$rc

# timed-TARGET: make TARGET, its wall and CPU time into TEST_TIMES.
timed-%:
	@/usr/bin/time -f "%e %U %S" -o $(TEST_TIMES)/$*.time $(MAKE) --no-print-directory $*

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
