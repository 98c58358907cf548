/*
 * segfault_on_shape.c - a special path for [2, 5, 5, 24] inputs (OpenVINO
 * Example 2) reads src strides without testing for NULL: a dense src
 * faults.
 */
#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static const int64_t trigger[] = {2, 5, 5, 24};
    (void)dst;
    if (broken_has_dims(src, 4, trigger)) {
        const int64_t *volatile strides = src->strides;
        volatile int64_t inner = strides[3];
        (void)inner;
    }
}

const struct broken_defect broken_defect = {
    .name = "segfault_on_shape",
    .defect = "dense [2,5,5,24] input: reads NULL strides and faults",
    .expect = "CRASH",
    .hooks = {.enter = enter},
};
