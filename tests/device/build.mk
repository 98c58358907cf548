# tests/device/build.mk - tests of the device path (docs/harness/device.md):
# a Criterion binary, plain and sanitized, of
#   abi_test.c      RESHAPE_DEVICE_* against Debian's dlpack.h, the
#                   optional fields of reshape_device
#   regions_test.c  worker/exec_device.c on a real arena, a mock device
#   simdev_test.c   the simulated device on its own (candidates/simdev/)
#   run_test.c      build/reshape-conform on the simulated device and its
#                   defects (the harness is a separate, plain process)
#   cuda_test.c     the CUDA candidate without a GPU: ptxas on its PTX
#                   (skipped without ptxas), the clean skip without a
#                   driver, its host side on a fake driver
# and the small candidates of tests/device/candidates/, and the fake
# driver build/tests/fakecuda/libcuda.so.1 (tests/device/fakecuda/).  The sanitized run
# leaves out the runs of the harness (run_test.c): they would only repeat
# the plain run's.  ASan leaves SIGSEGV to the tests that expect one.
# Run: make test-device test-device-san

TD_SRC  := $(sort $(wildcard tests/device/*.c))
TD_OBJ  := $(TD_SRC:%.c=$(BUILD)/obj/%.o)
TD_SOBJ := $(TD_SRC:%.c=$(BUILD)/san/obj/%.o)
TD_CANDS := $(patsubst tests/device/candidates/%.c,$(BUILD)/tests/device_cands/%.so,\
              $(wildcard tests/device/candidates/*.c))

$(BUILD)/obj/tests/device/%.o: CFLAGS += -Iharness -Itests/harness -Icandidates/cuda
$(BUILD)/san/obj/tests/device/%.o: SAN_CFLAGS += -Iharness -Itests/harness -Icandidates/cuda

TD_FAKECUDA := $(BUILD)/tests/fakecuda/libcuda.so.1
$(TD_FAKECUDA): tests/device/fakecuda/libcuda.c candidates/cuda/cuda.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icandidates/cuda -shared -fvisibility=hidden -Wl,-soname,libcuda.so.1 $< -o $@

$(BUILD)/tests/device_cands/%.so: tests/device/candidates/%.c include/reshape_candidate.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -fvisibility=hidden $< -o $@

$(BUILD)/tests/device: $(TD_OBJ) $(filter-out %/main.o,$(HARNESS_OBJ))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ -lcriterion $(HARNESS_LIBS)

$(BUILD)/san/tests/device: $(TD_SOBJ) $(SAN_TEST_RUNNER) $(filter-out %/main.o,$(HARNESS_SOBJ))
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $^ -o $@ -lcriterion $(HARNESS_LIBS)

ALL_TARGETS  += $(BUILD)/tests/device $(BUILD)/san/tests/device $(TD_CANDS) $(TD_FAKECUDA)
DEB_PACKAGES += libdlpack-dev libcriterion-dev
TEST_RUNS    += test-device test-device-san

.PHONY: test-device test-device-san
TD_NEEDS := $(BUILD)/reshape-conform $(SIMDEV_SOS) $(TD_CANDS) $(TD_FAKECUDA) \
            $(BUILD)/cuda/reshape_cuda.so

test-device: $(BUILD)/tests/device $(TD_NEEDS)
	HARNESS_BIN=$(BUILD)/reshape-conform $(BUILD)/tests/device

test-device-san: $(BUILD)/san/tests/device $(TD_NEEDS)
	@$(call san_run,ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:handle_segv=0 \
	  $(BUILD)/san/tests/device --filter '!(device_run/*|device_perf/*|cuda/*)')
