/*
 * xnnpack.c - the ABI over XNNPACK's Reshape: a one-node subgraph built
 * with xnn_define_static_reshape (Debian's libxnnpack 0.0~git20220216), one
 * runtime per call.  Depends on the adapter kit (include/reshape_adapter.h)
 * and XNNPACK.
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

#include "reshape_adapter.h"

#include "../shape_types.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static enum xnn_status init_status = xnn_status_uninitialized;

static void init_xnnpack(void)
{
    init_status = xnn_initialize(NULL);
}

/* The XNNPACK datatype of each dtype it has. */
static const reshape_adapter_type xnn_types[] = {
    {RESHAPE_DT_F32, xnn_datatype_fp32},
    {RESHAPE_DT_S8, xnn_datatype_qint8},
    {RESHAPE_DT_U8, xnn_datatype_quint8},
};

/* The XNNPACK datatype of `dtype` into *type, or NOT_SUPPORTED. */
static reshape_status xnn_type_of(reshape_dtype dtype, enum xnn_datatype *type)
{
    int t;
    reshape_status st = reshape_adapter_map_dtype(xnn_types, RESHAPE_ADAPTER_COUNT(xnn_types),
                                                  dtype, "xnnpack has no datatype", &t);
    *type = (enum xnn_datatype)t;
    return st;
}

#define DENSE "xnnpack tensors are dense"

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
    return reshape_adapter_fail(mapped, "xnnpack refused the reshape: '%s' returned %s",
                        step, xnn_status_text(st));
}

static reshape_status xnn_supports(reshape_op op, reshape_dtype data_dtype,
                                   reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st;
    enum xnn_datatype type;

    if ((st = reshape_adapter_check_layout(op, layout, RESHAPE_LAYOUT_IN_PLACE, DENSE)) !=
            RESHAPE_OK ||
        (st = xnn_type_of(data_dtype, &type)) != RESHAPE_OK)
        return st;
    return shape_type_check(op, shape_dtype, "xnnpack takes the shape as a list of size_t");
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
    enum xnn_datatype type;
    xnn_subgraph_t subgraph = NULL;
    uint32_t in_id, out_id;

    pthread_once(&init_once, init_xnnpack);
    if (init_status != xnn_status_success)
        return map_xnn(init_status, "xnn_initialize");
    if ((st = xnn_type_of(src->dtype, &type)) != RESHAPE_OK ||
        (st = reshape_adapter_shape_list(params, RESHAPE_ADAPTER_NO_NEGATIVE, out_dims,
                                         out_rank)) != RESHAPE_OK)
        return st;
    if (src->rank > XNN_MAX_TENSOR_DIMS || *out_rank > XNN_MAX_TENSOR_DIMS)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
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

    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK)
        return st;
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

    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = reshape_adapter_check_layout(params->op, reshape_adapter_layout(src, dst),
                                           RESHAPE_LAYOUT_IN_PLACE, DENSE)) != RESHAPE_OK ||
        (st = build(params, src, &runtime, &rank, dims)) != RESHAPE_OK)
        return st;
    if ((st = reshape_adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK)
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

RESHAPE_ADAPTER_DEFINE("XNNPACK", "0.0~git20220216 (Debian 12)",
                       xnn_supports, xnn_infer_shape, xnn_execute,
                       NULL)
