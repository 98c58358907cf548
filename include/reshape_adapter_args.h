/*
 * reshape_adapter_args.h - the ABI's argument checks of infer_shape and
 * execute, the dst check, and reading a shape tensor into a list of
 * integers.  Part of the adapter kit: include reshape_adapter.h, which
 * includes this.  Header-only, C11 and C++17.  Depends on the rest of the
 * kit and libc.
 */
#ifndef RESHAPE_ADAPTER_ARGS_H
#define RESHAPE_ADAPTER_ARGS_H

#include <stdint.h>
#include <string.h>

#include "reshape_adapter.h"
#include "reshape_adapter_tensor.h"

/* ================================================================= checks */

/* The tensor rules for `t`, named `what` in messages: not NULL, a dtype in
 * the enum, rank 0..RESHAPE_MAX_RANK, dims present and >= 0, and with
 * `strides_too` strides >= 0. */
static inline reshape_status reshape_adapter_check_tensor_(const reshape_tensor *t,
                                                           const char *what,
                                                           int strides_too)
{
    if (t == NULL)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "'%s' is NULL", what);
    int dtype = reshape_adapter_enum_value(&t->dtype);
    if (dtype < 1 || dtype > RESHAPE_DT_COUNT)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "unknown dtype %d of '%s'",
                                    dtype, what);
    if (t->rank < 0 || t->rank > RESHAPE_MAX_RANK)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "rank %d of '%s' is outside 0..%d", (int)t->rank, what,
                                    RESHAPE_MAX_RANK);
    if (t->rank > 0 && t->dims == NULL)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "dims of '%s' are NULL", what);
    for (int32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                        "dim %d of '%s' is negative", (int)i, what);
        if (strides_too && t->strides != NULL && t->strides[i] < 0)
            return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                        "stride %d of '%s' is negative", (int)i, what);
    }
    return RESHAPE_OK;
}

/* The rules of reshape_params: not NULL, op in the enum, special_zero 0 or
 * 1, a shape tensor without strides, of at most RESHAPE_MAX_RANK values,
 * its data present when it holds any. */
static inline reshape_status reshape_adapter_check_params_(const reshape_params *params)
{
    reshape_status st;
    int64_t values;

    if (params == NULL)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "'params' is NULL");
    int op = reshape_adapter_enum_value(&params->op);
    if (op < 1 || op > RESHAPE_OP_COUNT)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "unknown op %d", op);
    if (params->special_zero != 0 && params->special_zero != 1)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "special_zero %d is neither 0 nor 1",
                                    (int)params->special_zero);
    if ((st = reshape_adapter_check_tensor_(params->shape, "shape", 1)) != RESHAPE_OK)
        return st;
    if (params->shape->strides != NULL)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "'shape' has strides; shape tensors are dense");
    if (reshape_adapter_volume(params->shape, &values) != 0 || values > RESHAPE_MAX_RANK)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "'shape' holds more than %d values", RESHAPE_MAX_RANK);
    if (values > 0 && params->shape->data == NULL)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "data of 'shape' is NULL");
    return RESHAPE_OK;
}

/*
 * The ABI's caller-misuse checks of infer_shape: params as above, `src`'s
 * dtype, rank and dims (its data and strides are not read), out_rank and
 * out_dims not NULL.  Clears the message first.  Returns RESHAPE_OK or
 * RESHAPE_E_INVALID_ARGUMENT.
 */
static inline reshape_status reshape_adapter_check_infer(const reshape_params *params,
                                                         const reshape_tensor *src,
                                                         const int32_t *out_rank,
                                                         const int64_t *out_dims)
{
    reshape_status st;

    reshape_adapter_clear_error();
    if ((st = reshape_adapter_check_params_(params)) != RESHAPE_OK ||
        (st = reshape_adapter_check_tensor_(src, "src", 0)) != RESHAPE_OK)
        return st;
    if (out_rank == NULL || out_dims == NULL)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "'out_rank' or 'out_dims' is NULL");
    return RESHAPE_OK;
}

