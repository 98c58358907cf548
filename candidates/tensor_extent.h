/*
 * tensor_extent.h - the ABI header's rule on a tensor's extent, shared by
 * the library adapters' glue (adapter_common.c) and the broken kernels'
 * base (broken/base/execute.c).  Depends on the ABI header only.
 */
#ifndef TENSOR_EXTENT_H
#define TENSOR_EXTENT_H

#include <stdint.h>

#include "reshape_candidate.h"

/* 1 when every bit of `t`'s elements lies below 2^63 - 7 from its data
 * (include/reshape_candidate.h, reshape_tensor): the offset of the last
 * element, dense or by its strides (taken as >= 0), in bits, plus one
 * element; an empty tensor addresses nothing.  0 otherwise, an overflow
 * on the way included.  Assumes dims >= 0 and dims non-NULL when ranked. */
static inline int tensor_addressable(const reshape_tensor *t)
{
    int64_t last = 0, part, dense = 1;
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] == 0)
            return 1;
    for (int32_t i = t->rank; i-- > 0;) {
        int64_t stride = t->strides != NULL ? t->strides[i] : dense;
        if (__builtin_mul_overflow(t->dims[i] - 1, stride, &part) ||
            __builtin_add_overflow(last, part, &last) ||
            __builtin_mul_overflow(dense, t->dims[i], &dense))
            return 0;
    }
    return last <= (INT64_MAX - 7) / (int64_t)reshape_dtype_bits(t->dtype) - 1;
}

#endif /* TENSOR_EXTENT_H */
