/*
 * abuse.c - the contract calls of abuse.h: names, what each needs, and
 * how the worker makes each one.  Depends on abuse.h only.
 */
#include "abuse.h"

#include <stddef.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned flags;
} abuses[ABUSE_COUNT] = {
    [ABUSE_NONE] = {NULL, 0},
    [ABUSE_PARAMS_NULL] = {"params_null", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SRC_NULL] = {"src_null", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_DST_NULL] = {"dst_null", ABUSE_ON_EXECUTE},
    [ABUSE_SHAPE_NULL] = {"shape_null", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_OUT_RANK_NULL] = {"out_rank_null", ABUSE_ON_INFER},
    [ABUSE_OUT_DIMS_NULL] = {"out_dims_null", ABUSE_ON_INFER},
    [ABUSE_SPECIAL_ZERO_2] = {"special_zero_2", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_OP_UNKNOWN] = {"op_unknown", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SRC_DTYPE_UNKNOWN] = {"src_dtype_unknown", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SRC_RANK_ABOVE_MAX] = {"src_rank_above_max", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SRC_RANK_NEGATIVE] = {"src_rank_negative", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SRC_DIMS_NULL] = {"src_dims_null", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SRC_DIM_NEGATIVE] = {"src_dim_negative",
                                ABUSE_ON_INFER | ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK},
    [ABUSE_SRC_DATA_NULL] = {"src_data_null", ABUSE_ON_EXECUTE},
    [ABUSE_SRC_STRIDE_NEGATIVE] = {"src_stride_negative", ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK},
    [ABUSE_SRC_STRIDE_ZERO] = {"src_stride_zero", ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK},
    [ABUSE_SRC_STRIDE_HUGE] = {"src_stride_huge",
                               ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK | ABUSE_NEEDS_ELEMENTS},
    [ABUSE_SRC_STRIDES_WRAP] = {"src_strides_wrap", ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK |
                                                         ABUSE_NEEDS_TWO | ABUSE_NEEDS_TWO_2D},
    [ABUSE_SHAPE_DTYPE_UNKNOWN] = {"shape_dtype_unknown", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SHAPE_RANK_ABOVE_MAX] = {"shape_rank_above_max", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SHAPE_RANK_NEGATIVE] = {"shape_rank_negative", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SHAPE_DIMS_NULL] = {"shape_dims_null", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SHAPE_DIM_NEGATIVE] = {"shape_dim_negative", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SHAPE_DIMS_WRAP] = {"shape_dims_wrap", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SHAPE_STRIDED] = {"shape_strided", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_SHAPE_DATA_NULL] = {"shape_data_null", ABUSE_ON_INFER | ABUSE_ON_EXECUTE},
    [ABUSE_DST_DTYPE_UNKNOWN] = {"dst_dtype_unknown", ABUSE_ON_EXECUTE},
    [ABUSE_DST_DTYPE_OTHER] = {"dst_dtype_other", ABUSE_ON_EXECUTE},
    [ABUSE_DST_RANK_ABOVE_MAX] = {"dst_rank_above_max", ABUSE_ON_EXECUTE},
    [ABUSE_DST_DIMS_NULL] = {"dst_dims_null", ABUSE_ON_EXECUTE},
    [ABUSE_DST_DIM_NEGATIVE] = {"dst_dim_negative", ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK},
    [ABUSE_DST_DATA_NULL] = {"dst_data_null", ABUSE_ON_EXECUTE},
    [ABUSE_DST_STRIDE_NEGATIVE] = {"dst_stride_negative", ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK},
    [ABUSE_DST_STRIDE_ZERO] = {"dst_stride_zero", ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK},
    [ABUSE_DST_STRIDE_HUGE] = {"dst_stride_huge",
                               ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK | ABUSE_NEEDS_ELEMENTS},
    [ABUSE_IN_PLACE_STRIDED] = {"in_place_strided", ABUSE_ON_EXECUTE},
    [ABUSE_DIMS_HUGE] = {"dims_huge", ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK_2},
    [ABUSE_SRC_STRIDE_WRAPS] = {"src_stride_wraps",
                                ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK | ABUSE_NEEDS_FOUR},
    [ABUSE_DIMS_MAX] = {"dims_max", ABUSE_ON_EXECUTE | ABUSE_NEEDS_RANK_2},
    [ABUSE_STRIDES_SCALAR] = {"strides_scalar", ABUSE_ON_EXECUTE | ABUSE_NEEDS_SCALAR},
};

