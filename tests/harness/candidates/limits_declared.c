/* limits_declared.c - declares limits (max_rank 2, max_volume 2048, data
 * dtypes f32, s32, s8, layouts dense and strided src, OpenVINO only) and
 * aborts when called with anything outside them: the harness must skip
 * those runs without calling it, naming the limit, and the run is
 * conformant. */
#include <stdlib.h>

#include "reshape_candidate.h"

static int outside(const reshape_tensor *t)
{
    int64_t v = 1;
    for (int32_t i = 0; i < t->rank; i++)
        v *= t->dims[i];
    return t->rank > 2 || v > 2048 ||
           (t->dtype != RESHAPE_DT_F32 && t->dtype != RESHAPE_DT_S32 && t->dtype != RESHAPE_DT_S8);
}

#define DEFECT_SUPPORTS(op, d, s, layout)                                                 \
    do {                                                                                  \
        if (op != RESHAPE_OP_OPENVINO_RESHAPE_1 || (layout & ~RESHAPE_LAYOUT_STRIDED_SRC)) \
            abort();                                                                      \
    } while (0)
#define DEFECT_INFER(p, src, rank, dims) \
    do {                                 \
        if (outside(src) || *rank > 2)   \
            abort();                     \
    } while (0)
#define DEFECT_EXECUTE(p, src, dst)                                         \
    do {                                                                    \
        if (outside(src) || outside(dst) || dst->strides || dst->data == src->data) \
            abort();                                                        \
    } while (0)

static const reshape_limits limits = {
    .struct_size = sizeof(reshape_limits),
    .max_rank = 2,
    .max_dim = -1,
    .max_volume = 2048,
    .ops = 1u << RESHAPE_OP_OPENVINO_RESHAPE_1,
    .data_dtypes = (1u << RESHAPE_DT_F32) | (1u << RESHAPE_DT_S32) | (1u << RESHAPE_DT_S8),
    .layouts = RESHAPE_LAYOUT_STRIDED_SRC,
};
#define CAND_LIMITS limits
#include "base.h"
