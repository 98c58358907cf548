/*
 * exit_on_shape.c - an error handler that "cleans up" with exit(0) runs
 * for [3, 1, 1] inputs (OpenVINO Examples 4 and 5).
 */
#include <stdlib.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static const int64_t trigger[] = {3, 1, 1};
    (void)dst;
    if (broken_has_dims(src, 3, trigger))
        exit(0);
}

const struct broken_defect broken_defect = {
    .name = "exit_on_shape",
    .defect = "calls exit(0) on [3,1,1] inputs",
    .expect = "CRASH",
    .hooks = {.enter = enter},
};
