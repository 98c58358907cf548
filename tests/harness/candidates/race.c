/* race.c - copies dense tensors through one global scratch buffer, byte by
 * byte, and yields the processor between filling and draining it (as a
 * kernel waiting for a device would), so concurrent calls overwrite each
 * other's data. */
#include <sched.h>
#include <stdint.h>
#include <string.h>
static volatile uint8_t scratch[1 << 16];
#define DEFECT_COPY(p, src, dst, n, bits)                                        \
    do {                                                                         \
        size_t len_ = (size_t)((n * bits + 7) / 8);                              \
        if (len_ > sizeof scratch || src->strides || dst->strides ||            \
            src->data == dst->data) {                                            \
            for (int64_t i_ = 0; i_ < n && src->data != dst->data; i_++)         \
                copy_element(src, offset_of(src, i_), dst, offset_of(dst, i_), bits); \
            break;                                                               \
        }                                                                        \
        for (size_t k_ = 0; k_ < len_; k_++)                                     \
            scratch[k_] = ((const uint8_t *)src->data)[k_];                      \
        sched_yield();                                                           \
        for (size_t k_ = 0; k_ < len_; k_++)                                     \
            ((uint8_t *)dst->data)[k_] = scratch[k_];                            \
    } while (0)
#include "base.h"
