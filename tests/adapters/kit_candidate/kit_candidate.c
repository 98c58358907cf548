/*
 * kit_candidate.c - the smallest candidate on the adapter kit, for
 * kit_test.c: RESHAPE_ADAPTER_DEFINE_LOADED's table and entry, the kit's
 * checks in front of a "library" that only copies dense bytes, and a start
 * that counts its runs.  Built as build/tests/kit_candidate.so.  Depends on
 * the kit.
 */
#include <string.h>

#include "reshape_adapter.h"

#define DENSE "kit tensors are dense"

static int starts;

static reshape_status kc_supports(reshape_op op, reshape_dtype data_dtype,
                                  reshape_dtype shape_dtype, unsigned layout)
{
    (void)data_dtype;
    (void)shape_dtype;
    return reshape_adapter_check_layout(op, layout, RESHAPE_LAYOUT_IN_PLACE, DENSE);
}

static reshape_status kc_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                     int32_t *out_rank, int64_t *out_dims)
{
    int64_t values[RESHAPE_MAX_RANK];
    reshape_status st = reshape_adapter_check_infer(params, src, out_rank, out_dims);
    if (st != RESHAPE_OK ||
        (st = reshape_adapter_shape_list(params, RESHAPE_ADAPTER_NO_MINUS_ONE, values,
                                         out_rank)) != RESHAPE_OK)
        return st;
    memcpy(out_dims, values, (size_t)*out_rank * sizeof *values);
    return RESHAPE_OK;
}

static reshape_status kc_execute(const reshape_params *params, const reshape_tensor *src,
                                 const reshape_tensor *dst)
{
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK], n;
    size_t bytes;
    reshape_status st = reshape_adapter_check_execute(params, src, dst);
    if (st != RESHAPE_OK ||
        (st = reshape_adapter_check_layout(params->op, reshape_adapter_layout(src, dst),
                                           RESHAPE_LAYOUT_IN_PLACE, DENSE)) !=
            RESHAPE_OK ||
        (st = kc_infer_shape(params, src, &rank, dims)) != RESHAPE_OK ||
        (st = reshape_adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK)
        return st;
    if (reshape_adapter_volume(src, &n) != 0 ||
        reshape_adapter_payload_bytes(src->dtype, n, &bytes) != 0)
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "cannot size '%s'", "src");
    if (bytes > 0 && dst->data != src->data)
        memmove(dst->data, src->data, bytes);
    return RESHAPE_OK;
}

/* Writes "started N" (N: how many times it ran). */
static void start(char *version, size_t size)
{
    snprintf(version, size, "started %d", ++starts);
}

RESHAPE_ADAPTER_DEFINE_LOADED("kit candidate", start, kc_supports, kc_infer_shape, kc_execute,
                              NULL)
