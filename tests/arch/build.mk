# tests/arch/build.mk - the layer check, tests/arch/check_layers.sh.
#   build/tests/arch   Criterion: the script on small fixture trees
#                      (tests/arch/fixtures/): one that keeps its layers
#                      passes, each way of breaking them is caught
# test-layers runs it, then the script on harness/ itself: its layers
# (HARNESS_LAYERS, harness/build.mk), their includes, and from the objects
# which file calls which; and the trust boundary (harness/ARCHITECTURE.md):
# worker/ is the side beside the candidate, no file above it includes or
# calls it but those harness/worker/callers.txt names, the parent reads
# what a worker wrote only in the files harness/wire/readers.txt names,
# and reshape-conform-worker holds no object of the parent's side.
# Run: make test-layers

TESTS_ARCH_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/arch/*.c))

$(BUILD)/tests/arch: $(TESTS_ARCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -lcriterion

ALL_TARGETS  += $(BUILD)/tests/arch
TEST_RUNS    += test-layers
DEB_PACKAGES += libcriterion-dev binutils

.PHONY: test-layers
test-layers: $(BUILD)/tests/arch $(HARNESS_OBJ) $(BUILD)/reshape-conform-worker
	$(BUILD)/tests/arch
	tests/arch/check_layers.sh -I include -o $(BUILD)/obj/harness -w worker \
	  -c harness/worker/callers.txt -r harness/wire/readers.txt -b $(BUILD)/reshape-conform-worker \
	  harness $(HARNESS_LAYERS)
