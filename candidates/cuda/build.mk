# candidates/cuda/build.mk - build/cuda/reshape_cuda.so, the CUDA candidate
# (candidates/cuda/README.md): no CUDA toolkit needed, the driver is
# dlopen'd at run time and the kernel is PTX text (reshape_gather.ptx,
# embedded by ptx.S).  It links the reference's objects but its table and
# copy, its execute.o with the copy call renamed reshape_device_copy (the
# rule is in candidates/simdev/build.mk) and candidates/device_rules.c.
#   make test-cuda-ptx   ptxas -arch=sm_90 on the PTX, where ptxas is
#                        (PTXAS, default: on PATH, else /usr/local/cuda/bin)

CUDA_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard candidates/cuda/*.c)) \
             $(BUILD)/obj/candidates/cuda/ptx.o

$(BUILD)/obj/candidates/cuda/%.o: CFLAGS += -fvisibility=hidden -Icandidates/cuda -Icandidates \
                                           -Ireference

$(BUILD)/obj/candidates/cuda/ptx.o: candidates/cuda/ptx.S candidates/cuda/reshape_gather.ptx
	@mkdir -p $(@D)
	$(CC) -c $< -o $@

CUDA_REF_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out reference/candidate.c \
    reference/execute.c reference/copy.c,$(wildcard reference/*.c))) \
    $(BUILD)/device/ref_execute.o $(BUILD)/obj/candidates/device_rules.o

$(BUILD)/cuda/reshape_cuda.so: $(CUDA_OBJS) $(CUDA_REF_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-z,defs -o $@ $^ -ldl -pthread

ALL_TARGETS += $(BUILD)/cuda/reshape_cuda.so
