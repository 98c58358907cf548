/*
 * adapter_common.c - ABI checks, shape lists and the last error shared by
 * the library adapters.  Depends on the ABI header and libc only; see
 * adapter_common.h for the contracts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "adapter_common.h"
#include "tensor_extent.h"

static _Thread_local char message[512];

reshape_status adapter_fail(reshape_status status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return status;
}

void adapter_clear_error(void)
{
    message[0] = '\0';
}

const char *adapter_last_error(void)
{
    return message[0] != '\0' ? message : NULL;
}

/* The ABI's rules for any tensor: known dtype, rank in range, dims and
 * strides not negative.  `what` names the tensor in the message. */
static reshape_status check_tensor(const reshape_tensor *t, const char *what)
{
    if (t == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "'%s' is NULL", what);
    if (reshape_dtype_name(t->dtype) == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "unknown dtype %d of '%s'", (int)t->dtype, what);
    if (t->rank < 0 || t->rank > RESHAPE_MAX_RANK)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "rank %d of '%s' is outside 0..%d", (int)t->rank,
                            what, RESHAPE_MAX_RANK);
    if (t->rank > 0 && t->dims == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "dims of '%s' are NULL",
                            what);
    for (int32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "dim %d of '%s' is negative", (int)i, what);
        if (t->strides != NULL && t->strides[i] < 0)
            return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "stride %d of '%s' is negative", (int)i, what);
    }
    return RESHAPE_OK;
}

int adapter_volume(const reshape_tensor *t, int64_t *count)
{
    int64_t n = 1;

    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] == 0) {
            *count = 0;
            return 0;
        }
    for (int32_t i = 0; i < t->rank; i++) {
        if (n > INT64_MAX / t->dims[i])
            return -1;
        n *= t->dims[i];
    }
    *count = n;
    return 0;
}

int adapter_payload_bytes(reshape_dtype dtype, int64_t count, size_t *bytes)
{
    uint64_t bits = reshape_dtype_bits(dtype);

    if (count < 0 || (uint64_t)count > UINT64_MAX / bits)
        return -1;
    uint64_t n = ((uint64_t)count * bits + 7) / 8;
    if (n > SIZE_MAX)
        return -1;
    *bytes = (size_t)n;
    return 0;
}

reshape_status adapter_check_call(const reshape_params *params,
                                  const reshape_tensor *src,
                                  const reshape_tensor *dst)
{
    reshape_status st;
    int64_t values;

    if (params == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "'params' is NULL");
    if (reshape_op_name(params->op) == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "unknown op %d",
                            (int)params->op);
    if (params->special_zero != 0 && params->special_zero != 1)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "special_zero %d is neither 0 nor 1",
                            (int)params->special_zero);
    if ((st = check_tensor(params->shape, "shape")) != RESHAPE_OK)
        return st;
    if (params->shape->strides != NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "'shape' has strides; shape tensors are dense");
    if (adapter_volume(params->shape, &values) != 0 ||
        values > RESHAPE_MAX_RANK)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "'shape' holds more than %d values",
                            RESHAPE_MAX_RANK);
    if (values > 0 && params->shape->data == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "data of 'shape' is NULL");
    if ((st = check_tensor(src, "src")) != RESHAPE_OK)
        return st;
    if (dst == NULL)
        return RESHAPE_OK;
    if ((st = check_tensor(dst, "dst")) != RESHAPE_OK)
        return st;
    int64_t n;
    if (adapter_volume(src, &n) != 0)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "volume of 'src' leaves int64; it cannot be in "
                            "memory");
    if (n > 0 && (src->data == NULL || dst->data == NULL))
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "data of 'src' or 'dst' is NULL");
    if (src->data == dst->data && n > 0 &&
        (src->strides != NULL || dst->strides != NULL))
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "in-place call with strides");
    if (!tensor_addressable(src) || !tensor_addressable(dst))
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "'%s' reaches past 2^63 bits from its data; no "
                            "process can hold it", tensor_addressable(src) ? "dst" : "src");
    return RESHAPE_OK;
}

reshape_status adapter_check_execute(const reshape_params *params,
                                     const reshape_tensor *src,
                                     const reshape_tensor *dst)
{
    if (dst == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "'dst' is NULL");
    return adapter_check_call(params, src, dst);
}

reshape_status adapter_check_dst(const reshape_tensor *src,
                                 const reshape_tensor *dst, int32_t rank,
                                 const int64_t *dims)
{
    if (dst->dtype != src->dtype)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "dtype '%s' of 'dst' is not '%s' of 'src'",
                            reshape_dtype_name(dst->dtype),
                            reshape_dtype_name(src->dtype));
    if (dst->rank != rank)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "rank %d of 'dst' is not the output rank %d",
                            (int)dst->rank, (int)rank);
    for (int32_t i = 0; i < rank; i++)
        if (dst->dims[i] != dims[i])
            return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "dim %d of 'dst' is %lld, the output's is %lld",
                                (int)i, (long long)dst->dims[i],
                                (long long)dims[i]);
    return RESHAPE_OK;
}

