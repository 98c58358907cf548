/* copies_on_host.c - execute copies the elements on the calling thread, as
 * if src->data and dst->data were host pointers: the first read of device
 * memory faults, as on a GPU (CRASH, "SIGSEGV at address ... in execute";
 * the worker's line says host code dereferenced a device pointer). */
#include "simdev.h"

const struct simdev_defect simdev_defect = {
    .name = "simdev_copies_on_host",
    .defect = "execute reads src through the device pointer on the host",
    .expect = "CRASH",
    .copies_on_host = 1,
    .latency_ns = 200000,
};