const char *abuse_name(case_abuse a)
{
    return a > ABUSE_NONE && a < ABUSE_COUNT ? abuses[a].name : NULL;
}

int abuse_parse(const char *name)
{
    for (int a = ABUSE_NONE + 1; a < ABUSE_COUNT; a++)
        if (!strcmp(name, abuses[a].name))
            return a;
    return -1;
}

unsigned abuse_flags(case_abuse a)
{
    return a > ABUSE_NONE && a < ABUSE_COUNT ? abuses[a].flags : 0;
}

const char *abuse_names(void)
{
    static char list[1024];
    if (!list[0]) {
        size_t n = 0;
        for (int a = ABUSE_NONE + 1; a < ABUSE_COUNT; a++) {
            size_t len = strlen(abuses[a].name);
            if (n + len + 3 > sizeof list)
                break;
            if (n) {
                memcpy(list + n, ", ", 2);
                n += 2;
            }
            memcpy(list + n, abuses[a].name, len + 1);
            n += len;
        }
    }
    return list;
}

/* ------------------------------------------------------------ making */

/* `t`'s dims copied into `room`, padded with 1s to RESHAPE_MAX_RANK + 1
 * entries (the volume stays), at rank RESHAPE_MAX_RANK + 1. */
static void rank_above_max(reshape_tensor *t, int64_t *room)
{
    int32_t r = t->rank < 0 ? 0 : t->rank > RESHAPE_MAX_RANK ? RESHAPE_MAX_RANK : t->rank;
    for (int32_t i = 0; i <= RESHAPE_MAX_RANK; i++)
        room[i] = i < r && t->dims ? t->dims[i] : 1;
    t->dims = room;
    t->rank = RESHAPE_MAX_RANK + 1;
}

/* `t`'s dims copied into `room` with dims[0] = -1. */
static void dim_negative(reshape_tensor *t, int64_t *room)
{
    memcpy(room, t->dims, (size_t)t->rank * sizeof *room);
    room[0] = -1;
    t->dims = room;
}

/* Dense row-major strides of `t` into `room`, and set as its strides. */
static void dense_strides(reshape_tensor *t, int64_t *room)
{
    int64_t s = 1;
    for (int32_t i = t->rank; i-- > 0;) {
        room[i] = s;
        s *= t->dims[i] > 0 ? t->dims[i] : 1;
    }
    t->strides = room;
}

/* Dense strides for `t`, but `stride` at index 0: on a dims[0] of 1 it
 * moves no element, so only a check of the strides themselves sees it. */
static void stride_at_0(reshape_tensor *t, int64_t *room, int64_t stride)
{
    dense_strides(t, room);
    room[0] = stride;
}

/*
 * Dense strides for `t` (no dim 0) except strides[at], which with
 * dims[at] >= 2 puts the last element at the smallest element offset the
 * ABI refuses: its bits end beyond INT64_MAX - 7 (reference/DECISIONS.md
 * D11), i.e. offset >= (INT64_MAX - 7) / bits, exactly.  No process can
 * hold such a tensor, so a candidate that accepts it reads or writes
 * unmapped memory.  With dims[at] == 1 the same stride moves nothing and
 * the call is valid (D12).  No index `at`: the strides are left alone.
 */
static void stride_huge(reshape_tensor *t, int64_t *room, int32_t at)
{
    if (at < 0 || at >= t->rank)
        return;
    dense_strides(t, room);
    unsigned bits = reshape_dtype_bits(t->dtype);
    int64_t bound = (INT64_MAX - 7) / (int64_t)(bits ? bits : 8), rest = 0;
    for (int32_t i = 0; i < t->rank; i++)
        if (i != at)
            rest += (t->dims[i] - 1) * room[i];
    int64_t d = t->dims[at] - 1 > 0 ? t->dims[at] - 1 : 1;
    room[at] = (bound - rest + d - 1) / d;
}

