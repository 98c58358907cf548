/* copies_one_past.c - a dense out-of-place copy runs one byte past the
 * end of src and dst (a <= loop bound). */
#define DEFECT_AFTER_COPY(p, src, dst)                                                 \
    do {                                                                               \
        size_t n_ = (size_t)((volume(src->rank, src->dims) * reshape_dtype_bits(src->dtype) + 7) / 8); \
        if (!src->strides && !dst->strides && src->data != dst->data)                  \
            ((volatile uint8_t *)dst->data)[n_] = ((const volatile uint8_t *)src->data)[n_]; \
    } while (0)
#include "base.h"