unsigned adapter_layout(const reshape_tensor *src, const reshape_tensor *dst)
{
    unsigned layout = 0;

    if (src->strides != NULL)
        layout |= RESHAPE_LAYOUT_STRIDED_SRC;
    if (dst != NULL && dst->strides != NULL)
        layout |= RESHAPE_LAYOUT_STRIDED_DST;
    if (dst != NULL && dst->data == src->data && src->data != NULL &&
        layout == 0)
        layout |= RESHAPE_LAYOUT_IN_PLACE;
    return layout;
}

int adapter_shape_dtype_allowed(reshape_op op, reshape_dtype dtype)
{
    switch (op) {
    case RESHAPE_OP_OPENVINO_RESHAPE_1:
        switch (dtype) {
        case RESHAPE_DT_S64: case RESHAPE_DT_S32: case RESHAPE_DT_S16:
        case RESHAPE_DT_S8: case RESHAPE_DT_U64: case RESHAPE_DT_U32:
        case RESHAPE_DT_U16: case RESHAPE_DT_U8:
            return 1;
        default:
            return 0;
        }
    case RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1:
        return dtype == RESHAPE_DT_S32;
    case RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1:
    case RESHAPE_OP_ONNX_RESHAPE_14:
        return dtype == RESHAPE_DT_S64;
    }
    return 0;
}

reshape_status adapter_refuse_shape_dtype(reshape_op op, reshape_dtype dtype,
                                          const char *takes)
{
    const char *name = reshape_op_name(op);
    return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                        "%s; a '%s' shape tensor cannot be passed for '%s'", takes,
                        adapter_dtype_name(dtype), name != NULL ? name : "?");
}

const char *adapter_dtype_name(reshape_dtype dtype)
{
    const char *name = reshape_dtype_name(dtype);
    return name != NULL ? name : "?";
}

/* Reads value `i` of a dense integer tensor into *value; returns 0, or -1
 * for a non-integer dtype or a u64 above INT64_MAX. */
static int read_value(const reshape_tensor *t, int64_t i, int64_t *value)
{
    const unsigned char *p = t->data;

    switch (t->dtype) {
    case RESHAPE_DT_S64: { int64_t v; memcpy(&v, p + 8 * i, 8); *value = v; return 0; }
    case RESHAPE_DT_S32: { int32_t v; memcpy(&v, p + 4 * i, 4); *value = v; return 0; }
    case RESHAPE_DT_S16: { int16_t v; memcpy(&v, p + 2 * i, 2); *value = v; return 0; }
    case RESHAPE_DT_S8:  { int8_t v; memcpy(&v, p + i, 1); *value = v; return 0; }
    case RESHAPE_DT_U32: { uint32_t v; memcpy(&v, p + 4 * i, 4); *value = v; return 0; }
    case RESHAPE_DT_U16: { uint16_t v; memcpy(&v, p + 2 * i, 2); *value = v; return 0; }
    case RESHAPE_DT_U8:  { uint8_t v; memcpy(&v, p + i, 1); *value = v; return 0; }
    case RESHAPE_DT_U64: {
        uint64_t v;
        memcpy(&v, p + 8 * i, 8);
        if (v > (uint64_t)INT64_MAX)
            return -1;
        *value = (int64_t)v;
        return 0;
    }
    default:
        return -1;
    }
}

reshape_status adapter_list_shape(const reshape_params *params,
                                  unsigned limits, int64_t *values,
                                  int32_t *count)
{
    const reshape_tensor *shape = params->shape;

    if (shape->rank != 1)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "the library takes the shape as a list; a rank-%d "
                            "shape tensor cannot be passed",
                            (int)shape->rank);
    *count = (int32_t)shape->dims[0];
    for (int32_t i = 0; i < *count; i++) {
        if (read_value(shape, i, &values[i]) != 0)
            return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "shape value %d of dtype '%s' is not an int64 "
                                "the library can take",
                                (int)i, reshape_dtype_name(shape->dtype));
        if (params->special_zero && values[i] == 0 &&
            !(limits & ADAPTER_LIST_COPY_ZERO))
            return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "the library has no copying zero "
                                "(special_zero true, 0 at index %d)",
                                (int)i);
        if ((limits & ADAPTER_LIST_NO_MINUS_ONE) && values[i] == -1)
            return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "the library has no inferred dim (-1 at "
                                "index %d)",
                                (int)i);
        if ((limits & ADAPTER_LIST_NO_NEGATIVE) && values[i] < 0)
            return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "the library's dims are unsigned (%lld at "
                                "index %d)",
                                (long long)values[i], (int)i);
    }
    return RESHAPE_OK;
}
