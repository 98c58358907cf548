/*
 * abort_on_shape.c - an internal assertion, wrong for [2, 2, 3] inputs
 * (OpenVINO Example 3), aborts the process.
 */
#include <stdio.h>
#include <stdlib.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static const int64_t trigger[] = {2, 2, 3};
    (void)dst;
    if (broken_has_dims(src, 3, trigger)) {
        fprintf(stderr, "abort_on_shape: assertion 'dims[2] != 3' failed\n");
        abort();
    }
}

const struct broken_defect broken_defect = {
    .name = "abort_on_shape",
    .defect = "a wrong assertion aborts on [2,2,3] inputs",
    .expect = "CRASH",
    .hooks = {.enter = enter},
};