/*
 * The ABI's caller-misuse checks of execute, before the library sees the
 * call: params, src and dst by the tensor rules (strides >= 0 on both);
 * data not NULL for a tensor with elements; in place (one non-NULL data
 * pointer) only with both dense; every bit each tensor addresses within
 * the 2^63 bound; and D12's overlapping dst (two elements at one offset),
 * refused before anything is written.  A broadcast src, any stride on a
 * size-1 dim, and empty tensors with any strides pass.  Clears the message
 * first.  Returns RESHAPE_OK, RESHAPE_E_INVALID_ARGUMENT, or
 * RESHAPE_E_INTERNAL when the overlap cannot be decided (over 1 GiB to
 * list, reshape_adapter_overlaps).  The dst's dtype and dims are checked
 * after the library infers them, with reshape_adapter_check_dst.
 */
static inline reshape_status reshape_adapter_check_execute(const reshape_params *params,
                                                           const reshape_tensor *src,
                                                           const reshape_tensor *dst)
{
    reshape_status st;
    int64_t n_src, n_dst;

    reshape_adapter_clear_error();
    if ((st = reshape_adapter_check_params_(params)) != RESHAPE_OK ||
        (st = reshape_adapter_check_tensor_(src, "src", 1)) != RESHAPE_OK ||
        (st = reshape_adapter_check_tensor_(dst, "dst", 1)) != RESHAPE_OK)
        return st;
    if (reshape_adapter_volume(src, &n_src) != 0 || reshape_adapter_volume(dst, &n_dst) != 0)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "the volume of '%s' leaves int64; it cannot be in memory",
                                    reshape_adapter_volume(src, &n_src) != 0 ? "src" : "dst");
    if ((n_src > 0 && src->data == NULL) || (n_dst > 0 && dst->data == NULL))
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "data of '%s' is NULL",
                                    n_src > 0 && src->data == NULL ? "src" : "dst");
    if (src->data != NULL && src->data == dst->data &&
        (src->strides != NULL || dst->strides != NULL))
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "in-place call with strides on '%s'",
                                    src->strides != NULL ? "src" : "dst");
    if (!reshape_adapter_addressable(src) || !reshape_adapter_addressable(dst))
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "'%s' reaches past 2^63 bits from its data; no process "
                                    "can hold it",
                                    reshape_adapter_addressable(src) ? "dst" : "src");
    switch (reshape_adapter_overlaps(dst)) {
    case 0:
        return RESHAPE_OK;
    case 1:
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "two elements of 'dst' share an offset; the result "
                                    "would be undefined");
    default:
        return reshape_adapter_fail(RESHAPE_E_INTERNAL,
                                    "cannot tell whether elements of 'dst' share an offset: "
                                    "listing them needs over 1 GiB");
    }
}

/* After the library inferred the output (`rank` dims `dims`): dst must
 * have src's dtype and exactly those dims, else RESHAPE_E_INVALID_ARGUMENT
 * (the ABI's "refuse, never overrun"). */
static inline reshape_status reshape_adapter_check_dst(const reshape_tensor *src,
                                                       const reshape_tensor *dst,
                                                       int32_t rank, const int64_t *dims)
{
    if (dst->dtype != src->dtype)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "dtype '%s' of 'dst' is not '%s' of 'src'",
                                    reshape_adapter_dtype_name(dst->dtype),
                                    reshape_adapter_dtype_name(src->dtype));
    if (dst->rank != rank)
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "rank %d of 'dst' is not the output rank %d",
                                    (int)dst->rank, (int)rank);
    for (int32_t i = 0; i < rank; i++)
        if (dst->dims[i] != dims[i])
            return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                        "dim %d of 'dst' is %lld, the output's is %lld",
                                        (int)i, (long long)dst->dims[i],
                                        (long long)dims[i]);
    return RESHAPE_OK;
}

/* =========================================================== shape values */

/* Value `i` of a dense integer tensor `t` into *value.  Returns 0, or -1
 * for a dtype that is not an integer of 8 to 64 bits or a u64 above
 * INT64_MAX. */
