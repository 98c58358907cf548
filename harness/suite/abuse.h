/*
 * abuse.h - contract calls: the one deviation from a well-formed call that
 * a case's `abuse:` asks for (cases/FORMAT.md, "Contract cases"), its name,
 * which calls it applies to, and the worker's way of making it just before
 * it calls the candidate.  Each one breaks (or, for the forms the ABI
 * allows, exercises) one sentence of include/reshape_candidate.h; the rest
 * of the call is the case's own, so that only the abuse can make it fail.
 * Depends on the ABI header only.
 */
#ifndef HARNESS_ABUSE_H
#define HARNESS_ABUSE_H

#include <stdint.h>

#include "reshape_candidate.h"

typedef enum case_abuse {
    ABUSE_NONE,
    ABUSE_PARAMS_NULL,          /* params is NULL */
    ABUSE_SRC_NULL,             /* src is NULL */
    ABUSE_DST_NULL,             /* dst is NULL (execute) */
    ABUSE_SHAPE_NULL,           /* params->shape is NULL */
    ABUSE_OUT_RANK_NULL,        /* out_rank is NULL (infer_shape) */
    ABUSE_OUT_DIMS_NULL,        /* out_dims is NULL (infer_shape) */
    ABUSE_SPECIAL_ZERO_2,       /* special_zero is 2 */
    ABUSE_OP_UNKNOWN,           /* op is RESHAPE_OP_COUNT + 1 */
    ABUSE_SRC_DTYPE_UNKNOWN,    /* src->dtype is RESHAPE_DT_COUNT + 1 */
    ABUSE_SRC_RANK_ABOVE_MAX,   /* src->rank is RESHAPE_MAX_RANK + 1 (dims padded with 1s) */
    ABUSE_SRC_RANK_NEGATIVE,    /* src->rank is -1 */
    ABUSE_SRC_DIMS_NULL,        /* src->dims is NULL (allowed at rank 0) */
    ABUSE_SRC_DIM_NEGATIVE,     /* src->dims[0] is -1 */
    ABUSE_SRC_DATA_NULL,        /* src->data is NULL (execute; allowed at volume 0) */
    ABUSE_SRC_STRIDE_NEGATIVE,  /* src has dense strides but strides[0] = -1 (execute) */
    ABUSE_SRC_STRIDE_ZERO,      /* src has dense strides but strides[0] = 0 (execute; allowed:
                                   on a dim of 1 it moves nothing, on a larger one it is a
                                   broadcast, D12) */
    ABUSE_SRC_STRIDE_HUGE,      /* src->strides[0] puts the last element past bit 2^63 (execute;
                                   on a dim of 1 it moves nothing and is allowed, D12) */
    ABUSE_SRC_STRIDES_WRAP,     /* src->strides[0], [1] each move 2^62 elements: the last
                                   element's offset is 2^63, past int64 (execute) */
    ABUSE_SHAPE_DTYPE_UNKNOWN,  /* shape->dtype is RESHAPE_DT_COUNT + 1 */
    ABUSE_SHAPE_RANK_ABOVE_MAX, /* shape->rank is RESHAPE_MAX_RANK + 1 (dims padded with 1s) */
    ABUSE_SHAPE_RANK_NEGATIVE,  /* shape->rank is -1 */
    ABUSE_SHAPE_DIMS_NULL,      /* shape->dims is NULL */
    ABUSE_SHAPE_DIM_NEGATIVE,   /* shape->dims[0] is -1 */
    ABUSE_SHAPE_DIMS_WRAP,      /* shape dims [32, 2^10, 2^20, 2^40]: 2^75 values, 0 mod 2^64 */
    ABUSE_SHAPE_STRIDED,        /* shape->strides is non-NULL (dense) */
    ABUSE_SHAPE_DATA_NULL,      /* shape->data is NULL (allowed with no values) */
    ABUSE_DST_DTYPE_UNKNOWN,    /* dst->dtype is RESHAPE_DT_COUNT + 1 (execute) */
    ABUSE_DST_DTYPE_OTHER,      /* dst->dtype is another dtype than src's (execute) */
    ABUSE_DST_RANK_ABOVE_MAX,   /* dst->rank is RESHAPE_MAX_RANK + 1 (execute) */
    ABUSE_DST_DIMS_NULL,        /* dst->dims is NULL (execute) */
    ABUSE_DST_DIM_NEGATIVE,     /* dst->dims[0] is -1 (execute) */
    ABUSE_DST_DATA_NULL,        /* dst->data is NULL (execute; allowed at volume 0) */
    ABUSE_DST_STRIDE_NEGATIVE,  /* as for src (execute) */
    ABUSE_DST_STRIDE_ZERO,      /* as for src (execute; on a dim above 1 dst's elements
                                   overlap: refused, D12) */
    ABUSE_DST_STRIDE_HUGE,      /* as for src, on the last dim (execute) */
    ABUSE_IN_PLACE_STRIDED,     /* src->data = dst->data, src with (dense) strides (execute) */
    ABUSE_DIMS_HUGE,            /* src and dst dims [2^29, 2^30], dense: 2^59 elements, their
                                   bits past 2^63 for 16 bits and more (execute) */
    ABUSE_SRC_STRIDE_WRAPS,     /* src->strides[0] = ceil(2^64 / (dims[0] - 1)): the product
                                   (dims[0] - 1) * strides[0] leaves int64, and wrapped modulo
                                   2^64 it is a small offset (execute) */
    ABUSE_DIMS_MAX,             /* src and dst dims [2^63 - 1, 1], dense: dims[0] - 1 fits int64,
                                   dims[0] + 1 does not (execute) */
    ABUSE_STRIDES_SCALAR,       /* a scalar src and dst, each with a strides pointer to no
                                   entries (a -1 after it as poison) (execute; allowed) */
    ABUSE_COUNT
} case_abuse;

