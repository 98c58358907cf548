/*
 * args.c - rule 1 of DECISIONS.md: caller misuse.  Everything here answers
 * RESHAPE_E_INVALID_ARGUMENT; spec errors come later, in infer.c.  Depends on
 * error.c only.
 */
#include <inttypes.h>
#include <stddef.h>

#include "reference.h"

/* Rank, dims and dtype of a tensor `what`, shared by every tensor check. */
static reshape_status check_dims(const reshape_tensor *t, const char *what)
{
    if (reshape_dtype_name(t->dtype) == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "unknown dtype %d of '%s'", (int)t->dtype,
                                what);
    if (t->rank < 0 || t->rank > RESHAPE_MAX_RANK)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "rank %" PRId32 " of '%s' is outside 0..%d",
                                t->rank, what, RESHAPE_MAX_RANK);
    if (t->rank > 0 && t->dims == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "'%s->dims' is NULL with rank %" PRId32, what,
                                t->rank);
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] < 0)
            return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "dim %" PRId64 " at index %" PRId32
                                    " of '%s' is negative",
                                    t->dims[i], i, what);
    return RESHAPE_OK;
}

/*
 * The number of values of a shape tensor with valid dims, capped: any count
 * above RESHAPE_MAX_RANK comes back as RESHAPE_MAX_RANK + 1, so that huge
 * dims never get multiplied.
 */
static int64_t capped_count(const reshape_tensor *shape)
{
    const int64_t cap = RESHAPE_MAX_RANK + 1;
    int64_t count = 1;

    for (int32_t i = 0; i < shape->rank; i++)
        if (shape->dims[i] == 0)
            return 0;
    for (int32_t i = 0; i < shape->rank; i++) {
        /* count <= cap and dims[i] >= 1: test before multiplying */
        if (shape->dims[i] > cap / count)
            return cap;
        count *= shape->dims[i];
    }
    return count;
}

reshape_status reshape_ref_check_params(const reshape_params *params,
                                        const reshape_tensor *src)
{
    reshape_status st;
    int64_t count;

    if (params == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT, "'params' is NULL");
    if (src == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT, "'src' is NULL");
    if (params->shape == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "'params->shape' is NULL");
    if (params->special_zero != 0 && params->special_zero != 1)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "special_zero %" PRId32 " is not 0 or 1",
                                params->special_zero);
    if (reshape_op_name(params->op) == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT, "unknown op %d",
                                (int)params->op);
    st = check_dims(src, "src");
    if (st != RESHAPE_OK)
        return st;
    st = check_dims(params->shape, "shape");
    if (st != RESHAPE_OK)
        return st;
    if (params->shape->strides != NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "'shape' has strides; a shape tensor is dense");
    count = capped_count(params->shape);
    if (count > RESHAPE_MAX_RANK)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "'shape' holds more than %d values",
                                RESHAPE_MAX_RANK);
    if (count > 0 && params->shape->data == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "'shape->data' is NULL with %" PRId64 " values",
                                count);
    return RESHAPE_OK;
}

reshape_status reshape_ref_check_tensor(const reshape_tensor *t,
                                        const char *what)
{
    reshape_status st;

    if (t == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT, "'%s' is NULL",
                                what);
    st = check_dims(t, what);
    if (st != RESHAPE_OK)
        return st;
    if (t->strides != NULL)
        for (int32_t i = 0; i < t->rank; i++)
            if (t->strides[i] < 0)
                return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                        "stride %" PRId64 " at index %" PRId32
                                        " of '%s' is negative",
                                        t->strides[i], i, what);
    return RESHAPE_OK;
}
