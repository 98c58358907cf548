/*
 * onednn_graph.c - the ABI over oneDNN Graph's StaticReshape (oneDNN 3.x,
 * PyPI's 3.2.0, candidates/onednn/wheel.mk): a graph of one StaticReshape
 * op, its one partition compiled with the input's logical tensor and an output whose
 * rank and dims are unknown, so that oneDNN's own shape inference decides
 * them; the compiled partition then runs on tensors wrapping the caller's
 * buffers.  Depends on the adapter kit (include/reshape_adapter.h) and oneDNN's C API
 * (dnnl.h for the engine and stream, dnnl_graph.h for the rest).
 *
 * What the Graph API carries: every dnnl_data_type_t (the op's schema then
 * decides which it takes); 0 to DNNL_MAX_NDIMS dims; the shape as an s64
 * list with oneDNN's own -1 and copying zero; strided tensors as
 * logical-tensor strides.  DynamicReshape is no op kind of oneDNN 3.x.
 * README.md lists what answers NOT_SUPPORTED and how statuses map.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>
#include <oneapi/dnnl/dnnl_graph.h>
#include <oneapi/dnnl/dnnl_version.h>

#include "reshape_adapter.h"

#include "../onednn/dnnl_shared.h"
#include "../shape_types.h"

enum { IN_ID = 0, OUT_ID = 1 };

/*
 * The oneDNN data type of each dtype it has.  oneDNN 3.2.0's
 * dnnl_common_types.h has no f8_e4m3, f8_e5m2, s4 or u4; 3.13.1's has all
 * four.  Only those two versions are built here, so the test is "after
 * 3.2", not the minor version each type came with.
 */
#define DNNL_HAS_F8_AND_INT4 (DNNL_VERSION_MAJOR > 3 || DNNL_VERSION_MINOR > 2)
static const reshape_adapter_type dnnl_types[] = {
    {RESHAPE_DT_F64, dnnl_f64},        {RESHAPE_DT_F32, dnnl_f32},
    {RESHAPE_DT_F16, dnnl_f16},        {RESHAPE_DT_BF16, dnnl_bf16},
    {RESHAPE_DT_S32, dnnl_s32},        {RESHAPE_DT_S8, dnnl_s8},
    {RESHAPE_DT_U8, dnnl_u8},          {RESHAPE_DT_BOOLEAN, dnnl_boolean},
#if DNNL_HAS_F8_AND_INT4
    {RESHAPE_DT_F8E4M3, dnnl_f8_e4m3}, {RESHAPE_DT_F8E5M2, dnnl_f8_e5m2},
    {RESHAPE_DT_S4, dnnl_s4},          {RESHAPE_DT_U4, dnnl_u4},
#endif
};

/* The layouts logical tensors with strides take (README.md). */
#define HANDLED RESHAPE_ADAPTER_ANY_STRIDES
#define NO_LAYOUT "onednn graph logical tensors take strides"

/*
 * oneDNN names the class of a refusal, never the rule: an invalid data type
 * is the operation's type list (DATA_TYPE); an invalid shape, graph, op or
 * argument is the input refused (INVALID_ARGUMENT, the nearest status that
 * claims no particular spec rule); dnnl_unimplemented is NOT_SUPPORTED; out of
 * memory and runtime errors are INTERNAL.  `step` names the oneDNN call.
 */
static const struct dnnl_meaning meanings[] = {
    {dnnl_invalid_data_type, RESHAPE_E_DATA_TYPE},
    {dnnl_invalid_arguments, RESHAPE_E_INVALID_ARGUMENT},
    {dnnl_invalid_graph, RESHAPE_E_INVALID_ARGUMENT},
    {dnnl_invalid_graph_op, RESHAPE_E_INVALID_ARGUMENT},
    {dnnl_invalid_shape, RESHAPE_E_INVALID_ARGUMENT},
    {dnnl_unimplemented, RESHAPE_E_NOT_SUPPORTED},
};

