/*
 * floats_through_arithmetic.c - floating elements go through a reused
 * scale-and-shift kernel, y = x * 1 + 0, in their own precision (f16 and
 * bf16 in float): -0.0 becomes +0.0 and signalling NaNs are quieted.
 */
#include <string.h>

#include "broken.h"

/* volatile: the compiler must not fold x * 1 + 0 back to x. */
static volatile float one_f = 1.0f, zero_f = 0.0f;
static volatile double one_d = 1.0, zero_d = 0.0;

static float affine(float x)
{
    return x * one_f + zero_f;
}

static uint64_t element_bits(reshape_dtype dtype, uint64_t bits,
                             unsigned layout)
{
    (void)layout;
    switch (dtype) {
    case RESHAPE_DT_F64: {
        double x;
        memcpy(&x, &bits, sizeof x);
        x = x * one_d + zero_d;
        memcpy(&bits, &x, sizeof x);
        return bits;
    }
    case RESHAPE_DT_F32: {
        uint32_t u = (uint32_t)bits;
        float x;
        memcpy(&x, &u, sizeof x);
        x = affine(x);
        memcpy(&u, &x, sizeof u);
        return u;
    }
    case RESHAPE_DT_F16: {
        uint16_t u = (uint16_t)bits;
        _Float16 h;
        memcpy(&h, &u, sizeof h);
        h = (_Float16)affine((float)h);
        memcpy(&u, &h, sizeof u);
        return u;
    }
    case RESHAPE_DT_BF16: {
        /* bf16 is the top half of an f32; the result of x * 1 + 0 on one
         * is exact, so truncating back loses nothing else. */
        uint32_t u = (uint32_t)bits << 16;
        float x;
        memcpy(&x, &u, sizeof x);
        x = affine(x);
        memcpy(&u, &x, sizeof u);
        return u >> 16;
    }
    default:
        return bits;
    }
}

const struct broken_defect broken_defect = {
    .name = "floats_through_arithmetic",
    .defect = "floats pass through x * 1 + 0: -0.0 turns +0.0, sNaNs quieted",
    .expect = "FAIL",
    .hooks = {.element_bits = element_bits},
};
