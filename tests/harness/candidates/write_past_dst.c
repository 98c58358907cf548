/* write_past_dst.c - writes one byte past the end of a dense dst. */
#define DEFECT_AFTER_COPY(p, src, dst)                                                 \
    do {                                                                               \
        if (is_trigger(src) && !dst->strides && src->data != dst->data)               \
            ((volatile uint8_t *)dst->data)[(24 * reshape_dtype_bits(dst->dtype) + 7) / 8] = 0; \
    } while (0)
#include "base.h"
