# harness/build.mk - build/reshape-conform (plain) and
# build/san/reshape-conform (ASan+UBSan), from the harness's layers.
#
# harness/ holds one folder per layer, bottom first as HARNESS_LAYERS lists
# them (harness/ARCHITECTURE.md); the sources are every .c of each, in that
# order.  A file includes its own folder's headers by name and a lower
# layer's door as "LAYER/LAYER.h" (hence -Iharness);
# tests/arch/check_layers.sh checks it (make test-layers).

HARNESS_LAYERS := base suite engine judge run report cert perf fuzz cli
HARNESS_SRC  := $(foreach l,$(HARNESS_LAYERS),$(sort $(wildcard harness/$(l)/*.c)))
HARNESS_OBJ  := $(HARNESS_SRC:%.c=$(BUILD)/obj/%.o)
HARNESS_SOBJ := $(HARNESS_SRC:%.c=$(BUILD)/san/obj/%.o)
HARNESS_LIBS := -lyaml -ljansson -lcrypto -larchive -lseccomp -lelf -ldl -pthread

$(BUILD)/obj/harness/%.o $(BUILD)/san/obj/harness/%.o: CFLAGS += -pthread -Iharness
$(BUILD)/san/obj/harness/%.o: SAN_CFLAGS += -pthread -Iharness

$(BUILD)/reshape-conform: $(HARNESS_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ $(HARNESS_LIBS)

$(BUILD)/san/reshape-conform: $(HARNESS_SOBJ)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $^ -o $@ $(HARNESS_LIBS)

ALL_TARGETS += $(BUILD)/reshape-conform $(BUILD)/san/reshape-conform
DEB_PACKAGES += libyaml-dev libjansson-dev libssl-dev libarchive-dev libseccomp-dev libelf-dev

# make run: the reference over every case and variant; fails unless it is
# conformant.  Builds only what it runs (the harness and the reference .so;
# the renderer is Python), on every core unless make was given -j.
run: deps
	@$(MAKE) --no-print-directory $(RUN_JOBS) $(BUILD)/reshape-conform $(BUILD)/libreshape_ref.so
	$(BUILD)/reshape-conform --report-dir reports/reference
