# candidates/xtensor/build.mk - the xtensor adapter, build/candidates/xtensor.so
# (`make candidates`; not part of `all`).  xtensor is header-only.
include candidates/adapters.mk

ADAPTER_LIBS += xtensor

.PHONY: adapter-install-xtensor
adapter-install-xtensor:
	@$(call adapter_apt,libxtensor-dev)

$(ADAPTER_DIR)/xtensor.so: candidates/adapter.map $(BUILD)/obj/candidates/xtensor/xtensor.o \
                          
	@mkdir -p $(@D)
	$(CXX) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -lpthread