static reshape_status map_dnnl(dnnl_status_t st, const char *step)
{
    return dnnl_map(meanings, RESHAPE_ADAPTER_COUNT(meanings), RESHAPE_E_INTERNAL,
                    "onednn graph", st, step);
}

/* A compiled one-op partition and the logical tensors it was compiled for
 * (`out` as oneDNN inferred it). */
struct plan {
    dnnl_graph_partition_t partition;
    dnnl_graph_compiled_partition_t compiled;
    dnnl_graph_logical_tensor_t in, out;
};

static void plan_free(struct plan *p)
{
    if (p->compiled != NULL)
        dnnl_graph_compiled_partition_destroy(p->compiled);
    if (p->partition != NULL)
        dnnl_graph_partition_destroy(p->partition);
    p->compiled = NULL;
    p->partition = NULL;
}

/* Logical tensor `id` of `rank` dims with `strides` (NULL: dense, the
 * strides left to oneDNN). */
static dnnl_status_t make_lt(dnnl_graph_logical_tensor_t *lt, size_t id,
                             dnnl_data_type_t dt, int32_t rank,
                             const int64_t *dims, const int64_t *strides)
{
    dnnl_dims_t d, s;

    memcpy(d, dims, (size_t)rank * sizeof(int64_t));
    if (strides == NULL)
        return dnnl_graph_logical_tensor_init_with_dims(
            lt, id, dt, rank, d, dnnl_graph_layout_type_strided,
            dnnl_graph_tensor_property_undef);
    memcpy(s, strides, (size_t)rank * sizeof(int64_t));
    return dnnl_graph_logical_tensor_init_with_strides(
        lt, id, dt, rank, d, s, dnnl_graph_tensor_property_undef);
}

/*
 * The graph of one StaticReshape op with `values` (`count` of them) and
 * `special_zero`, from `in` to `out`, finalized and cut into its partitions;
 * exactly one is expected.  On success p->partition is set.
 */
static reshape_status partition_of(const int64_t *values, int32_t count,
                                   int32_t special_zero,
                                   const dnnl_graph_logical_tensor_t *in,
                                   const dnnl_graph_logical_tensor_t *out,
                                   struct plan *p)
{
    dnnl_graph_op_t op = NULL;
    dnnl_graph_graph_t graph = NULL;
    dnnl_status_t ds;
    const char *step = "dnnl_graph_op_create";
    const uint8_t zero_flag = special_zero ? 1 : 0;
    size_t num = 0;
    uint8_t supported = 0;

    if ((ds = dnnl_graph_op_create(&op, 0, dnnl_graph_op_static_reshape,
                                   "reshape")) != dnnl_success)
        goto out;
    step = "dnnl_graph_op_set_attr_s64(shape)";
    if ((ds = dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_shape, values,
                                         (size_t)count)) != dnnl_success)
        goto out;
    step = "dnnl_graph_op_set_attr_bool(special_zero)";
    if ((ds = dnnl_graph_op_set_attr_bool(op, dnnl_graph_op_attr_special_zero,
                                          &zero_flag, 1)) != dnnl_success)
        goto out;
    step = "dnnl_graph_op_add_input";
    if ((ds = dnnl_graph_op_add_input(op, in)) != dnnl_success)
        goto out;
    step = "dnnl_graph_op_add_output";
    if ((ds = dnnl_graph_op_add_output(op, out)) != dnnl_success)
        goto out;
    step = "dnnl_graph_graph_create";
    if ((ds = dnnl_graph_graph_create(&graph, dnnl_cpu)) != dnnl_success)
        goto out;
    step = "dnnl_graph_add_op";
    if ((ds = dnnl_graph_add_op(graph, op)) != dnnl_success)
        goto out;
    step = "dnnl_graph_graph_finalize";
    if ((ds = dnnl_graph_graph_finalize(graph)) != dnnl_success)
        goto out;
    step = "dnnl_graph_graph_filter";
    if ((ds = dnnl_graph_graph_filter(graph, dnnl_graph_partition_policy_fusion)) !=
        dnnl_success)
        goto out;
    step = "dnnl_graph_graph_get_partition_num";
    if ((ds = dnnl_graph_graph_get_partition_num(graph, &num)) != dnnl_success)
        goto out;
    step = "dnnl_graph_graph_get_partitions (one op, one partition expected)";
    if (num != 1) {
        ds = dnnl_runtime_error;
        goto out;
    }
    if ((ds = dnnl_graph_graph_get_partitions(graph, 1, &p->partition)) !=
        dnnl_success)
        goto out;
    step = "dnnl_graph_partition_is_supported";
    if ((ds = dnnl_graph_partition_is_supported(p->partition, &supported)) ==
            dnnl_success &&
        !supported)
        ds = dnnl_unimplemented;
