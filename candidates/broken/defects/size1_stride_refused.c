/*
 * size1_stride_refused.c - the extent check counts dims[j] * strides[j]
 * instead of (dims[j] - 1) * strides[j], so a dim of size 1 carrying a
 * huge stride (PyTorch keeps whatever stride a size-1 dim had: [1, 4] with
 * strides [2^58, 1] after a slice or an unsqueeze) looks like a tensor
 * past bit 2^63 and is refused with INVALID_ARGUMENT: the reference's own
 * mutant M0726 (volume.c), and MLX pull 2513 ("normally the stride of a
 * dim with size-one does not matter, but when passing the strides to cuDNN
 * it would lead to wrong results").  reference/DECISIONS.md D12: "Its
 * index is always 0, so its stride never moves the address and does not
 * count toward the tensor's extent."
 */
#include "broken.h"

/* 1 when sum(dims[j] * strides[j]) elements of `t` fit below bit 2^63 - 7. */
static int counted_fits(const reshape_tensor *t)
{
    int64_t reach = 0, part;
    if (t->strides == NULL)
        return 1;
    for (int32_t i = 0; i < t->rank; i++)
        if (__builtin_mul_overflow(t->dims[i], t->strides[i], &part) ||
            __builtin_add_overflow(reach, part, &reach))
            return 0;
    return reach <= (INT64_MAX - 7) / (int64_t)reshape_dtype_bits(t->dtype);
}

static reshape_status check_dst(const reshape_tensor *src,
                                const reshape_tensor *dst, int32_t rank,
                                const int64_t *dims)
{
    if (!counted_fits(src) || !counted_fits(dst))
        return RESHAPE_E_INVALID_ARGUMENT;
    return base_check_dst(src, dst, rank, dims);
}

const struct broken_defect broken_defect = {
    .name = "size1_stride_refused",
    .defect = "the extent counts dims * strides: a size-1 dim with a stride of 2^58 is refused",
    .expect = "FAIL",
    .hooks = {.check_dst = check_dst},
};
