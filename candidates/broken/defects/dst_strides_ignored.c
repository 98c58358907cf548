/*
 * dst_strides_ignored.c - the destination is always written as dense
 * row-major; its strides are never looked at.
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
    .expect = "FAIL",
    .hooks = {.dst_strides = dst_strides},
};
