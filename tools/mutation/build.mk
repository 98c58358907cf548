# tools/mutation/build.mk - the suite's mutation score over reference/.
#
#   mutation       every mutant of reference/*.c judged by the harness over
#                  the whole suite, two at a time, for at most
#                  MUTATION_SECONDS; writes MUTATION.md (not part of `test`)
#   test-mutation  tools/mutation/selftest.py: the driver on a fixture and
#                  on one mutant that must be killed and one that must survive

MUTATION_SECONDS ?= 3600
DEB_PACKAGES += python3-clang python3-yaml coreutils
TEST_RUNS += test-mutation
.PHONY: mutation test-mutation

mutation: deps
	@$(MAKE) --no-print-directory all
	@MUTATION_SECONDS=$(MUTATION_SECONDS) $(PYTHON) -B tools/mutation/run.py

test-mutation: $(BUILD)/reshape-conform $(REFERENCE_OBJS)
	@$(PYTHON) -B tools/mutation/selftest.py
