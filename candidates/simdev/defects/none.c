/* none.c - the simulated device with nothing wrong: conformant on the whole
 * suite, every variant on its device memory. */
#include "simdev.h"

const struct simdev_defect simdev_defect = {
    .name = "simdev",
    .defect = "none",
    .expect = "PASS",
    .latency_ns = 200000,
};
