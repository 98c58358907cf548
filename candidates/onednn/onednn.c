/*
 * onednn.c - the ABI over oneDNN's reshape (Debian's libdnnl 2.6.3, and
 * PyPI's oneDNN 3.2.0 as candidates/onednn3): dnnl_memory_desc_reshape
 * decides the output memory descriptor, a reorder primitive moves the
 * elements (it handles strided src and dst).  Depends on the adapter kit
 * (include/reshape_adapter.h) and oneDNN's C API, 2.x or 3.x (dnnl_md.h
 * hides how their memory descriptors differ).
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
#include <oneapi/dnnl/dnnl_version.h>

#include "reshape_adapter.h"

#include "../shape_types.h"
#include "dnnl_md.h"
#include "dnnl_shared.h"

/* The oneDNN data type of each dtype it has. */
static const reshape_adapter_type dnnl_types[] = {
    {RESHAPE_DT_F32, dnnl_f32}, {RESHAPE_DT_F16, dnnl_f16}, {RESHAPE_DT_BF16, dnnl_bf16},
    {RESHAPE_DT_S32, dnnl_s32}, {RESHAPE_DT_S8, dnnl_s8},   {RESHAPE_DT_U8, dnnl_u8},
};

/* The layouts a reorder takes (README.md, "Layouts"). */
#define HANDLED RESHAPE_ADAPTER_ANY_STRIDES
#define NO_LAYOUT "onednn memory descriptors take strides"

/*
 * oneDNN says which kind of problem it met, never which rule: invalid
 * arguments is the caller's input being refused (RESHAPE_E_INVALID_ARGUMENT,
 * the nearest status that claims no particular spec rule); "no
 * implementation for this configuration" is NOT_SUPPORTED; every other
 * status (out of memory, runtime errors, and the Graph API's statuses that
 * 3.x adds to dnnl_status_t, which the primitive API does not return) is
 * INTERNAL.  `step` names the oneDNN call; dnnl_status2str gives oneDNN's
 * own word.
 */
static const struct dnnl_meaning meanings[] = {
    {dnnl_invalid_arguments, RESHAPE_E_INVALID_ARGUMENT},
    {dnnl_unimplemented, RESHAPE_E_NOT_SUPPORTED},
};

static reshape_status map_dnnl(dnnl_status_t st, const char *step)
{
    return dnnl_map(meanings, RESHAPE_ADAPTER_COUNT(meanings), RESHAPE_E_INTERNAL,
                    "onednn", st, step);
}

static reshape_status dnnl_supports(reshape_op op, reshape_dtype data_dtype,
                                    reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st;
    int type;

    if ((st = reshape_adapter_check_layout(op, layout, HANDLED, NO_LAYOUT)) != RESHAPE_OK ||
        (st = DNNL_TYPE(data_dtype, &type)) != RESHAPE_OK)
        return st;
    return shape_type_check(op, shape_dtype, "onednn takes the shape as dnnl_dims_t");
}

/* A memory descriptor of `rank` dims with `strides` (NULL: dense); *md
 * is MD_NONE before, and the caller frees it (md_free) whatever this
 * returns. */
static reshape_status make_md(md_t *md, reshape_dtype dtype,
                              int32_t rank, const int64_t *dims,
                              const int64_t *strides)
{
    dnnl_dims_t d, s;
    dnnl_status_t st;
    int type;
    reshape_status rs;

    if ((rs = DNNL_TYPE(dtype, &type)) != RESHAPE_OK)
        return rs;
    if (rank < 1 || rank > DNNL_MAX_NDIMS)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "onednn memory descriptors have 1 to %d dims, "
                            "not %d",
                            DNNL_MAX_NDIMS, (int)rank);
    memcpy(d, dims, (size_t)rank * sizeof(int64_t));
    if (strides != NULL)
        memcpy(s, strides, (size_t)rank * sizeof(int64_t));
    st = md_create(md, rank, d, (dnnl_data_type_t)type, strides != NULL ? s : NULL);
    return st == dnnl_success ? RESHAPE_OK : map_dnnl(st, MD_CREATE_CALL);
}

/*
 * oneDNN's reshape of a dense descriptor of `src`'s dims to the shape of
 * `params`: *in_md is the dense source, *out_md the same memory under the
 * output dims, which are also written to *out_rank / out_dims.  Both are
 * MD_NONE before; the caller frees them whatever this returns.
 */
static reshape_status reshape_md(const reshape_params *params,
                                 const reshape_tensor *src,
                                 md_t *in_md, md_t *out_md, int32_t *out_rank,
                                 int64_t *out_dims)
{
    reshape_status st;
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count;
    dnnl_dims_t d;
    dnnl_status_t ds;

    if ((st = reshape_adapter_shape_list(params, RESHAPE_ADAPTER_NO_MINUS_ONE, values,
                                         &count)) != RESHAPE_OK)
        return st;
    if (count < 1 || count > DNNL_MAX_NDIMS)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "onednn memory descriptors have 1 to %d dims, "
                            "not %d",
                            DNNL_MAX_NDIMS, (int)count);
    if ((st = make_md(in_md, src->dtype, src->rank, src->dims, NULL)) !=
        RESHAPE_OK)
        return st;
    memcpy(d, values, (size_t)count * sizeof(int64_t));
    if ((ds = md_reshape(out_md, in_md, count, d)) != dnnl_success)
        return map_dnnl(ds, "dnnl_memory_desc_reshape");
    if ((ds = md_dims(out_md, out_rank, out_dims)) != dnnl_success)
        return map_dnnl(ds, "dnnl_memory_desc_query");
    return RESHAPE_OK;
}