/* What an abuse needs of its case, checked by the case loader. */
#define ABUSE_ON_INFER 1u       /* the infer variant makes the call */
#define ABUSE_ON_EXECUTE 2u     /* the dense variant makes the call */
#define ABUSE_NEEDS_RANK 4u     /* an input of rank >= 1 (it changes index 0) */
#define ABUSE_NEEDS_TWO 8u      /* an input whose first and last dims are >= 2, no dim 0 */
#define ABUSE_NEEDS_TWO_2D 16u  /* ... and dims[1] >= 2 too */
#define ABUSE_NEEDS_RANK_2 32u  /* an input of rank 2, a shape of 2 values (meant to copy
                                   both dims: [0, 0] with special_zero) */
#define ABUSE_NEEDS_FOUR 64u    /* an input whose dims[0] >= 4, no dim 0 */
#define ABUSE_NEEDS_SCALAR 128u /* an input of rank 0 and a shape of no values */
#define ABUSE_NEEDS_ELEMENTS 256u /* an input of volume >= 1 (no dim 0) */

/* "params_null", ... as cases spell it; NULL for ABUSE_NONE or outside. */
const char *abuse_name(case_abuse a);
/* The abuse named `name`, or -1. */
int abuse_parse(const char *name);
/* The ABUSE_ON_* and ABUSE_NEEDS_* flags of `a`; 0 for ABUSE_NONE. */
unsigned abuse_flags(case_abuse a);
/* Every name, comma-separated, for a loader's message (static). */
const char *abuse_names(void);

/*
 * One call as the candidate gets it.  The worker builds a well-formed call
 * in `params`, `shape`, `src`, `dst` (which it owns; params.shape points
 * at `shape`) and the pointers below at them; abuse_apply then changes the
 * one thing the abuse names, using `dims`/`strides` for arrays it must
 * make.
 */
typedef struct abuse_call {
    reshape_params params;
    reshape_tensor shape, src, dst;
    const reshape_params *pparams;
    const reshape_tensor *psrc, *pdst;
    int32_t *out_rank;
    int64_t *out_dims;
    int64_t dims[RESHAPE_MAX_RANK + 1];
    int64_t strides[RESHAPE_MAX_RANK + 1];
} abuse_call;

/* Applies abuse `a` to `k` (nothing for ABUSE_NONE or an unknown value). */
void abuse_apply(case_abuse a, abuse_call *k);

#endif