out:
    if (graph != NULL)
        dnnl_graph_graph_destroy(graph);
    if (op != NULL)
        dnnl_graph_op_destroy(op);
    return ds == dnnl_success ? RESHAPE_OK : map_dnnl(ds, step);
}

/*
 * Compiles the StaticReshape of `params` on `src` (its strides used when
 * `src_strides` is not NULL).  With `dst` NULL the output's rank and dims
 * are unknown and oneDNN infers them; otherwise the output is dst's dims and
 * strides.  p->out is the compiled partition's output as oneDNN reports it.
 */
static reshape_status plan_build(const reshape_params *params,
                                 const reshape_tensor *src,
                                 const int64_t *src_strides,
                                 const reshape_tensor *dst, struct plan *p)
{
    reshape_status st;
    dnnl_status_t ds;
    int dt;
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count;
    const char *step = "dnnl_graph_logical_tensor_init";

    memset(p, 0, sizeof *p);
    if ((st = DNNL_TYPE(src->dtype, &dt)) != RESHAPE_OK ||
        (st = reshape_adapter_shape_list(params, RESHAPE_ADAPTER_COPY_ZERO, values,
                                         &count)) != RESHAPE_OK)
        return st;
    if (src->rank > DNNL_MAX_NDIMS || count > DNNL_MAX_NDIMS ||
        (dst != NULL && dst->rank > DNNL_MAX_NDIMS))
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "onednn logical tensors have at most %d dims",
                            DNNL_MAX_NDIMS);
    if ((ds = make_lt(&p->in, IN_ID, dt, src->rank, src->dims, src_strides)) !=
        dnnl_success)
        return map_dnnl(ds, step);
    if (dst == NULL)
        ds = dnnl_graph_logical_tensor_init(&p->out, OUT_ID, dt,
                                            DNNL_GRAPH_UNKNOWN_NDIMS,
                                            dnnl_graph_layout_type_strided,
                                            dnnl_graph_tensor_property_undef);
    else
        ds = make_lt(&p->out, OUT_ID, dt, dst->rank, dst->dims, dst->strides);
    if (ds != dnnl_success)
        return map_dnnl(ds, step);
    if ((st = partition_of(values, count, params->special_zero, &p->in, &p->out,
                           p)) != RESHAPE_OK) {
        plan_free(p);
        return st;
    }
    const dnnl_graph_logical_tensor_t *ins[1] = {&p->in}, *outs[1] = {&p->out};
    step = "dnnl_graph_compiled_partition_create";
    if ((ds = dnnl_graph_compiled_partition_create(&p->compiled, p->partition)) ==
        dnnl_success) {
        dnnl_engine_t cpu;
        step = "dnnl_graph_partition_compile";
        if ((ds = cpu_engine(&cpu)) == dnnl_success)
            ds = dnnl_graph_partition_compile(p->partition, p->compiled, 1, ins, 1, outs,
                                              cpu);
    }
    if (ds == dnnl_success) {
        step = "dnnl_graph_compiled_partition_query_logical_tensor";
        ds = dnnl_graph_compiled_partition_query_logical_tensor(p->compiled,
                                                                OUT_ID, &p->out);
    }
    if (ds != dnnl_success) {
        plan_free(p);
        return map_dnnl(ds, step);
    }
    if (p->out.ndims < 0 || p->out.ndims > RESHAPE_MAX_RANK) {
        plan_free(p);
        return reshape_adapter_fail(RESHAPE_E_INTERNAL,
                            "onednn graph inferred an output of %d dims",
                            p->out.ndims);
    }
    return RESHAPE_OK;
}

