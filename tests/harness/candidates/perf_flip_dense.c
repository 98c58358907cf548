/* perf_flip_dense.c - flips a bit of dst after a dense, out-of-place copy
 * of more than 64 elements: the perf profile's dense points are
 * WRONG_BYTES, never a speed. */
#define DEFECT_AFTER_COPY(p, src, dst) \
    do { if (!(dst)->strides && !(src)->strides && (dst)->data != (src)->data && \
             volume((src)->rank, (src)->dims) > 64) ((unsigned char *)(dst)->data)[0] ^= 1; } while (0)
#include "base.h"
