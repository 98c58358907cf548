/*
 * dst_strides_ignored.c - the destination is always written as dense
 * row-major; its strides are never looked at, so a padded dst has its gaps
 * overwritten.
 */
#include "broken.h"

static const int64_t *dst_strides(const reshape_tensor *dst)
{
    (void)dst;
    return NULL;
}

const struct broken_defect broken_defect = {
    .name = "dst_strides_ignored",
    .defect = "dst strides are ignored: dst is written as dense",
    .expect = "MEMORY_VIOLATION",
    .hooks = {.dst_strides = dst_strides},
};