static inline int reshape_adapter_shape_value(const reshape_tensor *t, int64_t i,
                                              int64_t *value)
{
    const unsigned char *p = (const unsigned char *)t->data;

    switch (t->dtype) {
    case RESHAPE_DT_S64: { int64_t v; memcpy(&v, p + 8 * i, 8); *value = v; return 0; }
    case RESHAPE_DT_S32: { int32_t v; memcpy(&v, p + 4 * i, 4); *value = v; return 0; }
    case RESHAPE_DT_S16: { int16_t v; memcpy(&v, p + 2 * i, 2); *value = v; return 0; }
    case RESHAPE_DT_S8: { int8_t v; memcpy(&v, p + i, 1); *value = v; return 0; }
    case RESHAPE_DT_U32: { uint32_t v; memcpy(&v, p + 4 * i, 4); *value = v; return 0; }
    case RESHAPE_DT_U16: { uint16_t v; memcpy(&v, p + 2 * i, 2); *value = v; return 0; }
    case RESHAPE_DT_U8: { uint8_t v; memcpy(&v, p + i, 1); *value = v; return 0; }
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

/* What a library's list-of-integers reshape cannot be handed, for
 * reshape_adapter_shape_list. */
enum reshape_adapter_list_limits {
    RESHAPE_ADAPTER_NO_MINUS_ONE = 1, /* it has no "infer this dim" marker */
    RESHAPE_ADAPTER_NO_NEGATIVE = 2,  /* its dims are unsigned */
    RESHAPE_ADAPTER_COPY_ZERO = 4     /* not a limit: it has a copying zero of its
                                       * own, so zeros pass under special_zero */
};

/*
 * Reads the target shape of `params` into `values` (RESHAPE_MAX_RANK
 * entries of room) and *count, for a library whose reshape takes a list of
 * integers with a literal meaning for each.  The values pass as they are,
 * never checked against a spec rule; what the list cannot carry is
 * RESHAPE_E_NOT_SUPPORTED, the message saying which:
 *   - a shape tensor of rank other than 1 (a list has no rank to refuse),
 *   - a dtype that is not an integer, or a u64 value above INT64_MAX,
 *   - with special_zero 1, any 0, unless `limits` has
 *     RESHAPE_ADAPTER_COPY_ZERO (the library has no copying zero),
 *   - by `limits`, a -1 or any negative value.
 * Assumes the params checks passed.  Returns RESHAPE_OK or
 * RESHAPE_E_NOT_SUPPORTED (then *count is 0).
 */
static inline reshape_status reshape_adapter_shape_list(const reshape_params *params,
                                                        unsigned limits, int64_t *values,
                                                        int32_t *count)
{
    const reshape_tensor *shape = params->shape;

    *count = 0;
    if (shape->rank != 1)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                    "the library takes the shape as a list; a rank-%d shape "
                                    "tensor cannot be passed", (int)shape->rank);
    for (int32_t i = 0; i < (int32_t)shape->dims[0]; i++) {
        if (reshape_adapter_shape_value(shape, i, &values[i]) != 0)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                        "shape value %d of dtype '%s' is not an int64 the "
                                        "library can take", (int)i,
                                        reshape_adapter_dtype_name(shape->dtype));
        if (params->special_zero && values[i] == 0 && !(limits & RESHAPE_ADAPTER_COPY_ZERO))
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                        "the library has no copying zero (special_zero "
                                        "true, 0 at index %d)", (int)i);
        if ((limits & RESHAPE_ADAPTER_NO_MINUS_ONE) && values[i] == -1)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                        "the library has no inferred dim (-1 at index %d)",
                                        (int)i);
        if ((limits & RESHAPE_ADAPTER_NO_NEGATIVE) && values[i] < 0)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                        "the library's dims are unsigned (%lld at index %d)",
                                        (long long)values[i], (int)i);
    }
    *count = (int32_t)shape->dims[0];
    return RESHAPE_OK;
}

#endif /* RESHAPE_ADAPTER_ARGS_H */
