# harness/build.mk - build/reshape-conform (plain) and
# build/san/reshape-conform (ASan+UBSan), from the harness's layers.
#
# harness/ holds one folder per layer, bottom first as HARNESS_LAYERS lists
# them (harness/ARCHITECTURE.md); the sources are every .c of each, in that
# order.  A file includes its own folder's headers by name and a lower
# layer's door as "LAYER/LAYER.h" (hence -Iharness);
# tests/arch/check_layers.sh checks it (make test-layers).  worker/ is the
# code that runs beside the candidate, wire/ the protocol, engine/ and
# above the parent; proc/ is linked by both sides.

HARNESS_LAYERS := base suite proc wire worker engine judge run report cert perf fuzz cli
HARNESS_WORKER_MAIN := harness/worker/worker_main.c
HARNESS_SRC  := $(filter-out $(HARNESS_WORKER_MAIN),\
                  $(foreach l,$(HARNESS_LAYERS),$(sort $(wildcard harness/$(l)/*.c))))
HARNESS_OBJ  := $(HARNESS_SRC:%.c=$(BUILD)/obj/%.o)
HARNESS_SOBJ := $(HARNESS_SRC:%.c=$(BUILD)/san/obj/%.o)
# -z now: every symbol bound at start, so no worker forked from a zygote
# (harness/worker/zygote.h) binds one again on its first call
HARNESS_LIBS := -lyaml -ljansson -lz -lcrypto -larchive -lseccomp -lelf -ldl -pthread -Wl,-z,now

$(BUILD)/obj/harness/%.o $(BUILD)/san/obj/harness/%.o: CFLAGS += -pthread -Iharness
$(BUILD)/san/obj/harness/%.o: SAN_CFLAGS += -pthread -Iharness

$(BUILD)/reshape-conform: $(HARNESS_OBJ) | $(BUILD)/reshape-conform-worker
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(HARNESS_OBJ) -o $@ $(HARNESS_LIBS)

$(BUILD)/san/reshape-conform: $(HARNESS_SOBJ) | $(BUILD)/san/reshape-conform-worker
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $(HARNESS_SOBJ) -o $@ $(HARNESS_LIBS)

# reshape-conform-worker beside each: the process a slot's zygote and
# workers are forked from (harness/worker/worker_main.c), linked with the
# objects it needs of the worker side (worker/), the protocol (wire/) and
# the layers below (proc/, suite/, base/): an archive, the linker takes
# only those (of suite/ only abuse.c); never an object of engine/ or above
# (the trust boundary, harness/ARCHITECTURE.md: make test-layers checks
# it); and no other library, so that a fork of it is fast.
# The harness runs `reshape-conform __worker` instead when it is missing.
HARNESS_WORKER_LIBS := -lseccomp -lelf -ldl -pthread -Wl,-z,now
HARNESS_LOW := $(foreach l,base suite proc wire worker,$(filter $(BUILD)/obj/harness/$(l)/%,$(HARNESS_OBJ)))
HARNESS_SLOW := $(foreach l,base suite proc wire worker,$(filter $(BUILD)/san/obj/harness/$(l)/%,$(HARNESS_SOBJ)))

$(BUILD)/obj/harness/worker_side.a: $(HARNESS_LOW)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/san/obj/harness/worker_side.a: $(HARNESS_SLOW)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/reshape-conform-worker: $(BUILD)/obj/harness/worker/worker_main.o $(BUILD)/obj/harness/worker_side.a
	$(CC) $(CFLAGS) $^ -o $@ $(HARNESS_WORKER_LIBS)

$(BUILD)/san/reshape-conform-worker: $(BUILD)/san/obj/harness/worker/worker_main.o \
                                     $(BUILD)/san/obj/harness/worker_side.a
	$(CC) $(SAN_CFLAGS) $^ -o $@ $(HARNESS_WORKER_LIBS)

ALL_TARGETS += $(BUILD)/reshape-conform $(BUILD)/san/reshape-conform \
               $(BUILD)/reshape-conform-worker $(BUILD)/san/reshape-conform-worker
DEB_PACKAGES += libyaml-dev libjansson-dev zlib1g-dev libssl-dev libarchive-dev libseccomp-dev libelf-dev

# make run: the reference over every case and variant; fails unless it is
# conformant.  Builds only what it runs (the harness and the reference .so;
# the renderer is Python), on every core unless make was given -j.
run: deps
	@$(MAKE) --no-print-directory $(RUN_JOBS) $(BUILD)/reshape-conform $(BUILD)/libreshape_ref.so
	$(BUILD)/reshape-conform --report-dir reports/reference
