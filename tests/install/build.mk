# tests/install/build.mk - test-install: `make install` into a staging folder
# (DESTDIR), then the installed tool as a kernel engineer first meets it
# (tests/install/installed.sh says what each check is): the documents it
# names resolve, --help names its own folders, runs report the suite's
# commit, pkg-config gives the staged header, and a small candidate built
# out of the tree with it runs, certifies, verifies, and fails `verify
# --rerun` once a library it links is rebuilt.  Needs pkg-config and cc.

TEST_RUNS += test-install
.PHONY: test-install

test-install: $(BUILD)/reshape-conform $(BUILD)/libreshape_ref.so
	@d=$$(mktemp -d "$${TMPDIR:-/tmp}/test-install-XXXXXX") && trap 'rm -rf "$$d"' EXIT && \
	  $(MAKE) --no-print-directory -s install DESTDIR="$$d/stage" PREFIX=/opt/reshape \
	    >"$$d/install.log" 2>&1 || { cat "$$d/install.log" >&2; exit 1; }; \
	  mkdir "$$d/work" && sh tests/install/installed.sh "$$d/stage" /opt/reshape "$$d/work"
