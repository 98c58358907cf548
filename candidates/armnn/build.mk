# candidates/armnn/build.mk - the Arm NN adapter, build/candidates/armnn.so
# (`make candidates`; not part of `all`): Arm NN 20.08's Reshape layer on
# its CpuRef backend, from Debian 12.  The version it reports is the
# installed package's, asked of dpkg at build time.
include candidates/adapters.mk

ADAPTER_LIBS += armnn

ARMNN_GEN  := $(BUILD)/gen/candidates/armnn
ARMNN_OBJS := $(BUILD)/obj/candidates/armnn/armnn.o $(BUILD)/obj/candidates/armnn/parser_shape.o

.PHONY: adapter-install-armnn
adapter-install-armnn:
	@$(call adapter_apt,libarmnn-dev libarmnn-cpuref-backend22)

$(ARMNN_GEN)/armnn_version.h:
	@mkdir -p $(@D)
	printf '#define ARMNN_PACKAGE_VERSION "%s"\n' \
	  "$$(dpkg-query -W -f='$${Version}' libarmnn22)" > $@.tmp
	mv $@.tmp $@

$(BUILD)/obj/candidates/armnn/armnn.o: $(ARMNN_GEN)/armnn_version.h
$(ARMNN_OBJS): ADAPTER_CXXFLAGS += -I$(ARMNN_GEN)

$(ADAPTER_DIR)/armnn.so: candidates/adapter.map $(ARMNN_OBJS)
	@mkdir -p $(@D)
	$(CXX) $(ADAPTER_SO_FLAGS) -o $@ $(ARMNN_OBJS) -larmnn -lpthread

# The reproducers of its findings (reports/armnn/repro/, run by
# tests/adapters/repro.mk): C++ programs on libarmnn alone (CpuRef).
REPRO_LIBS         += armnn
REPRO_READY_armnn  := /usr/include/armnn/ArmNN.hpp
REPRO_CC_armnn     := $(CXX)
REPRO_FLAGS_armnn  :=
REPRO_LDLIBS_armnn := -larmnn
REPRO_ENV_armnn    :=