/*
 * What oneDNN Graph says of a StaticReshape of `dtype` data [1] to [1],
 * asked of the library, as its answer depends on its version and the CPU:
 * RESHAPE_OK where it compiles; DATA_TYPE or INVALID_ARGUMENT where
 * dnnl_graph_add_op refuses the type (the op's type list); NOT_SUPPORTED
 * where no backend takes the partition (oneDNN 3.2.0 has no partition for
 * a StaticReshape alone, oneDNN issue #1858; 3.13.1 none for f16 and bf16
 * on a CPU without AVX512-core, README.md).
 */
static reshape_status graph_probe(reshape_dtype dtype)
{
    const int64_t one = 1, values[1] = {1}, count = 1;
    const reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)values};
    const reshape_params params = {RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, 0, &shape};
    const reshape_tensor src = {dtype, 1, &one, NULL, NULL};
    struct plan p;

    reshape_status st = plan_build(&params, &src, NULL, NULL, &p);
    plan_free(&p);
    return st;
}

/*
 * Where the probe finds no partition, nothing of that dtype can run:
 * NOT_SUPPORTED, with oneDNN's answer as the reason (this also spares the
 * harness thousands of graphs built only to be refused).  A type the op's
 * schema refuses is left to execute for StaticReshape itself (its error
 * cases), and is NOT_SUPPORTED for the operations that list it.
 */
static reshape_status graph_supports(reshape_op op, reshape_dtype data_dtype,
                                     reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st;
    int type;

    if ((st = reshape_adapter_check_layout(op, layout, HANDLED, NO_LAYOUT)) != RESHAPE_OK)
        return st;
    if (op == RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                    "oneDNN 3.x has no DynamicReshape op kind");
    if ((st = DNNL_TYPE(data_dtype, &type)) != RESHAPE_OK ||
        (st = shape_type_check(op, shape_dtype,
                               "StaticReshape takes the shape as an s64 list")) != RESHAPE_OK)
        return st;
    dnnl_engine_t cpu;
    dnnl_status_t ds;
    if ((ds = cpu_engine(&cpu)) != dnnl_success)
        return map_dnnl(ds, "dnnl_engine_create");
    st = graph_probe(data_dtype);
    if (st == RESHAPE_E_NOT_SUPPORTED)
        return st;
    if (op != RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1 &&
        (st == RESHAPE_E_DATA_TYPE || st == RESHAPE_E_INVALID_ARGUMENT))
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "oneDNN Graph's StaticReshape does not take '%s' "
                            "data, which '%s' lists",
                            reshape_dtype_name(data_dtype), reshape_op_name(op));
    return RESHAPE_OK;
}

/* What every entry point checks after the ABI: the layout, the engine,
 * DynamicReshape.  `dst` is NULL for infer_shape. */
static reshape_status enter(const reshape_params *params,
                            const reshape_tensor *src, const reshape_tensor *dst)
{
    reshape_status st;

    if (dst != NULL &&
        (st = reshape_adapter_check_layout(params->op, reshape_adapter_layout(src, dst),
                                           HANDLED, NO_LAYOUT)) != RESHAPE_OK)
        return st;
    if (params->op == RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "oneDNN 3.x has no DynamicReshape op kind");
    dnnl_engine_t cpu;
    dnnl_status_t ds;
    if ((ds = cpu_engine(&cpu)) != dnnl_success)
        return map_dnnl(ds, "dnnl_engine_create");
    return RESHAPE_OK;
}

