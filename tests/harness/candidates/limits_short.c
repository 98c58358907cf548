/* limits_short.c - a limits table compiled against an older header: its
 * struct_size covers max_rank alone, so the harness must read max_rank 2
 * and nothing after it (the data_dtypes below, which would skip every
 * case, lie outside struct_size and are no limit). */
#include <stddef.h>

#include "reshape_candidate.h"

static const reshape_limits limits = {
    .struct_size = offsetof(reshape_limits, max_dim),
    .max_rank = 2,
    .max_dim = 1,
    .max_volume = 1,
    .ops = 1u << RESHAPE_OP_ONNX_RESHAPE_14,
    .data_dtypes = 1u << RESHAPE_DT_F64,
    .layouts = 0,
};
#define CAND_LIMITS limits
#include "base.h"
