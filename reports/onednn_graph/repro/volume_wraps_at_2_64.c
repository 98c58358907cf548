/*
 * volume_wraps_at_2_64.c - oneDNN 3.13.1, Graph API
 * (reports/onednn_graph/2026-11-26/): infer_static_reshape_output_shape
 * (src/graph/interface/shape_infer.cpp) multiplies the input dims in dim_t
 * without an overflow check, so a volume of 2^64 wraps to 0 and the -1 is
 * solved as 0.
 *
 * Input: a graph of one StaticReshape op, attribute shape [-1],
 * special_zero false, input f32 [4294967296, 4294967296] (2^64 elements),
 * output f32 of unknown rank.  Expected: an error (the volume does not fit
 * int64; the spec's OVERFLOW).  Observed on 3.13.1: the compile succeeds
 * and the compiled partition's output has dims [0].  oneDNN 3.2.0 has no
 * backend for a StaticReshape alone (no_standalone_static_reshape.c):
 * there this exits 77.
 *
 * Exit status: 0 the finding holds (compiled, dims [0]), 1 it is gone
 * (refused, or other dims), 77 it cannot be reached here.
 * Build: see README.md beside this file.
 */
#include <stdint.h>
#include <stdio.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>
#include <oneapi/dnnl/dnnl_graph.h>

/* A graph of one StaticReshape op (attribute shape `values`, `count` of
 * them, special_zero false) from `in` to `out`, finalized and cut into its
 * one partition, into *partition; *supported says whether a backend takes
 * it.  Returns 0, or 77 where a step fails (printed). */
static int one_op_partition(const int64_t *values, size_t count,
                            const dnnl_graph_logical_tensor_t *in,
                            const dnnl_graph_logical_tensor_t *out,
                            dnnl_graph_partition_t *partition, uint8_t *supported)
{
    const uint8_t special_zero = 0;
    dnnl_graph_op_t op;
    dnnl_graph_graph_t graph;
    size_t num = 0;

    if (dnnl_graph_op_create(&op, 0, dnnl_graph_op_static_reshape, "reshape") != dnnl_success ||
        dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_shape, values, count) != dnnl_success ||
        dnnl_graph_op_set_attr_bool(op, dnnl_graph_op_attr_special_zero, &special_zero, 1) !=
            dnnl_success ||
        dnnl_graph_op_add_input(op, in) != dnnl_success ||
        dnnl_graph_op_add_output(op, out) != dnnl_success ||
        dnnl_graph_graph_create(&graph, dnnl_cpu) != dnnl_success ||
        dnnl_graph_add_op(graph, op) != dnnl_success ||
        dnnl_graph_graph_finalize(graph) != dnnl_success ||
        dnnl_graph_graph_filter(graph, dnnl_graph_partition_policy_fusion) != dnnl_success ||
        dnnl_graph_graph_get_partition_num(graph, &num) != dnnl_success || num != 1 ||
        dnnl_graph_graph_get_partitions(graph, 1, partition) != dnnl_success ||
        dnnl_graph_partition_is_supported(*partition, supported) != dnnl_success) {
        printf("oneDNN Graph could not build the one-op graph here\n");
        return 77;
    }
    return 0;
}

int main(void)
{
    const dnnl_dims_t dims = {4294967296LL, 4294967296LL};
    const int64_t shape[1] = {-1};
    dnnl_graph_logical_tensor_t in, out, got;
    dnnl_graph_partition_t partition;
    dnnl_graph_compiled_partition_t compiled;
    dnnl_engine_t engine;
    uint8_t supported = 0;

    const dnnl_version_t *v = dnnl_version();
    printf("oneDNN %d.%d.%d Graph\n", v->major, v->minor, v->patch);
    const dnnl_graph_layout_type_t strided = dnnl_graph_layout_type_strided;
    const dnnl_graph_tensor_property_t undef = dnnl_graph_tensor_property_undef;
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
        dnnl_graph_logical_tensor_init_with_dims(&in, 0, dnnl_f32, 2, dims, strided, undef) !=
            dnnl_success ||
        dnnl_graph_logical_tensor_init(&out, 1, dnnl_f32, DNNL_GRAPH_UNKNOWN_NDIMS, strided,
                                       undef) != dnnl_success) {
        printf("oneDNN could not make an engine or logical tensors here\n");
        return 77;
    }
    int rc = one_op_partition(shape, 1, &in, &out, &partition, &supported);
    if (rc != 0)
        return rc;
    if (!supported) {
        printf("dnnl_graph_partition_is_supported: 0 (no backend takes a StaticReshape alone "
               "in this version): the finding cannot be reached here\n");
        return 77;
    }
    const dnnl_graph_logical_tensor_t *ins[1] = {&in}, *outs[1] = {&out};
    dnnl_status_t st = dnnl_graph_compiled_partition_create(&compiled, partition);
    if (st == dnnl_success)
        st = dnnl_graph_partition_compile(partition, compiled, 1, ins, 1, outs, engine);
    printf("StaticReshape f32 [4294967296, 4294967296] to shape [-1]: "
           "dnnl_graph_partition_compile returned %s\n", dnnl_status2str(st));
    if (st != dnnl_success) {
        printf("refused: the finding is gone\n");
        return 1;
    }
    if (dnnl_graph_compiled_partition_query_logical_tensor(compiled, 1, &got) != dnnl_success)
        return 77;
    printf("output dims [");
    for (int i = 0; i < got.ndims; i++)
        printf("%s%lld", i ? ", " : "", (long long)got.dims[i]);
    printf("]\n");
    int holds = got.ndims == 1 && got.dims[0] == 0;
    printf("the finding %s\n", holds ? "holds" : "changed");
    return holds ? 0 : 1;
}