static reshape_status dnnl_infer_shape(const reshape_params *params,
                                       const reshape_tensor *src,
                                       int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    md_t in_md = MD_NONE, out_md = MD_NONE;

    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK)
        return st;
    st = reshape_md(params, src, &in_md, &out_md, out_rank, out_dims);
    md_free(&in_md);
    md_free(&out_md);
    return st;
}

/* The primitive and its two memories, for run_on_stream. */
struct reorder_job {
    dnnl_primitive_t prim;
    dnnl_memory_t from, to;
};

static dnnl_status_t submit_reorder(dnnl_stream_t stream, void *job, const char **step)
{
    const struct reorder_job *r = job;
    const dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, r->from}, {DNNL_ARG_TO, r->to}};

    *step = "dnnl_primitive_execute";
    return dnnl_primitive_execute(r->prim, stream, 2, args);
}

/* Runs one oneDNN reorder from `from_md` over `from` to `to_md` over `to`. */
static reshape_status reorder(dnnl_engine_t cpu, const md_t *from_md, void *from,
                              const md_t *to_md, void *to)
{
    dnnl_primitive_desc_t pd = NULL;
    struct reorder_job r = {NULL, NULL, NULL};
    dnnl_status_t ds;
    const char *step = "dnnl_reorder_primitive_desc_create";

    if ((ds = dnnl_reorder_primitive_desc_create(&pd, MD_ARG(*from_md), cpu,
                                                 MD_ARG(*to_md), cpu, NULL)) !=
        dnnl_success)
        goto out;
    step = "dnnl_primitive_create";
    if ((ds = dnnl_primitive_create(&r.prim, pd)) != dnnl_success)
        goto out;
    step = "dnnl_memory_create";
    if ((ds = dnnl_memory_create(&r.from, MD_ARG(*from_md), cpu, from)) != dnnl_success ||
        (ds = dnnl_memory_create(&r.to, MD_ARG(*to_md), cpu, to)) != dnnl_success)
        goto out;
    ds = run_on_stream(cpu, submit_reorder, &r, &step);
out:
    if (r.from != NULL)
        dnnl_memory_destroy(r.from);
    if (r.to != NULL)
        dnnl_memory_destroy(r.to);
    if (r.prim != NULL)
        dnnl_primitive_destroy(r.prim);
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
 * move_elements runs the last three, with `in_md` the dense source and
 * `out_md` the same memory reshaped.
 */
static reshape_status move_elements(dnnl_engine_t cpu, const reshape_tensor *src,
                                    const reshape_tensor *dst, const md_t *in_md,
                                    const md_t *out_md)
{
    md_t src_md = MD_NONE, dst_md = MD_NONE;
    reshape_status st;
    void *scratch;

    if ((st = make_md(&dst_md, dst->dtype, dst->rank, dst->dims, dst->strides)) !=
        RESHAPE_OK)
        goto out;
    if (src->strides == NULL) {
        st = reorder(cpu, out_md, src->data, &dst_md, dst->data);
        goto out;
    }
    if ((st = make_md(&src_md, src->dtype, src->rank, src->dims, src->strides)) !=
        RESHAPE_OK)
        goto out;
    if (dst->strides == NULL) {
        st = reorder(cpu, &src_md, src->data, in_md, dst->data);
        goto out;
    }
    size_t bytes = md_size(in_md);
    if ((scratch = malloc(bytes > 0 ? bytes : 1)) == NULL) {
        st = reshape_adapter_fail(RESHAPE_E_INTERNAL,
                                  "out of memory for a %zu-byte scratch buffer", bytes);
        goto out;
    }
    st = reorder(cpu, &src_md, src->data, in_md, scratch);
    if (st == RESHAPE_OK)
        st = reorder(cpu, out_md, scratch, &dst_md, dst->data);
    free(scratch);
out:
    md_free(&src_md);
    md_free(&dst_md);
    return st;
}

/*
 * The shape comes from dnnl_memory_desc_reshape, dst is checked against it,
 * and the elements move by move_elements, unless the operation is in place.
 */
static reshape_status dnnl_execute(const reshape_params *params,
                                   const reshape_tensor *src,
                                   const reshape_tensor *dst)
{
    reshape_status st;
    md_t in_md = MD_NONE, out_md = MD_NONE;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    unsigned layout;
    dnnl_engine_t cpu;
    dnnl_status_t ds;

    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK)
        return st;
    if ((ds = cpu_engine(&cpu)) != dnnl_success)
        return map_dnnl(ds, "dnnl_engine_create");
    if ((st = reshape_md(params, src, &in_md, &out_md, &rank, dims)) == RESHAPE_OK &&
        (st = reshape_adapter_check_dst(src, dst, rank, dims)) == RESHAPE_OK) {
        layout = reshape_adapter_layout(src, dst);
        st = reshape_adapter_check_layout(params->op, layout, HANDLED, NO_LAYOUT);
        if (st == RESHAPE_OK && layout != RESHAPE_LAYOUT_IN_PLACE)
            st = move_elements(cpu, src, dst, &in_md, &out_md);
    }
    md_free(&in_md);
    md_free(&out_md);
    return st;
}

/* "2.6.3" or "3.2.0", from the library that is loaded, for reports. */
static void version_of(char *text, size_t size)
{
    const dnnl_version_t *v = dnnl_version();
    snprintf(text, size, "%d.%d.%d", v->major, v->minor, v->patch);
}

RESHAPE_ADAPTER_DEFINE_LOADED("oneDNN", version_of,
                              dnnl_supports, dnnl_infer_shape, dnnl_execute,
                              NULL)
