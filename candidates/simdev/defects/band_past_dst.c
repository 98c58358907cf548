/* band_past_dst.c - the kernel writes 16 bytes after dst's last byte on the
 * device: the harness reads the canaries after dst back and finds them
 * changed (MEMORY_VIOLATION, "wrote N bytes past the end of dst"). */
#include "simdev.h"

const struct simdev_defect simdev_defect = {
    .name = "simdev_band_past_dst",
    .defect = "the kernel writes 16 bytes past dst's end in device memory",
    .expect = "MEMORY_VIOLATION",
    .band_past_dst = 16,
    .latency_ns = 200000,
};
