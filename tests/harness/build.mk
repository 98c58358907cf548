# tests/harness/build.mk - the harness's own tests: a Criterion binary
# (plain and sanitized) linking the harness objects, and small test
# candidates, one .so per tests/harness/candidates/*.c.

HT_SRC    := $(sort $(wildcard tests/harness/*.c))
HT_OBJ    := $(HT_SRC:%.c=$(BUILD)/obj/%.o)
HT_SOBJ   := $(HT_SRC:%.c=$(BUILD)/san/obj/%.o)
HT_LIBOBJ := $(filter-out %/main.o,$(HARNESS_OBJ))
HT_LIBSOBJ:= $(filter-out %/main.o,$(HARNESS_SOBJ))
HT_CANDS  := $(patsubst tests/harness/candidates/%.c,$(BUILD)/tests/harness_cands/%.so,\
               $(wildcard tests/harness/candidates/*.c))

$(BUILD)/obj/tests/harness/%.o $(BUILD)/san/obj/tests/harness/%.o: CFLAGS += -Iharness
$(BUILD)/san/obj/tests/harness/%.o: SAN_CFLAGS += -Iharness

# Candidates are always built plain: the harness may be sanitized, they not.
$(BUILD)/tests/harness_cands/%.so: tests/harness/candidates/%.c tests/harness/candidates/base.h \
                                   tests/harness/candidates/load_log.h tests/harness/candidates/hang_or_slow.h \
                                   include/reshape_candidate.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Wno-unused-parameter -shared -fvisibility=hidden $< -o $@

$(BUILD)/tests/harness: $(HT_OBJ) $(HT_LIBOBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ -lcriterion $(HARNESS_LIBS)

$(BUILD)/san/tests/harness: $(HT_SOBJ) $(SAN_TEST_RUNNER) $(HT_LIBSOBJ)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $^ -o $@ -lcriterion $(HARNESS_LIBS)

ALL_TARGETS  += $(BUILD)/tests/harness $(BUILD)/san/tests/harness $(HT_CANDS)
# procps: pgrep, which test_perf.c uses to find strays (Debian marks it
# "important", not "required": a minimal image lacks it)
DEB_PACKAGES += libcriterion-dev openssl libxml2-utils procps
TEST_RUNS    += test-harness test-harness-san

.PHONY: test-harness test-harness-san
# test_fuzz.c, test_fuzz_layouts.c and test_layouts.c run broken candidates
# and the reference as well.
HT_BROKEN := $(BUILD)/broken/zero_copies_right_aligned.so \
             $(BUILD)/broken/below_minus_one_as_minus_one.so \
             $(BUILD)/broken/special_zero_ignored.so $(BUILD)/libreshape_ref.so \
             $(BUILD)/broken/element_count_uint32.so $(BUILD)/broken/minus_one_known_uint32.so \
             $(BUILD)/broken/broadcast_read_as_dense.so $(BUILD)/broken/size1_stride_refused.so \
             $(BUILD)/broken/aliasing_dst_written.so

# In make test (TESTS_WITH_SAN set) the plain tier runs only what the
# sanitized tier does not run as well: the long runs it leaves out
# (HT_SAN_SKIP, below) and the suites whose subject is time, load or the
# processes' lives (HT_TIMED), which a sanitized build runs at another
# speed.  Every other test runs once there, against the sanitized harness
# and harness objects: the same assertions, with ASan and UBSan watching.
# The plain harness binary is what test-broken, test-standalone,
# test-install, test-reports, test-adapters and test-device run; make
# test-quick and make test-harness run every test here against it.
HT_TIMED := isolation/*|room/*|deadline/*|confirm/*|timeout/*|reaper/*|spawner/*|zygote/*
HT_TIMED := $(HT_TIMED)|sandbox/*|perf/*|perf_budget/*|journal/*|determinism/*|trust/*|load/*|heap_warm/*
HT_TIMED := $(HT_TIMED)|widen/*
test-harness: $(BUILD)/tests/harness $(BUILD)/reshape-conform $(HT_CANDS) $(HT_BROKEN)
	HARNESS_BIN=$(BUILD)/reshape-conform $(BUILD)/tests/harness \
	  $(if $(TESTS_WITH_SAN),--filter '@($(HT_SAN_SKIP)|$(HT_TIMED))')

# The sanitized tier runs every test but eleven long runs whose C
# code paths other tests put under the sanitizers already (their subject,
# an equality of outputs, the plain tier checks):
#   determinism/the_reference_twice_over_the_whole_suite: two runs of the
#     reference over the whole suite, default options: the same code as the
#     run and the rerun of certify/the_reference_is_certified_over_the_whole_suite
#   shard/n_shards_merged_are_the_whole_run: 29 runs and 7 merges; sharding
#     and merging run under the sanitizers in cli/shards_partition_and_merge_back
#   isolation/a_copy_past_the_end_is_always_caught_and_verdicts_do_not_depend_on_jobs:
#     two runs over the whole suite, --jobs 1 and 3; a copy past the end is
#     judged under the sanitizers in isolation/write_past_dst_is_memory_violation,
#     more jobs in every test that runs the default --jobs
#   certify/the_reference_is_certified_over_the_whole_suite: certify, verify
#     and verify --rerun over the whole suite (15 CPU-s under the sanitizers);
#     the same three run under them on fewer cases: certify and verify in
#     certify/a_bundle_holds_every_member_and_verifies, verify --rerun in
#     forgery/edited_results_are_caught_by_what_they_imply_or_by_a_rerun
#   journal/a_sigkilled_run_resumes_to_the_clean_report: a run killed mid-way
#     and resumed (4.6 CPU-s); reading a journal and resuming from it run under
#     them in journal/a_torn_last_line_is_reported_and_its_result_runs_again
#   certify/the_shipped_cuda_bundle_verifies: verify of a stored bundle
#     against an older suite (2.7 CPU-s); verify runs under them as above
#   determinism/a_crashing_candidate_twice, a_candidate_writing_before_dst_twice,
#     a_leaking_candidate_twice: two whole-suite runs each, --jobs 2 and 1,
#     whose verdicts must be equal (10 CPU-s); crashes and writes before dst
#     are judged under them in isolation/segfault_is_crash_and_the_run_goes_on
#     and isolation/write_before_dst_is_memory_violation, leaks in
#     isolation/leak_per_call_is_leak
#   findings/a_one_defect_kernel_prints_one_finding,
#     json_findings_hold_every_failing_run_once: a broken candidate over the
#     whole suite (6.3 CPU-s); findings are grouped and printed under them in
#     cli/transcript_of_a_crashing_run_is_one_finding
HT_SAN_SKIP := determinism/the_reference_twice_over_the_whole_suite
HT_SAN_SKIP := $(HT_SAN_SKIP)|shard/n_shards_merged_are_the_whole_run
HT_SAN_SKIP := $(HT_SAN_SKIP)|isolation/a_copy_past_the_end_is_always_caught_and_verdicts_do_not_depend_on_jobs
HT_SAN_SKIP := $(HT_SAN_SKIP)|certify/the_reference_is_certified_over_the_whole_suite
HT_SAN_SKIP := $(HT_SAN_SKIP)|journal/a_sigkilled_run_resumes_to_the_clean_report
HT_SAN_SKIP := $(HT_SAN_SKIP)|certify/the_shipped_cuda_bundle_verifies
HT_SAN_SKIP := $(HT_SAN_SKIP)|determinism/a_crashing_candidate_twice
HT_SAN_SKIP := $(HT_SAN_SKIP)|determinism/a_candidate_writing_before_dst_twice
HT_SAN_SKIP := $(HT_SAN_SKIP)|determinism/a_leaking_candidate_twice
HT_SAN_SKIP := $(HT_SAN_SKIP)|findings/a_one_defect_kernel_prints_one_finding
HT_SAN_SKIP := $(HT_SAN_SKIP)|findings/json_findings_hold_every_failing_run_once

test-harness-san: $(BUILD)/san/tests/harness $(BUILD)/san/reshape-conform $(HT_CANDS) $(HT_BROKEN)
	@$(call san_run,HARNESS_BIN=$(BUILD)/san/reshape-conform \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 $(BUILD)/san/tests/harness \
	  --filter '!(@($(HT_SAN_SKIP)))')