/* Dense strides for `t` (dims[0], dims[1] >= 2, no dim 0) except the
 * first two, each of which moves the last element by 2^62 or a little
 * more: each product fits int64, their sum does not. */
static void strides_wrap(reshape_tensor *t, int64_t *room)
{
    const int64_t half = (int64_t)1 << 62;
    dense_strides(t, room);
    for (int i = 0; i < 2; i++)
        room[i] = (half + t->dims[i] - 2) / (t->dims[i] - 1);
}

/* Dense strides for `t` (dims[0] >= 4, no dim 0) except strides[0], the
 * smallest stride whose product with dims[0] - 1 reaches 2^64: in int64 the
 * product overflows, and wrapped modulo 2^64 it is below dims[0] - 1, so a
 * candidate that multiplies without checking finds the tensor small and
 * reads far outside it. */
static void stride_wraps(reshape_tensor *t, int64_t *room)
{
    dense_strides(t, room);
    uint64_t d = (uint64_t)t->dims[0] - 1; /* >= 3: the stride fits int64 */
    room[0] = (int64_t)(UINT64_MAX / d + 1);
}

/* Another dtype than `d`, of the same width where there is one. */
static reshape_dtype other_dtype(reshape_dtype d)
{
    switch (d) {
    case RESHAPE_DT_F64: return RESHAPE_DT_S64;
    case RESHAPE_DT_F32: return RESHAPE_DT_S32;
    case RESHAPE_DT_F16: return RESHAPE_DT_BF16;
    case RESHAPE_DT_BF16: return RESHAPE_DT_F16;
    case RESHAPE_DT_F8E4M3: return RESHAPE_DT_F8E5M2;
    case RESHAPE_DT_F8E5M2: return RESHAPE_DT_F8E4M3;
    case RESHAPE_DT_S64: return RESHAPE_DT_U64;
    case RESHAPE_DT_S32: return RESHAPE_DT_U32;
    case RESHAPE_DT_S16: return RESHAPE_DT_U16;
    case RESHAPE_DT_S8: return RESHAPE_DT_U8;
    case RESHAPE_DT_U64: return RESHAPE_DT_S64;
    case RESHAPE_DT_U32: return RESHAPE_DT_S32;
    case RESHAPE_DT_U16: return RESHAPE_DT_S16;
    case RESHAPE_DT_S4: return RESHAPE_DT_U4;
    case RESHAPE_DT_U4: return RESHAPE_DT_S4;
    default: return d == RESHAPE_DT_U8 ? RESHAPE_DT_S8 : RESHAPE_DT_U8;
    }
}

static void apply_shape(case_abuse a, abuse_call *k)
{
    /* the shape dims of ABUSE_SHAPE_DIMS_WRAP: each passes a guard of
     * "dims[i] <= 33 * count" but their product is 2^75 */
    static const int64_t wrap[4] = {32, (int64_t)1 << 10, (int64_t)1 << 20, (int64_t)1 << 40};
    switch (a) {
    case ABUSE_SHAPE_DTYPE_UNKNOWN: k->shape.dtype = (reshape_dtype)(RESHAPE_DT_COUNT + 1); break;
    case ABUSE_SHAPE_RANK_ABOVE_MAX: rank_above_max(&k->shape, k->dims); break;
    case ABUSE_SHAPE_RANK_NEGATIVE: k->shape.rank = -1; break;
    case ABUSE_SHAPE_DIMS_NULL: k->shape.dims = NULL; break;
    case ABUSE_SHAPE_DIM_NEGATIVE: dim_negative(&k->shape, k->dims); break;
    case ABUSE_SHAPE_DIMS_WRAP:
        memcpy(k->dims, wrap, sizeof wrap);
        k->shape.dims = k->dims;
        k->shape.rank = 4;
        break;
    case ABUSE_SHAPE_STRIDED: dense_strides(&k->shape, k->strides); break;
    case ABUSE_SHAPE_DATA_NULL: k->shape.data = NULL; break;
    default: break;
    }
}

