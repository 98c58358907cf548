/*
 * onednn.c - the ABI over oneDNN's reshape (Debian's libdnnl 2.6):
 * dnnl_memory_desc_reshape decides the output memory descriptor, a reorder
 * primitive moves the elements (it handles strided src and dst).  Depends
 * on candidates/adapter_common.h and oneDNN's C API.
 *
 * What oneDNN's interface carries: f32, f16, bf16, s32, s8, u8 elements;
 * 1 to DNNL_MAX_NDIMS dims (no rank-0 memory descriptor); dims as int64,
 * passed as they are, negative ones included.  It has no -1 and no copying
 * zero.  Everything else is RESHAPE_E_NOT_SUPPORTED; README.md lists how
 * oneDNN's statuses map onto the ABI's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>

#include "../adapter_common.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static dnnl_engine_t engine;
static dnnl_status_t engine_status = dnnl_runtime_error;

static void init_engine(void)
{
    engine_status = dnnl_engine_create(&engine, dnnl_cpu, 0);
}

/* The oneDNN data type carrying `dtype`, or dnnl_data_type_undef. */
static dnnl_data_type_t dnnl_type_of(reshape_dtype dtype)
{
    switch (dtype) {
    case RESHAPE_DT_F32: return dnnl_f32;
    case RESHAPE_DT_F16: return dnnl_f16;
    case RESHAPE_DT_BF16: return dnnl_bf16;
    case RESHAPE_DT_S32: return dnnl_s32;
    case RESHAPE_DT_S8: return dnnl_s8;
    case RESHAPE_DT_U8: return dnnl_u8;
    default: return dnnl_data_type_undef;
    }
}

/*
 * oneDNN says which kind of problem it met, never which rule: invalid
 * arguments is the caller's input being refused (RESHAPE_E_INVALID_ARGUMENT,
 * the nearest status that claims no particular spec rule); out of memory and
 * runtime errors are INTERNAL; the one status left among dnnl_types.h's,
 * "no implementation for this configuration", is NOT_SUPPORTED.  `step`
 * names the oneDNN call; dnnl_status2str gives oneDNN's own word.
 */
static reshape_status map_dnnl(dnnl_status_t st, const char *step)
{
    reshape_status mapped;

    switch (st) {
    case dnnl_invalid_arguments:
        mapped = RESHAPE_E_INVALID_ARGUMENT;
        break;
    case dnnl_success:
    case dnnl_out_of_memory:
    case dnnl_runtime_error:
    case dnnl_iterator_ends:
    case dnnl_not_required:
        mapped = RESHAPE_E_INTERNAL;
        break;
    default:
        mapped = RESHAPE_E_NOT_SUPPORTED;
        break;
    }
    return adapter_fail(mapped, "onednn refused the reshape: '%s' returned %s",
                        step, dnnl_status2str(st));
}

static reshape_status dnnl_supports(reshape_op op, reshape_dtype data_dtype,
                                    reshape_dtype shape_dtype, unsigned layout)
{
    const unsigned known = RESHAPE_LAYOUT_STRIDED_SRC |
                           RESHAPE_LAYOUT_STRIDED_DST | RESHAPE_LAYOUT_IN_PLACE;

    adapter_clear_error();
    if (reshape_op_name(op) == NULL || (layout & ~known) != 0)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "unknown op %d or layout %u", (int)op, layout);
    if (dnnl_type_of(data_dtype) == dnnl_data_type_undef)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "onednn has no data type for '%s'",
                            adapter_dtype_name(data_dtype));
    if (!adapter_shape_dtype_allowed(op, shape_dtype))
        return adapter_refuse_shape_dtype(op, shape_dtype,
                                          "onednn takes the shape as dnnl_dims_t");
    return RESHAPE_OK;
}

