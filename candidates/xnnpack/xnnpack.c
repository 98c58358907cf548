/*
 * xnnpack.c - the ABI over XNNPACK's Reshape: a one-node subgraph built
 * with xnn_define_static_reshape (Debian's libxnnpack 0.0~git20220216), one
 * runtime per call.  Depends on candidates/adapter_common.h and XNNPACK.
 *
 * What XNNPACK's static reshape carries: dense tensors of fp32, qint8 and
 * quint8 (s8 and u8 here, with scale 1 and zero point 0: the bytes are the
 * integers), up to XNN_MAX_TENSOR_DIMS dims, dims as size_t.  It has an fp16
 * datatype, but xnn_define_static_reshape refuses it (fp16 subgraphs come
 * only from rewriting fp32 ones), so f16 is NOT_SUPPORTED.  Its static
 * reshape takes the output dims literally: no -1, no copying zero, no
 * negative value.  Everything else is RESHAPE_E_NOT_SUPPORTED; README.md
 * lists how XNNPACK's statuses map onto the ABI's.
 */
#include <pthread.h>
#include <stdio.h>

#include <xnnpack.h>

#include "../adapter_common.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static enum xnn_status init_status = xnn_status_uninitialized;

static void init_xnnpack(void)
{
    init_status = xnn_initialize(NULL);
}

/* The XNNPACK datatype carrying `dtype`, or xnn_datatype_invalid. */
static enum xnn_datatype xnn_type_of(reshape_dtype dtype)
{
    switch (dtype) {
    case RESHAPE_DT_F32: return xnn_datatype_fp32;
    case RESHAPE_DT_S8: return xnn_datatype_qint8;
    case RESHAPE_DT_U8: return xnn_datatype_quint8;
    default: return xnn_datatype_invalid;
    }
}

static const char *xnn_status_text(enum xnn_status st)
{
    switch (st) {
    case xnn_status_success: return "success";
    case xnn_status_uninitialized: return "uninitialized";
    case xnn_status_invalid_parameter: return "invalid_parameter";
    case xnn_status_invalid_state: return "invalid_state";
    case xnn_status_unsupported_parameter: return "unsupported_parameter";
    case xnn_status_unsupported_hardware: return "unsupported_hardware";
    case xnn_status_out_of_memory: return "out_of_memory";
    }
    return "unknown status";
}

/*
 * XNNPACK says only which kind of problem it met, never which rule: an
 * invalid parameter is the caller's input being refused
 * (RESHAPE_E_INVALID_ARGUMENT, the nearest status that claims no particular
 * spec rule), an unsupported parameter or hardware is NOT_SUPPORTED, and
 * anything else is INTERNAL.  `step` names the XNNPACK call.
 */
static reshape_status map_xnn(enum xnn_status st, const char *step)
{
    reshape_status mapped;

    switch (st) {
    case xnn_status_invalid_parameter:
        mapped = RESHAPE_E_INVALID_ARGUMENT;
        break;
    case xnn_status_unsupported_parameter:
    case xnn_status_unsupported_hardware:
        mapped = RESHAPE_E_NOT_SUPPORTED;
        break;
    default:
        mapped = RESHAPE_E_INTERNAL;
        break;
    }
    return adapter_fail(mapped, "xnnpack refused the reshape: '%s' returned %s",
                        step, xnn_status_text(st));
}

static reshape_status xnn_supports(reshape_op op, reshape_dtype data_dtype,
                                   reshape_dtype shape_dtype, unsigned layout)
{
    adapter_clear_error();
    if (reshape_op_name(op) == NULL)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED, "unknown op %d", (int)op);
    if (xnn_type_of(data_dtype) == xnn_datatype_invalid)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "xnnpack has no datatype for '%s'",
                            adapter_dtype_name(data_dtype));
    if (!adapter_shape_dtype_allowed(op, shape_dtype))
        return adapter_refuse_shape_dtype(op, shape_dtype,
                                          "xnnpack takes the shape as a list of size_t");
    if (layout & ~(unsigned)RESHAPE_LAYOUT_IN_PLACE)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "xnnpack tensors are dense; layout %u", layout);
    return RESHAPE_OK;
}

/* The dims of a tensor as XNNPACK takes them. */
static void to_size_t(int32_t rank, const int64_t *dims, size_t *out)
{
    for (int32_t i = 0; i < rank; i++)
        out[i] = (size_t)dims[i];
}

/*
 * Builds the one-node subgraph for `params` on `src` and creates its
 * runtime into *runtime (the caller deletes it); the output dims are the
 * shape values, written to *out_rank / out_dims.  Returns RESHAPE_OK or a
 * mapped XNNPACK status.
 */
