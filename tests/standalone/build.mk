# tests/standalone/build.mk - test-standalone: a clone of HEAD into an empty
# folder builds and runs (`make run`, tree left clean), its manual page and
# --help cover the tool, and it installs into a DESTDIR from which the tool
# runs with no source tree (tests/standalone/standalone.sh says what each
# check is).  Needs git and pkg-config (install/build.mk lists them).

TEST_RUNS += test-standalone
.PHONY: test-standalone

test-standalone:
	@sh tests/standalone/standalone.sh
