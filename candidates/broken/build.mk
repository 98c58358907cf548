# candidates/broken/build.mk - the broken candidates: build/broken/<name>.so
# for every candidates/broken/defects/<name>.c, each linked with the naive
# base kernel in candidates/broken/base/, plus build/broken/base.so (the
# base with no defect, base/none.c).

BROKEN_BASE_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,\
    $(filter-out candidates/broken/base/none.c,$(wildcard candidates/broken/base/*.c)))
BROKEN_NAMES := $(sort $(basename $(notdir $(wildcard candidates/broken/defects/*.c))))
BROKEN_SOS := $(BUILD)/broken/base.so $(BROKEN_NAMES:%=$(BUILD)/broken/%.so)

# Only the two entry points leave a candidate; base helpers stay private so
# they can never bind to a same-named symbol of the harness.
$(BUILD)/obj/candidates/broken/%.o: CFLAGS += -fvisibility=hidden -Icandidates/broken/base
$(BUILD)/san/obj/candidates/broken/%.o: SAN_CFLAGS += -fvisibility=hidden -Icandidates/broken/base

# A candidate that forges the harness's records knows their layout.
$(BUILD)/obj/candidates/broken/defects/forges_memory_samples.o: CFLAGS += -Iharness
$(BUILD)/san/obj/candidates/broken/defects/forges_memory_samples.o: SAN_CFLAGS += -Iharness

BROKEN_LDFLAGS := -shared -Wl,-z,defs

$(BUILD)/broken/base.so: $(BUILD)/obj/candidates/broken/base/none.o $(BROKEN_BASE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(BROKEN_LDFLAGS) -o $@ $^

$(BUILD)/broken/%.so: $(BUILD)/obj/candidates/broken/defects/%.o $(BROKEN_BASE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(BROKEN_LDFLAGS) -o $@ $^

.PHONY: broken
broken: $(BROKEN_SOS)

ALL_TARGETS += $(BROKEN_SOS)