/* A memory descriptor of `rank` dims with `strides` (NULL: dense). */
static reshape_status make_md(dnnl_memory_desc_t *md, reshape_dtype dtype,
                              int32_t rank, const int64_t *dims,
                              const int64_t *strides)
{
    dnnl_dims_t d, s;
    dnnl_status_t st;

    if (rank < 1 || rank > DNNL_MAX_NDIMS)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "onednn memory descriptors have 1 to %d dims, "
                            "not %d",
                            DNNL_MAX_NDIMS, (int)rank);
    memcpy(d, dims, (size_t)rank * sizeof(int64_t));
    if (strides != NULL)
        memcpy(s, strides, (size_t)rank * sizeof(int64_t));
    st = dnnl_memory_desc_init_by_strides(md, rank, d, dnnl_type_of(dtype),
                                          strides != NULL ? s : NULL);
    return st == dnnl_success ? RESHAPE_OK
                              : map_dnnl(st, "dnnl_memory_desc_init_by_strides");
}

/*
 * oneDNN's reshape of a dense descriptor of `src`'s dims to the shape of
 * `params`: *in_md is the dense source, *out_md the same memory under the
 * output dims, which are also written to *out_rank / out_dims.
 */
static reshape_status reshape_md(const reshape_params *params,
                                 const reshape_tensor *src,
                                 dnnl_memory_desc_t *in_md,
                                 dnnl_memory_desc_t *out_md, int32_t *out_rank,
                                 int64_t *out_dims)
{
    reshape_status st;
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count;
    dnnl_dims_t d;
    dnnl_status_t ds;

    if (dnnl_type_of(src->dtype) == dnnl_data_type_undef)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "onednn has no data type for '%s'",
                            reshape_dtype_name(src->dtype));
    if ((st = adapter_list_shape(params, ADAPTER_LIST_NO_MINUS_ONE, values,
                                 &count)) != RESHAPE_OK)
        return st;
    if (count < 1 || count > DNNL_MAX_NDIMS)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "onednn memory descriptors have 1 to %d dims, "
                            "not %d",
                            DNNL_MAX_NDIMS, (int)count);
    if ((st = make_md(in_md, src->dtype, src->rank, src->dims, NULL)) !=
        RESHAPE_OK)
        return st;
    memcpy(d, values, (size_t)count * sizeof(int64_t));
    if ((ds = dnnl_memory_desc_reshape(out_md, in_md, count, d)) != dnnl_success)
        return map_dnnl(ds, "dnnl_memory_desc_reshape");
    *out_rank = out_md->ndims;
    memcpy(out_dims, out_md->dims, (size_t)out_md->ndims * sizeof(int64_t));
    return RESHAPE_OK;
}

static reshape_status dnnl_infer_shape(const reshape_params *params,
                                       const reshape_tensor *src,
                                       int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    dnnl_memory_desc_t in_md, out_md;

    adapter_clear_error();
    if ((st = adapter_check_call(params, src, NULL)) != RESHAPE_OK)
        return st;
    if (out_rank == NULL || out_dims == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "'out_rank' or 'out_dims' is NULL");
    return reshape_md(params, src, &in_md, &out_md, out_rank, out_dims);
}

/* Runs one oneDNN reorder from `from_md` over `from` to `to_md` over `to`. */
static reshape_status reorder(const dnnl_memory_desc_t *from_md, void *from,
                              const dnnl_memory_desc_t *to_md, void *to)
{
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t mfrom = NULL, mto = NULL;
    dnnl_stream_t stream = NULL;
    dnnl_status_t ds;
    const char *step;

    step = "dnnl_reorder_primitive_desc_create";
    ds = dnnl_reorder_primitive_desc_create(&pd, from_md, engine, to_md, engine,
                                            NULL);
    if (ds != dnnl_success)
        goto out;
    step = "dnnl_primitive_create";
    if ((ds = dnnl_primitive_create(&prim, pd)) != dnnl_success)
        goto out;
    step = "dnnl_memory_create";
    if ((ds = dnnl_memory_create(&mfrom, from_md, engine, from)) != dnnl_success ||
        (ds = dnnl_memory_create(&mto, to_md, engine, to)) != dnnl_success)
        goto out;
    step = "dnnl_stream_create";
    if ((ds = dnnl_stream_create(&stream, engine, dnnl_stream_default_flags)) !=
        dnnl_success)
        goto out;
    const dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, mfrom}, {DNNL_ARG_TO, mto}};
    step = "dnnl_primitive_execute";
    if ((ds = dnnl_primitive_execute(prim, stream, 2, args)) != dnnl_success)
        goto out;
    step = "dnnl_stream_wait";
    ds = dnnl_stream_wait(stream);
