# tests/adapters/build.mk - tests of the adapter kit, the library adapters
# and the scoreboard.
#   build/tests/adapters       kit_test.c checks include/reshape_adapter.h,
#                              compiled as C and as C++17 (kit_cxx.cpp), and
#                              a candidate built on it (kit_candidate/,
#                              build/tests/kit_candidate.so);
#                              smoke_test.c and layouts_test.c dlopen
#                              build/candidates/<library>.so;
#                              scoreboard_test.c and scoreboard_certify_test.c
#                              run candidates/scoreboard.py against a
#                              stand-in harness (scoreboard_world.c)
#   build/san/tests/adapters   the same under ASan + UBSan
# The adapters themselves come from `make candidates` and are not built
# here: a library whose adapter is missing is a skipped test.
# Run: make test-adapters test-adapters-san (make repro: the reproducers only)

TESTS_ADAPTERS_SRCS     := $(wildcard tests/adapters/*.c)
TESTS_ADAPTERS_CXX      := $(wildcard tests/adapters/*.cpp)
TESTS_ADAPTERS_OBJS     := $(TESTS_ADAPTERS_SRCS:%.c=$(BUILD)/obj/%.o) \
                           $(TESTS_ADAPTERS_CXX:%.cpp=$(BUILD)/obj/%.o)
TESTS_ADAPTERS_SAN_OBJS := $(TESTS_ADAPTERS_SRCS:%.c=$(BUILD)/san/obj/%.o) \
                           $(TESTS_ADAPTERS_CXX:%.cpp=$(BUILD)/san/obj/%.o)
TESTS_ADAPTERS_LIBS     := -lcriterion -ldl -lpthread

# The kit's C++ side: no exceptions or RTTI, so the binary links with $(CC)
# and needs no C++ runtime.
DEB_PACKAGES  += g++
KIT_CXX       ?= g++
KIT_CXXFLAGS  := -std=c++17 -Wall -Wextra -Werror -g -fPIC -Iinclude \
                 -fno-exceptions -fno-rtti -MMD -MP
$(BUILD)/obj/tests/adapters/%.o: tests/adapters/%.cpp
	@mkdir -p $(@D)
	$(KIT_CXX) $(KIT_CXXFLAGS) -O2 -c $< -o $@
$(BUILD)/san/obj/tests/adapters/%.o: tests/adapters/%.cpp
	@mkdir -p $(@D)
	$(KIT_CXX) $(KIT_CXXFLAGS) -O1 $(SAN) -c $< -o $@

# The smallest candidate on the kit, which kit_test.c dlopens.
KIT_CANDIDATE := $(BUILD)/tests/kit_candidate.so
$(KIT_CANDIDATE): tests/adapters/kit_candidate/kit_candidate.c $(wildcard include/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fvisibility=hidden -shared -Wl,-z,defs -o $@ $< -lpthread

$(BUILD)/tests/adapters: $(TESTS_ADAPTERS_OBJS) $(KIT_CANDIDATE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(TESTS_ADAPTERS_OBJS) $(TESTS_ADAPTERS_LIBS)

$(BUILD)/san/tests/adapters: $(TESTS_ADAPTERS_SAN_OBJS) $(SAN_TEST_RUNNER) $(KIT_CANDIDATE)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ $(TESTS_ADAPTERS_SAN_OBJS) $(SAN_TEST_RUNNER) $(TESTS_ADAPTERS_LIBS)

ALL_TARGETS += $(BUILD)/tests/adapters $(BUILD)/san/tests/adapters
TEST_RUNS   += test-adapters test-adapters-san

.PHONY: test-adapters test-adapters-san
include tests/adapters/repro.mk

test-adapters: $(BUILD)/tests/adapters
	$(BUILD)/tests/adapters
	@$(REPRO_RUN)

# lsan.supp says which libraries' process-lifetime allocations are ignored.
# OMP_NUM_THREADS=1: oneDNN's libgomp worker threads, alive at exit, crash
# LeakSanitizer's tracer ("Tracer caught signal 11"); one thread has none.
# handle_sigfpe=0: findings_test.c asserts that xtensor dies of SIGFPE,
# which ASan would otherwise turn into its own report and an abort.
test-adapters-san: $(BUILD)/san/tests/adapters
	@$(call san_run,OMP_NUM_THREADS=1 \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:handle_sigfpe=0 \
	LSAN_OPTIONS=suppressions=tests/adapters/lsan.supp:print_suppressions=0 \
	$(BUILD)/san/tests/adapters)
