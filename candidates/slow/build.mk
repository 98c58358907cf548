# candidates/slow/build.mk - build/slow/slow_100x.so: the reference with
# every call run 100 times (slow_100x.c), for the other half of the adaptive
# timeout rule: a correct but slow candidate gets no TIMEOUT.  It links the
# reference's objects, its table renamed reshape_ref_candidate_v1 so that
# the wrapper's reshape_candidate_v1 is the one the harness finds.  Kept
# out of build/broken/: it is conformant.

SLOW_REF_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,\
    $(filter-out reference/candidate.c,$(wildcard reference/*.c)))

$(BUILD)/slow/ref_table.o: $(BUILD)/obj/reference/candidate.o
	@mkdir -p $(@D)
	objcopy --redefine-sym reshape_candidate_v1=reshape_ref_candidate_v1 $< $@

$(BUILD)/slow/slow_100x.so: $(BUILD)/obj/candidates/slow/slow_100x.o $(BUILD)/slow/ref_table.o \
                            $(SLOW_REF_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-z,defs -o $@ $^ -pthread

ALL_TARGETS  += $(BUILD)/slow/slow_100x.so
DEB_PACKAGES += binutils
