# reference/build.mk - the reference implementation, three ways:
#   build/libreshape_ref.so      a candidate like any vendor's (exports only
#                                reshape_candidate_v1)
#   build/libreshape_ref.a       the same objects, for the harness to link
#   build/san/libreshape_ref.a   built with ASan + UBSan, for sanitized tests
# Sources are every reference/*.c; internal names stay hidden in the .so.

REFERENCE_SRCS     := $(wildcard reference/*.c)
REFERENCE_OBJS     := $(REFERENCE_SRCS:%.c=$(BUILD)/obj/%.o)
REFERENCE_SAN_OBJS := $(REFERENCE_SRCS:%.c=$(BUILD)/san/obj/%.o)

$(REFERENCE_OBJS): CFLAGS += -fvisibility=hidden
$(REFERENCE_SAN_OBJS): SAN_CFLAGS += -fvisibility=hidden

$(BUILD)/libreshape_ref.so: $(REFERENCE_OBJS)
	$(CC) -shared -fvisibility=hidden -Wl,-z,defs -o $@ $^

$(BUILD)/libreshape_ref.a: $(REFERENCE_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/san/libreshape_ref.a: $(REFERENCE_SAN_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(BUILD)/libreshape_ref.so $(BUILD)/libreshape_ref.a \
               $(BUILD)/san/libreshape_ref.a