out:
    if (stream != NULL)
        dnnl_stream_destroy(stream);
    if (mfrom != NULL)
        dnnl_memory_destroy(mfrom);
    if (mto != NULL)
        dnnl_memory_destroy(mto);
    if (prim != NULL)
        dnnl_primitive_destroy(prim);
    if (pd != NULL)
        dnnl_primitive_desc_destroy(pd);
    return ds == dnnl_success ? RESHAPE_OK : map_dnnl(ds, step);
}

/*
 * The elements move by reorders, chosen by layout:
 *   in place      nothing moves: the reshaped descriptor is the whole
 *                 operation (oneDNN's reshape is a view);
 *   src dense     src under the reshaped descriptor, reordered into dst;
 *   dst dense     src reordered into dst seen under src's dense dims;
 *   both strided  src reordered into a dense scratch buffer, which is
 *                 reordered under the reshaped descriptor into dst.
 */
static reshape_status dnnl_execute(const reshape_params *params,
                                   const reshape_tensor *src,
                                   const reshape_tensor *dst)
{
    reshape_status st;
    dnnl_memory_desc_t in_md, out_md, src_md, dst_md;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    unsigned layout;

    adapter_clear_error();
    if ((st = adapter_check_execute(params, src, dst)) != RESHAPE_OK)
        return st;
    pthread_once(&init_once, init_engine);
    if (engine_status != dnnl_success)
        return map_dnnl(engine_status, "dnnl_engine_create");
    if ((st = reshape_md(params, src, &in_md, &out_md, &rank, dims)) !=
        RESHAPE_OK)
        return st;
    if ((st = adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK)
        return st;
    layout = adapter_layout(src, dst);
    if (layout == RESHAPE_LAYOUT_IN_PLACE)
        return RESHAPE_OK;
    if ((st = make_md(&dst_md, dst->dtype, dst->rank, dst->dims,
                      dst->strides)) != RESHAPE_OK)
        return st;
    if (src->strides == NULL)
        return reorder(&out_md, src->data, &dst_md, dst->data);
    if ((st = make_md(&src_md, src->dtype, src->rank, src->dims,
                      src->strides)) != RESHAPE_OK)
        return st;
    if (dst->strides == NULL)
        return reorder(&src_md, src->data, &in_md, dst->data);
    size_t bytes = dnnl_memory_desc_get_size(&in_md);
    void *scratch = malloc(bytes > 0 ? bytes : 1);
    if (scratch == NULL)
        return adapter_fail(RESHAPE_E_INTERNAL,
                            "out of memory for a %zu-byte scratch buffer",
                            bytes);
    st = reorder(&src_md, src->data, &in_md, scratch);
    if (st == RESHAPE_OK)
        st = reorder(&out_md, scratch, &dst_md, dst->data);
    free(scratch);
    return st;
}

/* "2.6.3", from the library that is loaded, for reports. */
static char version_text[32] = "2.6";
static pthread_once_t version_once = PTHREAD_ONCE_INIT;

static void read_version(void)
{
    const dnnl_version_t *v = dnnl_version();
    snprintf(version_text, sizeof version_text, "%d.%d.%d", v->major, v->minor,
             v->patch);
}

static const reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .name = "oneDNN",
    .version = version_text,
    .supports = dnnl_supports,
    .infer_shape = dnnl_infer_shape,
    .execute = dnnl_execute,
    .last_error = adapter_last_error,
};

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    pthread_once(&version_once, read_version);
    return &table;
}
