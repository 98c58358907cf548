/*
 * aliasing_dst_written.c - a dst whose elements overlap (a stride of 0 on
 * a dim of 4: an expand()ed out tensor) is not refused but written as if
 * it were dense, over the memory past its one addressed element: the
 * kernel treats any dst its fast path does not recognise as contiguous,
 * where PyTorch's out= kernels call assert_no_internal_overlap first.
 * reference/DECISIONS.md D12: "a dst two of whose elements have the same
 * offset has no defined result; execute refuses it with
 * RESHAPE_E_INVALID_ARGUMENT and writes nothing."
 */
#include "broken.h"

static const int64_t *dst_strides(const reshape_tensor *dst)
{
    for (int32_t i = 0; dst->strides != NULL && i < dst->rank; i++)
        if (dst->strides[i] == 0 && dst->dims[i] > 1)
            return NULL;
    return dst->strides;
}

const struct broken_defect broken_defect = {
    .name = "aliasing_dst_written",
    .defect = "a dst with a stride of 0 on a dim above 1 is written as dense, not refused",
    .expect = "MEMORY_VIOLATION",
    .hooks = {.dst_strides = dst_strides},
};
