/*
 * bf16_rounded_on_strided_path.c - the strided path widens bf16 to f32 and
 * narrows it back with the usual round-to-nearest-even helper, whose NaN
 * branch returns the canonical NaN 0x7fc0: NaN payloads and signs are lost
 * whenever src or dst has strides.  The dense path is exact.
 */
#include <string.h>

#include "broken.h"

static uint16_t round_to_bf16(float x)
{
    if (x != x)
        return 0x7FC0;
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static uint64_t element_bits(reshape_dtype dtype, uint64_t bits,
                             unsigned layout)
{
    unsigned strided = RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST;
    if (dtype != RESHAPE_DT_BF16 || (layout & strided) == 0)
        return bits;
    uint32_t u = (uint32_t)bits << 16;
    float x;
    memcpy(&x, &u, sizeof x);
    return round_to_bf16(x);
}

const struct broken_defect broken_defect = {
    .name = "bf16_rounded_on_strided_path",
    .defect = "strided bf16 goes via f32 and back; every NaN becomes 0x7fc0",
    .expect = "FAIL",
    .hooks = {.element_bits = element_bits},
};
