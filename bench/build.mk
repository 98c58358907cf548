# bench/build.mk - `make bench`: build/bench/reshape-bench measures the harness
# and the reference, and clone-to-first-report (a git clone of this checkout
# and `make run` in it, below build/bench), and writes reports/bench.json.  The binary is built by
# `all` and run small by `make test` (tests/bench: every figure is written
# and consistent); `make bench` itself is not part of `test`: benchmarks
# print figures, no test asserts a time.

BENCH_SRCS := $(wildcard bench/*.c)
BENCH_OBJS := $(BENCH_SRCS:%.c=$(BUILD)/obj/%.o)

$(BENCH_OBJS): CFLAGS += -Ireference

$(BUILD)/bench/reshape-bench: $(BENCH_OBJS) $(BUILD)/libreshape_ref.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -ljansson

bench: deps
	@$(MAKE) --no-print-directory $(BUILD)/bench/reshape-bench $(BUILD)/reshape-conform \
	  $(BENCH_CANDS) $(BUILD)/broken/pauses_ignoring_signals.so \
	  $(BUILD)/broken/writes_dst_from_late_thread.so $(BUILD)/libreshape_ref.so
	$(BUILD)/bench/reshape-bench --harness $(BUILD)/reshape-conform --cases cases \
	  --tmp $(BUILD)/bench --json reports/bench.json --test-times $(TEST_TIMES).last

# Stand-in candidates for the crash and hang figures (bench/crashy.c): the
# reference with one defect each, linked like build/slow/slow_100x.so
# (candidates/slow/build.mk: the reference's objects, its table renamed;
# that file is read after this one, so the objects are named here again).
BENCH_REF_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,\
    $(filter-out reference/candidate.c,$(wildcard reference/*.c)))
BENCH_CANDS := $(patsubst bench/cands/%.c,$(BUILD)/bench/cands/%.so,$(wildcard bench/cands/*.c))

$(BUILD)/bench/cands/%.so: $(BUILD)/obj/bench/cands/%.o $(BUILD)/slow/ref_table.o $(BENCH_REF_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-z,defs -o $@ $^ -pthread

ALL_TARGETS += $(BENCH_CANDS)
