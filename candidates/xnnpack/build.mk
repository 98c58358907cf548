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
