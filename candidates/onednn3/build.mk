# candidates/onednn3/build.mk - the oneDNN adapter (candidates/onednn/onednn.c,
# memory-descriptor reshape + reorder) built against PyPI's oneDNN 3.2.0
# (candidates/onednn/wheel.mk) as build/candidates/onednn3.so, a row of its
# own beside Debian's 2.6.3 (`make candidates`; not part of `all`).
include candidates/adapters.mk
include candidates/onednn/wheel.mk

ADAPTER_LIBS += onednn3

.PHONY: adapter-install-onednn3
adapter-install-onednn3: onednn3-wheel

# The same source as candidates/onednn, its own object: the wheel's headers
# come before /usr/include, where Debian's 2.6.3 may also be.
$(BUILD)/obj/candidates/onednn3/onednn.o: candidates/onednn/onednn.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(ONEDNN3_CFLAGS) -c $< -o $@

$(ADAPTER_DIR)/onednn3.so: candidates/adapter.map $(BUILD)/obj/candidates/onednn3/onednn.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) $(ONEDNN3_LDLIBS) -lpthread

# The reproducers of reports/onednn3/repro (tests/adapters/repro.mk).
REPRO_LIBS         += onednn3
REPRO_READY_onednn3 := $(ONEDNN3_READY)
REPRO_CC_onednn3    := $(CC)
REPRO_FLAGS_onednn3  = -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(ONEDNN3_CFLAGS)
REPRO_LDLIBS_onednn3 = $(ONEDNN3_LDLIBS)
REPRO_ENV_onednn3   := env OMP_NUM_THREADS=1
