/* leaks_device_memory.c - every execute allocates 256 bytes of device
 * memory and never releases them: memory_in_use grows call after call
 * (LEAK on repeat). */
#include "simdev.h"

const struct simdev_defect simdev_defect = {
    .name = "simdev_leaks_device_memory",
    .defect = "execute leaks 256 bytes of device memory per call",
    .expect = "LEAK",
    .leak_per_call = 256,
    .latency_ns = 200000,
};
