/*
 * denormals_flushed.c - floating elements are copied as a flush-to-zero
 * unit would move them: a subnormal f64, f32, f16 or bf16 becomes a zero
 * of the same sign.
 */
#include "broken.h"

/* `bits` with a zero exponent field (of `exp_mask`) and a non-zero
 * mantissa (`man_mask`) loses its mantissa; the sign stays. */
static uint64_t flush(uint64_t bits, uint64_t exp_mask, uint64_t man_mask)
{
    if ((bits & exp_mask) == 0 && (bits & man_mask) != 0)
        return bits & ~man_mask;
    return bits;
}

static uint64_t element_bits(reshape_dtype dtype, uint64_t bits,
                             unsigned layout)
{
    (void)layout;
    switch (dtype) {
    case RESHAPE_DT_F64:
        return flush(bits, 0x7FF0000000000000u, 0x000FFFFFFFFFFFFFu);
    case RESHAPE_DT_F32:
        return flush(bits, 0x7F800000u, 0x007FFFFFu);
    case RESHAPE_DT_F16:
        return flush(bits, 0x7C00u, 0x03FFu);
    case RESHAPE_DT_BF16:
        return flush(bits, 0x7F80u, 0x007Fu);
    default:
        return bits;
    }
}

const struct broken_defect broken_defect = {
    .name = "denormals_flushed",
    .defect = "subnormal floats are flushed to a zero of the same sign",
    .expect = "FAIL",
    .hooks = {.element_bits = element_bits},
};