static reshape_status build(const reshape_params *params,
                            const reshape_tensor *src, xnn_runtime_t *runtime,
                            int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    enum xnn_status xs;
    size_t in_dims[RESHAPE_MAX_RANK], new_shape[RESHAPE_MAX_RANK];
    enum xnn_datatype type = xnn_type_of(src->dtype);
    xnn_subgraph_t subgraph = NULL;
    uint32_t in_id, out_id;

    pthread_once(&init_once, init_xnnpack);
    if (init_status != xnn_status_success)
        return map_xnn(init_status, "xnn_initialize");
    if (type == xnn_datatype_invalid)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "xnnpack has no datatype for '%s'",
                            reshape_dtype_name(src->dtype));
    if ((st = adapter_list_shape(params, ADAPTER_LIST_NO_NEGATIVE, out_dims,
                                 out_rank)) != RESHAPE_OK)
        return st;
    if (src->rank > XNN_MAX_TENSOR_DIMS || *out_rank > XNN_MAX_TENSOR_DIMS)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "xnnpack tensors have at most %d dims",
                            XNN_MAX_TENSOR_DIMS);
    to_size_t(src->rank, src->dims, in_dims);
    to_size_t(*out_rank, out_dims, new_shape);

    if ((xs = xnn_create_subgraph(2, 0, &subgraph)) != xnn_status_success)
        return map_xnn(xs, "xnn_create_subgraph");
    if (type == xnn_datatype_qint8 || type == xnn_datatype_quint8) {
        xs = xnn_define_quantized_tensor_value(
            subgraph, type, 0, 1.0f, (size_t)src->rank, in_dims, NULL, 0,
            XNN_VALUE_FLAG_EXTERNAL_INPUT, &in_id);
        if (xs == xnn_status_success)
            xs = xnn_define_quantized_tensor_value(
                subgraph, type, 0, 1.0f, (size_t)*out_rank, new_shape, NULL, 1,
                XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &out_id);
    } else {
        xs = xnn_define_tensor_value(subgraph, type, (size_t)src->rank, in_dims,
                                     NULL, 0, XNN_VALUE_FLAG_EXTERNAL_INPUT,
                                     &in_id);
        if (xs == xnn_status_success)
            xs = xnn_define_tensor_value(subgraph, type, (size_t)*out_rank,
                                         new_shape, NULL, 1,
                                         XNN_VALUE_FLAG_EXTERNAL_OUTPUT,
                                         &out_id);
    }
    if (xs != xnn_status_success) {
        st = map_xnn(xs, "xnn_define_tensor_value");
        goto out;
    }
    xs = xnn_define_static_reshape(subgraph, (size_t)*out_rank, new_shape, in_id,
                                   out_id, 0);
    if (xs != xnn_status_success) {
        st = map_xnn(xs, "xnn_define_static_reshape");
        goto out;
    }
    xs = xnn_create_runtime_v2(subgraph, NULL, 0, runtime);
    st = xs == xnn_status_success ? RESHAPE_OK
                                  : map_xnn(xs, "xnn_create_runtime_v2");
out:
    xnn_delete_subgraph(subgraph);
    return st;
}

static reshape_status xnn_infer_shape(const reshape_params *params,
                                      const reshape_tensor *src,
                                      int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    xnn_runtime_t runtime = NULL;

    adapter_clear_error();
    if ((st = adapter_check_call(params, src, NULL)) != RESHAPE_OK)
        return st;
    if (out_rank == NULL || out_dims == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "'out_rank' or 'out_dims' is NULL");
    if ((st = build(params, src, &runtime, out_rank, out_dims)) == RESHAPE_OK)
        xnn_delete_runtime(runtime);
    return st;
}

/* XNNPACK's copy reads any non-NULL pointer even for zero elements, so an
 * empty tensor's NULL data is given a byte to point at. */
static unsigned char empty_byte;

static reshape_status xnn_execute(const reshape_params *params,
                                  const reshape_tensor *src,
                                  const reshape_tensor *dst)
{
    reshape_status st;
    enum xnn_status xs;
    xnn_runtime_t runtime = NULL;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];

    adapter_clear_error();
    if ((st = adapter_check_execute(params, src, dst)) != RESHAPE_OK)
        return st;
    if (adapter_layout(src, dst) & ~(unsigned)RESHAPE_LAYOUT_IN_PLACE)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "xnnpack tensors are dense");
    if ((st = build(params, src, &runtime, &rank, dims)) != RESHAPE_OK)
        return st;
    if ((st = adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK)
        goto out;
    const struct xnn_external_value values[2] = {
        {0, src->data != NULL ? src->data : &empty_byte},
        {1, dst->data != NULL ? dst->data : &empty_byte},
    };
    if ((xs = xnn_setup_runtime(runtime, 2, values)) != xnn_status_success) {
        st = map_xnn(xs, "xnn_setup_runtime");
        goto out;
    }
    if ((xs = xnn_invoke_runtime(runtime)) != xnn_status_success)
        st = map_xnn(xs, "xnn_invoke_runtime");
out:
    xnn_delete_runtime(runtime);
    return st;
}

static const reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .name = "XNNPACK",
    .version = "0.0~git20220216 (Debian 12)",
    .supports = xnn_supports,
    .infer_shape = xnn_infer_shape,
    .execute = xnn_execute,
    .last_error = adapter_last_error,
};

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    return &table;
}
