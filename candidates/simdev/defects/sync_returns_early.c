/* sync_returns_early.c - synchronize returns without waiting for the
 * kernels, which start a second after their launch: what the harness
 * reads back after synchronize is dst as it was staged, the complement of
 * the payload (FAIL, "expected ..., got ..." on the first element). */
#include "simdev.h"

const struct simdev_defect simdev_defect = {
    .name = "simdev_sync_returns_early",
    .defect = "synchronize does not wait for the kernels to finish",
    .expect = "FAIL",
    .sync_returns_early = 1,
    .latency_ns = 1000000000,
};
