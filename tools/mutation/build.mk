# tools/mutation/build.mk - the suite's mutation score over reference/.
#
#   mutation       every mutant of reference/*.c judged by the harness over
#                  the whole suite, two at a time, for at most
#                  MUTATION_SECONDS, each survivor probed; writes
#                  tools/mutation/results.json and MUTATION.md (not part of
#                  `test`).  MUTATION_FLAGS go to run.py: "--resume" keeps
#                  the verdicts of the committed results that no change can
#                  alter, "--jobs 1" on a busy machine
#   test-mutation  tools/mutation/selftest.py: the driver on a fixture and
#                  on one mutant that must be killed and one that must survive;
#                  the equivalence probe on mutants it must and must not
#                  tell from the original, and on one it never reaches
#   build/mutation-probe  the equivalence probe (probe*.c; the harness's
#                  splitmix64, harness/suite/fill.c and base/util.c), built
#                  with ASan and UBSan: the builds it loads are ASan ones
#                  (probe.py)

MUTATION_SECONDS ?= 3600
MUTATION_FLAGS ?=
DEB_PACKAGES += python3-clang python3-yaml coreutils
TEST_RUNS += test-mutation
.PHONY: mutation test-mutation

mutation: deps
	@$(MAKE) --no-print-directory all
	@MUTATION_SECONDS=$(MUTATION_SECONDS) $(PYTHON) -B tools/mutation/run.py $(MUTATION_FLAGS)

PROBE_OBJS := $(patsubst %.c,$(BUILD)/san/obj/%.o,$(wildcard tools/mutation/probe*.c)) \
              $(BUILD)/san/obj/harness/suite/fill.o $(BUILD)/san/obj/harness/base/util.o
$(BUILD)/san/obj/tools/mutation/%.o: SAN_CFLAGS += -Iharness
$(BUILD)/mutation-probe: $(PROBE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $^ -o $@ -ldl -pthread
ALL_TARGETS += $(BUILD)/mutation-probe

test-mutation: $(BUILD)/reshape-conform $(REFERENCE_OBJS) $(BUILD)/mutation-probe \
               $(BUILD)/libreshape_ref.so
	@$(PYTHON) -B tools/mutation/selftest.py
