# candidates/xnnpack/build.mk - the XNNPACK adapter, build/candidates/xnnpack.so
# (`make candidates`; not part of `all`).
include candidates/adapters.mk

ADAPTER_LIBS += xnnpack

.PHONY: adapter-install-xnnpack
adapter-install-xnnpack:
	@$(call adapter_apt,libxnnpack-dev libpthreadpool-dev)

$(ADAPTER_DIR)/xnnpack.so: candidates/adapter.map $(BUILD)/obj/candidates/xnnpack/xnnpack.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -lXNNPACK -lpthread

# The reproducers of its findings (reports/xnnpack/repro/, run by
# tests/adapters/repro.mk): C programs on libXNNPACK alone.
REPRO_LIBS           += xnnpack
REPRO_READY_xnnpack  := /usr/include/xnnpack.h
REPRO_CC_xnnpack     := $(CC)
REPRO_FLAGS_xnnpack  :=
REPRO_LDLIBS_xnnpack := -lXNNPACK -lpthread
REPRO_ENV_xnnpack    :=
