/*
 * rules.c - shape inference of the broken candidates' base kernel: the
 * rules of reference/DECISIONS.md in their order, each step a hook.
 * Depends on broken.h, the ABI header and candidates/shape_types.h.
 */
#include "broken.h"
#include "../../shape_types.h"

/* ----------------------------------------------------- rule 1: arguments */

static int known_op(reshape_op op)
{
    return op >= 1 && op <= RESHAPE_OP_COUNT;
}

static int known_dtype(reshape_dtype dtype)
{
    return dtype >= 1 && dtype <= RESHAPE_DT_COUNT;
}

/* Rank in 0..RESHAPE_MAX_RANK, dims present and >= 0. */
static int good_dims(const reshape_tensor *t)
{
    if (t->rank < 0 || t->rank > RESHAPE_MAX_RANK)
        return 0;
    if (t->rank > 0 && t->dims == NULL)
        return 0;
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] < 0)
            return 0;
    return 1;
}

/*
 * Number of values the shape tensor holds, or -1 when more than
 * RESHAPE_MAX_RANK (the output rank would be out of range).
 */
static int64_t shape_value_count(const reshape_tensor *shape)
{
    int64_t n = 1;
    for (int32_t i = 0; i < shape->rank; i++) {
        if (shape->dims[i] == 0)
            return 0;
    }
    for (int32_t i = 0; i < shape->rank; i++) {
        if (shape->dims[i] > RESHAPE_MAX_RANK)
            return -1;
        n *= shape->dims[i];
        if (n > RESHAPE_MAX_RANK)
            return -1;
    }
    return n;
}

static reshape_status check_arguments(const reshape_params *params,
                                      const reshape_tensor *src,
                                      int64_t *count)
{
    if (params == NULL || src == NULL || params->shape == NULL)
        return RESHAPE_E_INVALID_ARGUMENT;
    const reshape_tensor *shape = params->shape;
    if (params->special_zero != 0 && params->special_zero != 1)
        return RESHAPE_E_INVALID_ARGUMENT;
    if (!known_op(params->op) || !known_dtype(src->dtype)
        || !known_dtype(shape->dtype))
        return RESHAPE_E_INVALID_ARGUMENT;
    if (!good_dims(src) || !good_dims(shape) || shape->strides != NULL)
        return RESHAPE_E_INVALID_ARGUMENT;
    *count = shape_value_count(shape);
    if (*count < 0)
        return RESHAPE_E_INVALID_ARGUMENT;
    if (*count > 0 && shape->data == NULL)
        return RESHAPE_E_INVALID_ARGUMENT;
    return RESHAPE_OK;
}

/* ------------------------------------------------- rules 2-4: the types */

reshape_status base_check_data_type(reshape_op op, reshape_dtype dtype)
{
    if (op == RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1
        || op == RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1) {
        /* "T: f32,f16,bf16" */
        if (dtype != RESHAPE_DT_F32 && dtype != RESHAPE_DT_F16
            && dtype != RESHAPE_DT_BF16)
            return RESHAPE_E_DATA_TYPE;
    }
    /* OpenVINO "any numeric type" and ONNX "any tensor type": all 18. */
    return RESHAPE_OK;
}

/* D7: which shape dtypes each operation takes (candidates/shape_types.h). */
static reshape_status check_shape_type(reshape_op op, reshape_dtype dtype)
{
    if (!known_op(op))
        return RESHAPE_E_INVALID_ARGUMENT;
    return shape_type_allowed(op, dtype) ? RESHAPE_OK : RESHAPE_E_SHAPE_TYPE;
}

reshape_status base_check_shape_rank(const reshape_tensor *shape)
{
    return shape->rank == 1 ? RESHAPE_OK : RESHAPE_E_SHAPE_NOT_1D;
}

/* ---------------------------------------------------- rule 5: the values */

reshape_status base_read_value(const reshape_tensor *shape, int64_t i,
                               int64_t *value)
{
    unsigned bits = reshape_dtype_bits(shape->dtype);
    uint64_t raw = broken_load(shape->data, i, bits);
    switch (shape->dtype) {
    case RESHAPE_DT_S64: *value = (int64_t)raw; break;
    case RESHAPE_DT_S32: *value = (int32_t)(uint32_t)raw; break;
    case RESHAPE_DT_S16: *value = (int16_t)(uint16_t)raw; break;
    case RESHAPE_DT_S8: *value = (int8_t)(uint8_t)raw; break;
    case RESHAPE_DT_U64:
        if (raw > (uint64_t)INT64_MAX)
            return RESHAPE_E_OVERFLOW;
        *value = (int64_t)raw;
        break;
    case RESHAPE_DT_U32: case RESHAPE_DT_U16: case RESHAPE_DT_U8:
        *value = (int64_t)raw;
        break;
    default:
        return RESHAPE_E_SHAPE_TYPE;
    }
    return RESHAPE_OK;
}

