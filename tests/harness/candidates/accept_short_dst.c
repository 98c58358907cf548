/* accept_short_dst.c - execute returns OK, writing nothing, when dst holds
 * fewer elements than src: it accepts the dst_too_small variant's dst. */
#define DEFECT_EXECUTE(p, src, dst)                                          \
    do {                                                                     \
        if (volume(dst->rank, dst->dims) < volume(src->rank, src->dims))     \
            return RESHAPE_OK;                                               \
    } while (0)
#include "base.h"
