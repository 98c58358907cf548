# candidates/onednn/build.mk - the oneDNN adapter, build/candidates/onednn.so
# (`make candidates`; not part of `all`).
include candidates/adapters.mk

ADAPTER_LIBS += onednn

.PHONY: adapter-install-onednn
adapter-install-onednn:
	@$(call adapter_apt,libdnnl-dev)

$(ADAPTER_DIR)/onednn.so: candidates/adapter.map $(BUILD)/obj/candidates/onednn/onednn.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -ldnnl -lpthread
