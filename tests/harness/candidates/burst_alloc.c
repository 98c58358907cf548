/*
 * burst_alloc.c - memory that grows for a while after the warm-up, then
 * stops: its calls 1900 to 2299 of execute on the f32 input of 128
 * elements (the data set's "ok_big_f32") each keep 88 bytes, the others
 * nothing.  The repeat variant samples calls 2000 to 3000: growth in 8 or
 * so of its 20 intervals is a burst, not LEAK.  (With 200 calls sampled in
 * 4 intervals, as before, every interval grew: LEAK, as ONNX Runtime got
 * once in ten full runs under load.)
 */
#include <stdlib.h>

#define BURST_FROM 1900
#define BURST_TO 2300
static void *volatile burst_kept[BURST_TO - BURST_FROM];
static int burst_calls;

#define DEFECT_EXECUTE(p, src, dst)                                                   \
    do {                                                                              \
        if (src->dtype == RESHAPE_DT_F32 && volume(src->rank, src->dims) == 128) {    \
            if (burst_calls >= BURST_FROM && burst_calls < BURST_TO)                  \
                burst_kept[burst_calls - BURST_FROM] = malloc(88);                    \
            burst_calls++;                                                            \
        }                                                                             \
    } while (0)
#include "base.h"