static reshape_status graph_infer_shape(const reshape_params *params,
                                        const reshape_tensor *src,
                                        int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    struct plan p;

    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK ||
        (st = enter(params, src, NULL)) != RESHAPE_OK)
        return st;
    if ((st = plan_build(params, src, NULL, NULL, &p)) != RESHAPE_OK)
        return st;
    *out_rank = p.out.ndims;
    memcpy(out_dims, p.out.dims, (size_t)p.out.ndims * sizeof(int64_t));
    plan_free(&p);
    return RESHAPE_OK;
}

/* A compiled partition and its two tensors, for run_on_stream. */
struct partition_job {
    dnnl_graph_compiled_partition_t compiled;
    const_dnnl_graph_tensor_t ins[1], outs[1];
};

static dnnl_status_t submit_partition(dnnl_stream_t stream, void *job, const char **step)
{
    struct partition_job *j = job;

    *step = "dnnl_graph_compiled_partition_execute";
    return dnnl_graph_compiled_partition_execute(j->compiled, stream, 1, j->ins, 1, j->outs);
}

/* Runs the compiled partition of `p` from `from` to `to`. */
static reshape_status run(const struct plan *p, void *from, void *to)
{
    dnnl_graph_tensor_t tin = NULL, tout = NULL;
    dnnl_engine_t cpu;
    dnnl_status_t ds;
    const char *step = "dnnl_engine_create";

    if ((ds = cpu_engine(&cpu)) == dnnl_success) {
        step = "dnnl_graph_tensor_create";
        if ((ds = dnnl_graph_tensor_create(&tin, &p->in, cpu, from)) == dnnl_success &&
            (ds = dnnl_graph_tensor_create(&tout, &p->out, cpu, to)) == dnnl_success) {
            struct partition_job j = {p->compiled, {tin}, {tout}};
            ds = run_on_stream(cpu, submit_partition, &j, &step);
        }
    }
    if (tin != NULL)
        dnnl_graph_tensor_destroy(tin);
    if (tout != NULL)
        dnnl_graph_tensor_destroy(tout);
    return ds == dnnl_success ? RESHAPE_OK : map_dnnl(ds, step);
}

/*
 * The dims come from a compile with the output unknown; dst is checked
 * against them; a strided dst is then compiled for again with its strides
 * (and the dims oneDNN inferred), a strided src with its strides from the
 * start.  In place, both tensors wrap the same buffer.
 */
static reshape_status graph_execute(const reshape_params *params,
                                    const reshape_tensor *src,
                                    const reshape_tensor *dst)
{
    reshape_status st;
    struct plan p;

    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = enter(params, src, dst)) != RESHAPE_OK)
        return st;
    if ((st = plan_build(params, src, src->strides, NULL, &p)) != RESHAPE_OK)
        return st;
    st = reshape_adapter_check_dst(src, dst, p.out.ndims, p.out.dims);
    if (st == RESHAPE_OK && dst->strides != NULL) {
        plan_free(&p);
        st = plan_build(params, src, src->strides, dst, &p);
    }
    if (st == RESHAPE_OK)
        st = run(&p, src->data, dst->data);
    plan_free(&p);
    return st;
}

/* "3.2.0 Graph", from the library that is loaded, for reports. */
static void version_of(char *text, size_t size)
{
    const dnnl_version_t *v = dnnl_version();
    snprintf(text, size, "%d.%d.%d Graph", v->major, v->minor, v->patch);
}

RESHAPE_ADAPTER_DEFINE_LOADED("oneDNN", version_of,
                              graph_supports, graph_infer_shape, graph_execute,
                              NULL)
