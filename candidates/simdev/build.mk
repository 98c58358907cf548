# candidates/simdev/build.mk - the simulated device (candidates/simdev/,
# simdev.h): build/simdev/simdev.so, conformant, and one
# build/simdev/simdev_<defect>.so per other candidates/simdev/defects/*.c,
# each broken on the device path.  Each links the reference's objects, its
# execute.o with the copy call renamed to reshape_device_copy (the device's
# kernel, kernel.c) and without its table (candidate.c).

SIMDEV_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard candidates/simdev/*.c))
SIMDEV_DEFECTS := $(sort $(basename $(notdir $(wildcard candidates/simdev/defects/*.c))))
SIMDEV_SOS := $(BUILD)/simdev/simdev.so \
    $(patsubst %,$(BUILD)/simdev/simdev_%.so,$(filter-out none,$(SIMDEV_DEFECTS)))
# The reference without its table and with its execute redirected.
DEVICE_REF_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out reference/candidate.c \
    reference/execute.c,$(wildcard reference/*.c))) $(BUILD)/device/ref_execute.o \
    $(BUILD)/obj/candidates/device_rules.o

$(BUILD)/obj/candidates/simdev/%.o: CFLAGS += -fvisibility=hidden -Icandidates/simdev \
                                             -Icandidates -Ireference
$(BUILD)/obj/candidates/device_rules.o: CFLAGS += -fvisibility=hidden -Ireference

$(BUILD)/device/ref_execute.o: $(BUILD)/obj/reference/execute.o
	@mkdir -p $(@D)
	objcopy --redefine-sym reshape_ref_copy=reshape_device_copy $< $@

$(BUILD)/simdev/simdev.so: $(BUILD)/obj/candidates/simdev/defects/none.o $(SIMDEV_OBJS) \
                           $(DEVICE_REF_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-z,defs -o $@ $^ -pthread

$(BUILD)/simdev/simdev_%.so: $(BUILD)/obj/candidates/simdev/defects/%.o $(SIMDEV_OBJS) \
                             $(DEVICE_REF_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-z,defs -o $@ $^ -pthread

ALL_TARGETS  += $(SIMDEV_SOS)
DEB_PACKAGES += binutils
