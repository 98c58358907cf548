/* write_into_src.c - flips a bit of src in an out-of-place call. */
#define DEFECT_AFTER_COPY(p, src, dst) \
    do { if (is_trigger(src) && src->data != dst->data) ((volatile uint8_t *)src->data)[0] ^= 1; } while (0)
#include "base.h"
