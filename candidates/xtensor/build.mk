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

# The reproducers of its findings (reports/xtensor/repro/, run by
# tests/adapters/repro.mk): C++ programs on Debian's xtensor headers alone.
REPRO_LIBS           += xtensor
REPRO_READY_xtensor  := /usr/include/xtensor/xcontainer.hpp
REPRO_CC_xtensor     := $(CXX)
REPRO_FLAGS_xtensor  :=
REPRO_LDLIBS_xtensor :=
REPRO_ENV_xtensor    :=
