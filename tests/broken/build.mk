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
# as it found it); `make broken-table` updates it from the last runs.  The
# sanitized run keeps a test of each helper (BROKEN_SAN_RUN, below) and its
# reports apart.
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
                $(BUILD)/slow/slow_100x.so $(BUILD)/tests/harness_cands/joins_a_thread_per_call.so \
                $(BUILD)/tests/harness_cands/signals_done_then_ends.so

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

# The sanitized tier runs the base kernel's tests (linked in: base/*) and
# the tests of the test code: every other test runs the plain harness, a
# separate process, on a broken candidate, so under the sanitizers it would
# repeat a run of the plain tier and sanitize only its own helpers.  So it
# keeps one test for each file's helpers: the controls' runner and report
# reader (broken/base_is_conformant), hostile_test.c's run_hand_written
# and hostile_with, tamper_test.c's tree, snapshot and caught_both (with a
# file, and with a connection), its ground_fails, trust_test.c's lied_to
# and victim, and its children_of, reach_test.c's reached_from, its made
# file, its listening socket and its forged line; and the checks of the
# catalogue's files.
BROKEN_SAN_RUN := base/*|ground/*|broken/@(at_least_28_candidates|sweep_file_exists|base_is_conformant)
BROKEN_SAN_RUN := $(BROKEN_SAN_RUN)|hostile/a_forked_sleeping_child_is_killed_and_reported
BROKEN_SAN_RUN := $(BROKEN_SAN_RUN)|tamper/@(a_file_created_outside_scratch_is_refused|a_tcp_connection_is_refused)
BROKEN_SAN_RUN := $(BROKEN_SAN_RUN)|trust/@(a_forged_worker_pid_kills_nothing_outside_the_run|an_interrupted_harness_kills_no_group_a_zygote_named)
BROKEN_SAN_RUN := $(BROKEN_SAN_RUN)|reach/@(another_processes_cmdline_is_a_finding|a_root_only_file_is_a_finding)
BROKEN_SAN_RUN := $(BROKEN_SAN_RUN)|reach/@(a_host_unix_socket_is_a_finding_and_hears_nothing|a_forged_verdict_line_never_stands_alone)
test-broken-san: $(BUILD)/san/tests/broken $(BROKEN_NEEDS)
	@rm -f $(BROKEN_RUNS_SAN)/*.row.json
	@$(call san_run,BROKEN_RUNS=$(BROKEN_RUNS_SAN) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	  $(BUILD)/san/tests/broken --filter '@($(BROKEN_SAN_RUN))')
