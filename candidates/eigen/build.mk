# candidates/eigen/build.mk - the Eigen Tensor adapter,
# build/candidates/eigen.so (`make candidates`; not part of `all`).  Eigen
# is header-only; its Tensor module is in unsupported/Eigen/CXX11.
include candidates/adapters.mk

ADAPTER_LIBS += eigen

.PHONY: adapter-install-eigen
adapter-install-eigen:
	@$(call adapter_apt,libeigen3-dev)

$(BUILD)/obj/candidates/eigen/eigen.o: ADAPTER_CXXFLAGS += -I/usr/include/eigen3

$(ADAPTER_DIR)/eigen.so: candidates/adapter.map $(BUILD)/obj/candidates/eigen/eigen.o \
                        
	@mkdir -p $(@D)
	$(CXX) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -lpthread

# The reproducers of its findings (reports/eigen/repro/, run by
# tests/adapters/repro.mk): C++ programs on Debian's Eigen headers alone.
REPRO_LIBS         += eigen
REPRO_READY_eigen  := /usr/include/eigen3/unsupported/Eigen/CXX11/Tensor
REPRO_CC_eigen     := $(CXX)
REPRO_FLAGS_eigen  := -I/usr/include/eigen3
REPRO_LDLIBS_eigen :=
REPRO_ENV_eigen    :=
