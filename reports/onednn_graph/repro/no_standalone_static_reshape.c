/*
 * no_standalone_static_reshape.c - oneDNN 3.2.0 (PyPI onednn-cpu-gomp
 * 2023.2.0), Graph API: no backend takes a partition of one StaticReshape
 * op, so the Graph API cannot run StaticReshape-1 on its own at all
 * (oneDNN issue #1858, reported against v3.4.1; supported since commit
 * 6e75504d, July 2024; the 3.13.1 of reports/onednn_graph/2026-11-26/ ran it).
 *
 * Input: a graph of one StaticReshape op, attribute shape [3, 2],
 * special_zero false, input f32 [2, 3] (strided, dense), output f32 of
 * unknown rank; finalized, filtered with the fusion policy, one partition.
 * Expected: dnnl_graph_partition_is_supported sets 1 and the partition
 * compiles.  Observed on 3.2.0: 0, and dnnl_graph_partition_compile
 * returns invalid_arguments.
 *
 * Exit status: 0 the finding holds (unsupported), 1 it is gone (the
 * partition is supported on 3.2.x), 77 oneDNN could not be used here or
 * it is a later version that supports the partition (3.13.2).
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
    const dnnl_dims_t dims = {2, 3};
    const int64_t shape[2] = {3, 2};
    dnnl_graph_logical_tensor_t in, out;
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
    int rc = one_op_partition(shape, 2, &in, &out, &partition, &supported);
    if (rc != 0)
        return rc;
    printf("StaticReshape f32 [2, 3] to shape [3, 2]: dnnl_graph_partition_is_supported: %d\n",
           supported);
    const dnnl_graph_logical_tensor_t *ins[1] = {&in}, *outs[1] = {&out};
    if (dnnl_graph_compiled_partition_create(&compiled, partition) == dnnl_success)
        printf("dnnl_graph_partition_compile returned %s\n",
               dnnl_status2str(dnnl_graph_partition_compile(partition, compiled, 1, ins, 1,
                                                            outs, engine)));
    /* The finding is about 3.2.x: a later version with the fix of #1858
     * (3.13.2, the onednn_graph313 build) is skipped, not failed. */
    if (supported && (v->major != 3 || v->minor != 2)) {
        printf("supported on %d.%d.%d, as expected after the fix of #1858: skipped\n",
               v->major, v->minor, v->patch);
        return 77;
    }
    printf("the finding %s\n", supported ? "is gone" : "holds");
    return supported ? 1 : 0;
}
