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
	@$(MAKE) --no-print-directory $(BUILD)/bench/reshape-bench $(BUILD)/reshape-conform
	$(BUILD)/bench/reshape-bench --harness $(BUILD)/reshape-conform --cases cases \
	  --tmp $(BUILD)/bench --json reports/bench.json
