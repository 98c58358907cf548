/*
 * broadcast_read_as_dense.c - a broadcast src (a stride of 0 on a dim
 * larger than 1, as torch.expand and numpy.broadcast_to make) is read as
 * if it were dense: the kernel's "is it contiguous?" test skips the dims
 * whose stride is 0, so an expanded view passes it and the copy runs on
 * from the one stored row into whatever follows it (tinygrad pull 10536,
 * "stride-0 reshape", fixed such a fast path).  reference/DECISIONS.md D12:
 * "Each element is read from its own offset, so the values repeat."
 */
#include "broken.h"

static const int64_t *src_strides(const reshape_tensor *src)
{
    for (int32_t i = 0; src->strides != NULL && i < src->rank; i++)
        if (src->strides[i] == 0 && src->dims[i] > 1)
            return NULL;
    return src->strides;
}

const struct broken_defect broken_defect = {
    .name = "broadcast_read_as_dense",
    .defect = "a broadcast src (stride 0 on a dim above 1) is read as dense, past its one "
              "stored row",
    .expect = "FAIL",
    .hooks = {.src_strides = src_strides},
};
