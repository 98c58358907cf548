# tests/bench/build.mk - the benchmark's own test: build/tests/bench runs
# reshape-bench small (1 MiB payloads, the harness's basic cases, one run
# each; the clone section on a stand-in checkout whose `make run` writes the
# reports at once, as test-standalone builds a real clone) and checks that
# reports/bench.json's every figure is written and consistent.
# It asserts no time: benchmarks print figures.
# Run: make test-bench

TESTS_BENCH_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/bench/*.c))

$(BUILD)/tests/bench: $(TESTS_BENCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -lcriterion -ljansson -lm

ALL_TARGETS += $(BUILD)/tests/bench $(BUILD)/bench/reshape-bench
TEST_RUNS   += test-bench

.PHONY: test-bench
test-bench: $(BUILD)/tests/bench $(BUILD)/bench/reshape-bench $(BUILD)/reshape-conform \
            $(BENCH_CANDS) $(BUILD)/broken/pauses_ignoring_signals.so \
            $(BUILD)/broken/writes_dst_from_late_thread.so $(BUILD)/libreshape_ref.so
	$(BUILD)/tests/bench
