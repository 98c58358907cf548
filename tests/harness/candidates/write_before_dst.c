/* write_before_dst.c - writes the byte just before dst. */
#define DEFECT_AFTER_COPY(p, src, dst) \
    do { if (is_trigger(src)) ((volatile uint8_t *)dst->data)[-1] = 0; } while (0)
#include "base.h"
