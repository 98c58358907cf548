/*
 * src_strides_ignored.c - the source is always read as dense row-major;
 * its strides are never looked at.
 */
#include "broken.h"

static const int64_t *src_strides(const reshape_tensor *src)
{
    (void)src;
    return NULL;
}

const struct broken_defect broken_defect = {
    .name = "src_strides_ignored",
    .defect = "src strides are ignored: src is read as dense",
    .expect = "FAIL",
    .hooks = {.src_strides = src_strides},
};
