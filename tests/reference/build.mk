# tests/reference/build.mk - Criterion tests of the reference implementation.
#   build/tests/reference       against build/libreshape_ref.a
#   build/san/tests/reference   the same, under ASan + UBSan, against
#                               build/san/libreshape_ref.a
# Both also dlopen build/libreshape_ref.so (library_test.c).
# Run: make test-reference test-reference-san

TESTS_REFERENCE_SRCS     := $(wildcard tests/reference/*.c)
TESTS_REFERENCE_OBJS     := $(TESTS_REFERENCE_SRCS:%.c=$(BUILD)/obj/%.o)
TESTS_REFERENCE_SAN_OBJS := $(TESTS_REFERENCE_SRCS:%.c=$(BUILD)/san/obj/%.o)
TESTS_REFERENCE_LIBS     := -lcriterion -ldl -lpthread

$(TESTS_REFERENCE_OBJS): CFLAGS += -Ireference
$(TESTS_REFERENCE_SAN_OBJS): SAN_CFLAGS += -Ireference

$(BUILD)/tests/reference: $(TESTS_REFERENCE_OBJS) $(BUILD)/libreshape_ref.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(TESTS_REFERENCE_LIBS)

$(BUILD)/san/tests/reference: $(TESTS_REFERENCE_SAN_OBJS) $(SAN_TEST_RUNNER) $(BUILD)/san/libreshape_ref.a
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ $^ $(TESTS_REFERENCE_LIBS)

ALL_TARGETS  += $(BUILD)/tests/reference $(BUILD)/san/tests/reference
TEST_RUNS    += test-reference test-reference-san
DEB_PACKAGES += libcriterion-dev binutils

.PHONY: test-reference test-reference-san
# The .so must export reshape_candidate_v1 and nothing else.
test-reference: $(BUILD)/tests/reference $(BUILD)/libreshape_ref.so
	@syms=$$(nm -D --defined-only $(BUILD)/libreshape_ref.so | awk '{print $$3}'); \
	test "$$syms" = reshape_candidate_v1 || \
	  { echo "test-reference: libreshape_ref.so exports: $$syms" >&2; exit 1; }
	RESHAPE_REF_SO=$(BUILD)/libreshape_ref.so $(BUILD)/tests/reference

test-reference-san: $(BUILD)/san/tests/reference $(BUILD)/libreshape_ref.so
	@$(call san_run,RESHAPE_REF_SO=$(BUILD)/libreshape_ref.so \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 $(BUILD)/san/tests/reference)
