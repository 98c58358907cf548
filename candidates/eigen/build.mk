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
