# harness/build.mk - build/reshape-conform (plain) and
# build/san/reshape-conform (ASan+UBSan), from every harness/*.c.

HARNESS_SRC  := $(sort $(wildcard harness/*.c))
HARNESS_OBJ  := $(HARNESS_SRC:%.c=$(BUILD)/obj/%.o)
HARNESS_SOBJ := $(HARNESS_SRC:%.c=$(BUILD)/san/obj/%.o)
HARNESS_LIBS := -lyaml -ljansson -lcrypto -larchive -lseccomp -ldl -pthread

$(BUILD)/obj/harness/%.o $(BUILD)/san/obj/harness/%.o: CFLAGS += -pthread
$(BUILD)/san/obj/harness/%.o: SAN_CFLAGS += -pthread

$(BUILD)/reshape-conform: $(HARNESS_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ $(HARNESS_LIBS)

$(BUILD)/san/reshape-conform: $(HARNESS_SOBJ)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $^ -o $@ $(HARNESS_LIBS)

ALL_TARGETS += $(BUILD)/reshape-conform $(BUILD)/san/reshape-conform
DEB_PACKAGES += libyaml-dev libjansson-dev libssl-dev libarchive-dev libseccomp-dev

# make run: the reference over every case and variant; fails unless it is
# conformant.  Builds only what it runs (the harness and the reference .so;
# the renderer is Python), on every core unless make was given -j.
run: deps
	@$(MAKE) --no-print-directory $(RUN_JOBS) $(BUILD)/reshape-conform $(BUILD)/libreshape_ref.so
	$(BUILD)/reshape-conform --report-dir reports/reference
