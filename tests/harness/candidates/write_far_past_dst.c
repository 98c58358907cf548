/* write_far_past_dst.c - writes a byte 4 KiB past the end of dst: beyond
 * any canary slack, into the guard page. */
#define DEFECT_AFTER_COPY(p, src, dst)                                                 \
    do {                                                                               \
        if (is_trigger(src) && src->data != dst->data)                                 \
            ((volatile uint8_t *)dst->data)[4096] = 0;                                 \
    } while (0)
#include "base.h"