reshape_status base_check_value(int64_t *value)
{
    return *value < -1 ? RESHAPE_E_BELOW_MINUS_ONE : RESHAPE_OK;
}

/* -------------------------------------------- rules 6-7: -1 and copying 0 */

int base_special_zero(const reshape_params *params)
{
    return params->special_zero;
}

reshape_status base_copy_zero(int32_t i, int32_t shape_len,
                              const reshape_tensor *src, int64_t *dim)
{
    (void)shape_len;
    if (i >= src->rank)
        return RESHAPE_E_ZERO_OUT_OF_RANGE;
    *dim = src->dims[i];
    return RESHAPE_OK;
}

/* ------------------------------------------------ rules 8-11: the volumes */

reshape_status base_volume(int32_t rank, const int64_t *dims, int64_t *volume)
{
    for (int32_t i = 0; i < rank; i++) {
        if (dims[i] == 0) {
            *volume = 0;
            return RESHAPE_OK;
        }
    }
    int64_t v = 1;
    for (int32_t i = 0; i < rank; i++) {
        if (v > INT64_MAX / dims[i])
            return RESHAPE_E_OVERFLOW;
        v *= dims[i];
    }
    *volume = v;
    return RESHAPE_OK;
}

reshape_status base_solve_minus_one(int64_t volume, int64_t known,
                                    int64_t *dim)
{
    if (known == 0)
        return RESHAPE_E_ZERO_AND_MINUS_ONE;
    if (volume % known != 0)
        return RESHAPE_E_NOT_DIVISIBLE;
    *dim = volume / known;
    return RESHAPE_OK;
}

reshape_status base_check_volume(int64_t volume, int64_t known, int32_t rank,
                                 const int64_t *dims)
{
    (void)rank;
    (void)dims;
    return known == volume ? RESHAPE_OK : RESHAPE_E_VOLUME_MISMATCH;
}

/* ------------------------------------------------------------- inference */

reshape_status broken_infer(const reshape_params *params,
                            const reshape_tensor *src, int32_t *out_rank,
                            int64_t *out_dims)
{
    int64_t count;
    reshape_status st = check_arguments(params, src, &count);
    if (st == RESHAPE_OK && (out_rank == NULL || out_dims == NULL))
        st = RESHAPE_E_INVALID_ARGUMENT;
    if (st != RESHAPE_OK)
        return st;
    const reshape_tensor *shape = params->shape;
    if ((st = HOOK(check_data_type)(params->op, src->dtype)) != RESHAPE_OK)
        return st;
    if ((st = check_shape_type(params->op, shape->dtype)) != RESHAPE_OK)
        return st;
    if ((st = HOOK(check_shape_rank)(shape)) != RESHAPE_OK)
        return st;

    int32_t rank = (int32_t)count;
    int64_t dims[RESHAPE_MAX_RANK];
    for (int32_t i = 0; i < rank; i++) {
        if ((st = HOOK(read_value)(shape, i, &dims[i])) != RESHAPE_OK)
            return st;
        if ((st = HOOK(check_value)(&dims[i])) != RESHAPE_OK)
            return st;
    }

    int minus_ones = 0;
    for (int32_t i = 0; i < rank; i++)
        minus_ones += dims[i] == -1;
    if (minus_ones > 1 && !broken_defect.hooks.allow_many_minus_ones)
        return RESHAPE_E_MULTIPLE_MINUS_ONE;

    if (HOOK(special_zero)(params)) {
        for (int32_t i = 0; i < rank; i++) {
            if (dims[i] != 0)
                continue;
            if ((st = HOOK(copy_zero)(i, rank, src, &dims[i])) != RESHAPE_OK)
                return st;
        }
    }

    int64_t data_volume;
    if ((st = HOOK(volume)(src->rank, src->dims, &data_volume)) != RESHAPE_OK)
        return st;

    /* The known dims: every output dim that is not the -1. */
    int64_t known_dims[RESHAPE_MAX_RANK];
    int32_t known_rank = 0;
    for (int32_t i = 0; i < rank; i++)
        if (dims[i] != -1)
            known_dims[known_rank++] = dims[i];
    int64_t known;
    if ((st = HOOK(volume)(known_rank, known_dims, &known)) != RESHAPE_OK)
        return st;

    if (minus_ones > 0) {
        int64_t solved;
        st = HOOK(solve_minus_one)(data_volume, known, &solved);
        if (st != RESHAPE_OK)
            return st;
        for (int32_t i = 0; i < rank; i++)
            if (dims[i] == -1)
                dims[i] = solved;
    } else {
        st = HOOK(check_volume)(data_volume, known, rank, dims);
        if (st != RESHAPE_OK)
            return st;
    }

    *out_rank = rank;
    for (int32_t i = 0; i < rank; i++)
        out_dims[i] = dims[i];
    return RESHAPE_OK;
}
