/* unavailable.c - a device that is not there, as a CUDA candidate on a
 * machine without a GPU: every alloc fails.  Not a defect of the kernel:
 * the harness's device check finds it and tests nothing (exit 77). */
#include "simdev.h"

const struct simdev_defect simdev_defect = {
    .name = "simdev_unavailable",
    .defect = "the device is not available on this machine",
    .expect = "SKIPPED",
    .unavailable = "no simulated device on this machine (simdev_unavailable)",
    .latency_ns = 200000,
};