static void apply_tensor(case_abuse a, abuse_call *k)
{
    switch (a) {
    case ABUSE_SRC_DTYPE_UNKNOWN: k->src.dtype = (reshape_dtype)(RESHAPE_DT_COUNT + 1); break;
    case ABUSE_SRC_RANK_ABOVE_MAX: rank_above_max(&k->src, k->dims); break;
    case ABUSE_SRC_RANK_NEGATIVE: k->src.rank = -1; break;
    case ABUSE_SRC_DIMS_NULL: k->src.dims = NULL; break;
    case ABUSE_SRC_DIM_NEGATIVE: dim_negative(&k->src, k->dims); break;
    case ABUSE_SRC_DATA_NULL: k->src.data = NULL; break;
    case ABUSE_SRC_STRIDE_NEGATIVE: stride_at_0(&k->src, k->strides, -1); break;
    case ABUSE_SRC_STRIDE_ZERO: stride_at_0(&k->src, k->strides, 0); break;
    case ABUSE_SRC_STRIDE_HUGE: stride_huge(&k->src, k->strides, 0); break;
    case ABUSE_SRC_STRIDES_WRAP: strides_wrap(&k->src, k->strides); break;
    case ABUSE_DST_DTYPE_UNKNOWN: k->dst.dtype = (reshape_dtype)(RESHAPE_DT_COUNT + 1); break;
    case ABUSE_DST_DTYPE_OTHER: k->dst.dtype = other_dtype(k->src.dtype); break;
    case ABUSE_DST_RANK_ABOVE_MAX: rank_above_max(&k->dst, k->dims); break;
    case ABUSE_DST_DIMS_NULL: k->dst.dims = NULL; break;
    case ABUSE_DST_DIM_NEGATIVE: dim_negative(&k->dst, k->dims); break;
    case ABUSE_DST_DATA_NULL: k->dst.data = NULL; break;
    case ABUSE_DST_STRIDE_NEGATIVE: stride_at_0(&k->dst, k->strides, -1); break;
    case ABUSE_DST_STRIDE_ZERO: stride_at_0(&k->dst, k->strides, 0); break;
    case ABUSE_DST_STRIDE_HUGE: stride_huge(&k->dst, k->strides, k->dst.rank - 1); break;
    case ABUSE_IN_PLACE_STRIDED:
        k->src.data = k->dst.data;
        dense_strides(&k->src, k->strides);
        break;
    case ABUSE_SRC_STRIDE_WRAPS: stride_wraps(&k->src, k->strides); break;
    case ABUSE_DIMS_MAX:
        /* dims[0] - 1 is the largest offset, within int64; a check that
         * counts one element past the end overflows and may pass */
        k->dims[0] = INT64_MAX;
        k->dims[1] = 1;
        k->src.dims = k->dst.dims = k->dims;
        break;
    case ABUSE_STRIDES_SCALAR:
        /* rank 0 reads no stride: the first entry is poison */
        k->strides[0] = -1;
        k->src.strides = k->dst.strides = k->strides;
        break;
    case ABUSE_DIMS_HUGE:
        /* dense on both sides: only the dims say how far the tensors
         * reach, and a check that understates a dense tensor's extent
         * lets the copy run off the buffers */
        k->dims[0] = (int64_t)1 << 29;
        k->dims[1] = (int64_t)1 << 30;
        k->src.dims = k->dst.dims = k->dims;
        break;
    default: apply_shape(a, k); break;
    }
}

void abuse_apply(case_abuse a, abuse_call *k)
{
    switch (a) {
    case ABUSE_NONE: break;
    case ABUSE_PARAMS_NULL: k->pparams = NULL; break;
    case ABUSE_SRC_NULL: k->psrc = NULL; break;
    case ABUSE_DST_NULL: k->pdst = NULL; break;
    case ABUSE_SHAPE_NULL: k->params.shape = NULL; break;
    case ABUSE_OUT_RANK_NULL: k->out_rank = NULL; break;
    case ABUSE_OUT_DIMS_NULL: k->out_dims = NULL; break;
    case ABUSE_SPECIAL_ZERO_2: k->params.special_zero = 2; break;
    case ABUSE_OP_UNKNOWN: k->params.op = (reshape_op)(RESHAPE_OP_COUNT + 1); break;
    default: apply_tensor(a, k); break;
    }
}
