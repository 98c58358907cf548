/*
 * warmup_alloc.c - a kernel that warms up: its first WARM_CALLS executes
 * on the f32 input of 128 elements (the data set's "ok_big_f32") each keep
 * 88 bytes in a cache it holds on to, later calls allocate nothing.  Growth
 * that stops is no leak; ONNX Runtime was seen to grow ~88 bytes per call
 * over its first calls and stay flat after 2000.
 */
#include <stdlib.h>

#define WARM_CALLS 1500
static void *volatile warm_cache[WARM_CALLS];
static int warm_calls;

#define DEFECT_EXECUTE(p, src, dst)                                                   \
    do {                                                                              \
        if (src->dtype == RESHAPE_DT_F32 && volume(src->rank, src->dims) == 128 &&    \
            warm_calls < WARM_CALLS) {                                                \
            warm_cache[warm_calls] = malloc(88);                                      \
            warm_calls++;                                                             \
        }                                                                             \
    } while (0)
#include "base.h"
