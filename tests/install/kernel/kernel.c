/*
 * kernel.c - a small candidate built out of the tree against the installed
 * ABI header alone (`cc $(pkg-config --cflags reshape-candidate)`), as a
 * kernel engineer writes one: OpenVINO Reshape-1 on dense tensors, its copy
 * done by the library it links (helper.c, libkernel_helper.so.1).  It
 * declares its limits (reshape_limits: OpenVINO only, dense out of place,
 * rank 8 at most), so the harness skips the rest without calling it, and it
 * takes the type rules from the header (reshape_op_accepts_data_dtype).
 * tests/install/installed.sh runs, certifies and verifies it.
 */
#include <reshape_candidate.h>
#include <stddef.h>

void kernel_helper_copy(void *dst, const void *src, size_t bytes);

#define MAX_RANK 8

static reshape_status supports(reshape_op op, reshape_dtype d, reshape_dtype s, unsigned layout)
{
    (void)op; (void)d; (void)s; (void)layout;
    return RESHAPE_OK;  /* what it lacks, its limits say */
}

/* Shape value i of `shape` as int64; -2 for an unsigned value above
 * INT64_MAX (an error either way). */
static int64_t value(const reshape_tensor *shape, int64_t i)
{
    const void *p = shape->data;
    switch (shape->dtype) {
    case RESHAPE_DT_S64: return ((const int64_t *)p)[i];
    case RESHAPE_DT_S32: return ((const int32_t *)p)[i];
    case RESHAPE_DT_S16: return ((const int16_t *)p)[i];
    case RESHAPE_DT_S8: return ((const int8_t *)p)[i];
    case RESHAPE_DT_U64: {
        uint64_t v = ((const uint64_t *)p)[i];
        return v > (uint64_t)INT64_MAX ? -2 : (int64_t)v;
    }
    case RESHAPE_DT_U32: return ((const uint32_t *)p)[i];
    case RESHAPE_DT_U16: return ((const uint16_t *)p)[i];
    default: return ((const uint8_t *)p)[i];
    }
}

/* a * b, or -1 when it leaves int64 (both >= 0) */
static int64_t mul(int64_t a, int64_t b)
{
    return b != 0 && a > INT64_MAX / b ? -1 : a * b;
}

static reshape_status infer(const reshape_params *p, const reshape_tensor *src, int32_t *rank,
                            int64_t *dims)
{
    if (!p || !src || !rank || !dims || !p->shape || p->special_zero < 0 ||
        p->special_zero > 1 || src->rank < 0 || src->rank > RESHAPE_MAX_RANK ||
        (src->rank && !src->dims))
        return RESHAPE_E_INVALID_ARGUMENT;
    const reshape_tensor *shape = p->shape;
    if (!reshape_op_accepts_data_dtype(p->op, src->dtype))
        return RESHAPE_E_DATA_TYPE;
    if (!reshape_op_accepts_shape_dtype(p->op, shape->dtype))
        return RESHAPE_E_SHAPE_TYPE;
    if (shape->rank != 1)
        return RESHAPE_E_SHAPE_NOT_1D;
    int64_t n = shape->dims[0], volume = 1, known = 1, minus = -1;
    if (n < 0 || n > RESHAPE_MAX_RANK || (n && !shape->data))
        return RESHAPE_E_INVALID_ARGUMENT;
    for (int32_t i = 0; i < src->rank; i++)
        if (src->dims[i] < 0)
            return RESHAPE_E_INVALID_ARGUMENT;
    for (int32_t i = 0; i < src->rank; i++)
        volume = volume < 0 || src->dims[i] == 0 ? (src->dims[i] == 0 ? 0 : -1)
                                                 : mul(volume, src->dims[i]);
    for (int32_t i = 0; i < src->rank; i++)
        if (src->dims[i] == 0)
            volume = 0;
    if (volume < 0)
        return RESHAPE_E_OVERFLOW;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = value(shape, i);
        if (v == -1) {
            if (minus >= 0)
                return RESHAPE_E_MULTIPLE_MINUS_ONE;
            minus = i;
            continue;
        }
        if (v < -1)
            return v == -2 && shape->dtype == RESHAPE_DT_U64 ? RESHAPE_E_OVERFLOW
                                                            : RESHAPE_E_BELOW_MINUS_ONE;
        if (v == 0 && p->special_zero) {
            if (i >= src->rank)
                return RESHAPE_E_ZERO_OUT_OF_RANGE;
            v = src->dims[i];
        }
        dims[i] = v;
    }
    for (int64_t i = 0; i < n; i++)
        if (i != minus)
            known = known == 0 || dims[i] == 0 ? 0 : known < 0 ? -1 : mul(known, dims[i]);
    if (minus >= 0 && known == 0 && volume != 0) {
        return RESHAPE_E_ZERO_AND_MINUS_ONE;
    } else if (minus >= 0 && known == 0) {
        dims[minus] = 0;    /* empty into empty (DECISIONS.md D1) */
    } else if (minus >= 0) {
        if (known < 0)
            return RESHAPE_E_OVERFLOW;
        if (volume % known)
            return RESHAPE_E_NOT_DIVISIBLE;
        dims[minus] = volume / known;
    } else if (known < 0) {
        return RESHAPE_E_OVERFLOW;
    } else if (known != volume) {
        return RESHAPE_E_VOLUME_MISMATCH;
    }
    *rank = (int32_t)n;
    return RESHAPE_OK;
}

static reshape_status execute(const reshape_params *p, const reshape_tensor *src,
                              const reshape_tensor *dst)
{
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    reshape_status st = infer(p, src, &rank, dims);
    if (st != RESHAPE_OK)
        return st;
    if (!dst || dst->dtype != src->dtype || dst->rank != rank || src->strides || dst->strides ||
        dst->data == src->data)
        return RESHAPE_E_INVALID_ARGUMENT;
    int64_t volume = 1;
    for (int32_t i = 0; i < rank; i++) {
        if (dst->dims[i] != dims[i])
            return RESHAPE_E_INVALID_ARGUMENT;
        volume *= dims[i];
    }
    if (volume > 0 && (!src->data || !dst->data))
        return RESHAPE_E_INVALID_ARGUMENT;
    kernel_helper_copy(dst->data, src->data,
                       (size_t)((volume * reshape_dtype_bits(src->dtype) + 7) / 8));
    return RESHAPE_OK;
}

static const reshape_limits limits = {
    .struct_size = sizeof(reshape_limits),
    .max_rank = MAX_RANK,
    .max_dim = -1,
    .max_volume = -1,
    .ops = 1u << RESHAPE_OP_OPENVINO_RESHAPE_1,
    .data_dtypes = 0,
    .layouts = 0,
};

static const reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .name = "My Kernel (out of tree)",
    .version = "1.0",
    .supports = supports,
    .infer_shape = infer,
    .execute = execute,
    .limits = &limits,
};

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    return &table;
}
