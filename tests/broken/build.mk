# tests/broken/build.mk - tests of the broken candidates.
#   build/tests/broken       Criterion: the base kernel linked directly
#                            (base_test.c), and build/reshape-conform run on
#                            base.so, the reference and every other
#                            build/broken/*.so (caught_test.c); the
#                            hostile ones (hostile_test.c); the ones that
#                            tamper, steal or phone home against the
#                            sandbox, as root and as nobody (setpriv), and
#                            the ground check (tamper_test.c); and
#                            build/slow/slow_100x.so, which must pass with
#                            no TIMEOUT (slow_test.c)
#   build/san/tests/broken   the same under ASan + UBSan
# test-broken also renders the table of the runs' rows (tests/broken/table.py)
# into build/broken/README.md and says when it differs from the committed
# reports/broken/README.md, which it never writes (a test leaves the tree
# as it found it); `make broken-table` updates it from the last runs.  The sanitized run leaves out broken::caught,
# broken::reference_is_conformant and the slow reference's run: the harness is a separate, unsanitized
# process, so they would only repeat harness runs of the plain run; the one
# control it keeps puts the runner and report reader under the sanitizers.
# It keeps its reports apart.
# Run: make test-broken test-broken-san

TESTS_BROKEN_SRCS     := $(wildcard tests/broken/*.c)
TESTS_BROKEN_OBJS     := $(TESTS_BROKEN_SRCS:%.c=$(BUILD)/obj/%.o)
TESTS_BROKEN_SAN_OBJS := $(TESTS_BROKEN_SRCS:%.c=$(BUILD)/san/obj/%.o)
# The base kernel with no defect (none.c), linked in for the direct tests.
TESTS_BROKEN_KERNEL     := $(wildcard candidates/broken/base/*.c)
TESTS_BROKEN_KERNEL_OBJ := $(TESTS_BROKEN_KERNEL:%.c=$(BUILD)/obj/%.o)
TESTS_BROKEN_KERNEL_SAN := $(TESTS_BROKEN_KERNEL:%.c=$(BUILD)/san/obj/%.o)
TESTS_BROKEN_LIBS     := -lcriterion -ljansson -ldl -lpthread

$(TESTS_BROKEN_OBJS): CFLAGS += -Icandidates/broken/base
$(TESTS_BROKEN_SAN_OBJS): SAN_CFLAGS += -Icandidates/broken/base

$(BUILD)/tests/broken: $(TESTS_BROKEN_OBJS) $(TESTS_BROKEN_KERNEL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(TESTS_BROKEN_LIBS)

$(BUILD)/san/tests/broken: $(TESTS_BROKEN_SAN_OBJS) $(SAN_TEST_RUNNER) $(TESTS_BROKEN_KERNEL_SAN)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ $^ $(TESTS_BROKEN_LIBS)

ALL_TARGETS  += $(BUILD)/tests/broken $(BUILD)/san/tests/broken
TEST_RUNS    += test-broken test-broken-san

.PHONY: test-broken test-broken-san
BROKEN_RUNS     := $(BUILD)/broken/runs
BROKEN_RUNS_SAN := $(BUILD)/broken/runs-san

# Everything the runs load: the candidates, the reference, the harness.
BROKEN_NEEDS := $(BROKEN_SOS) $(BUILD)/libreshape_ref.so $(BUILD)/reshape-conform \
                $(BUILD)/slow/slow_100x.so

# The table of this run (each candidate on the files that caught it first)
# goes to build/broken/README.md, so that table.py runs on every make test.
test-broken: $(BUILD)/tests/broken $(BROKEN_NEEDS)
	@rm -f $(BROKEN_RUNS)/*.row.json
	BROKEN_RUNS=$(BROKEN_RUNS) $(BUILD)/tests/broken; rc=$$?; \
	$(PYTHON) tests/broken/table.py $(BROKEN_RUNS) $(BUILD)/broken/README.md || exit 1; exit $$rc

# The table: every broken candidate over every case file but the sweep
# (caught_test.c, BROKEN_TABLE), whose counts reports/broken/README.md shows.
.PHONY: broken-table
broken-table: $(BUILD)/tests/broken $(BROKEN_NEEDS)
	@rm -f $(BROKEN_RUNS)/*.row.json
	BROKEN_TABLE=1 BROKEN_RUNS=$(BROKEN_RUNS) $(BUILD)/tests/broken \
	  --filter 'broken/@(caught|base_is_conformant|reference_is_conformant)'
	$(PYTHON) tests/broken/table.py $(BROKEN_RUNS) reports/broken/README.md

# The sanitized tier leaves out the catalogue and the controls' second
# whole-suite runs, and two runs whose subject is that the plain harness
# gives the same verdicts at every --jobs (the hostile late thread's three
# runs, the closed descriptors' two): the glue they share is sanitized in
# the tests beside them.
BROKEN_SAN_SKIP := broken/@(caught|reference_is_conformant|slow_reference_is_conformant_without_timeout)
BROKEN_SAN_SKIP := $(BROKEN_SAN_SKIP)|hostile/a_late_threads_verdicts_are_the_same_whatever_the_jobs
BROKEN_SAN_SKIP := $(BROKEN_SAN_SKIP)|hostile/closing_the_workers_fds_gets_the_same_verdicts_whatever_the_jobs

test-broken-san: $(BUILD)/san/tests/broken $(BROKEN_NEEDS)
	@rm -f $(BROKEN_RUNS_SAN)/*.row.json
	@$(call san_run,BROKEN_RUNS=$(BROKEN_RUNS_SAN) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	  $(BUILD)/san/tests/broken --filter '!(@($(BROKEN_SAN_SKIP)))')
