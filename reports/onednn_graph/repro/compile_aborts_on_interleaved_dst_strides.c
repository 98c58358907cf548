/*
 * compile_aborts_on_interleaved_dst_strides.c - oneDNN 3.13.1, Graph API
 * (reports/onednn_graph/2026-11-26/): dnnl_graph_partition_compile ends the
 * process for an output logical tensor whose strides interleave its dims:
 * make_dnnl_memory_desc, called from layout_propagator_for_reshape, throws
 * dnnl::error ("could not construct a memory descriptor using strides"),
 * which escapes the C API: std::terminate, SIGABRT.
 *
 * Input: a graph of one StaticReshape op, attribute shape [3, 2],
 * special_zero false, input f32 [6] (dense), output f32 [3, 2] with
 * strides [2, 3] (dnnl_graph_logical_tensor_init_with_strides; elements at
 * offsets 0 3 2 5 4 7, all distinct).  Expected: a dnnl_status_t
 * (dnnl_unimplemented, for a layout it does not take, would be a conformant
 * refusal), or a compiled partition.  The compile runs in a child process.
 * oneDNN 3.2.0 has no backend for a StaticReshape alone
 * (no_standalone_static_reshape.c): there this exits 77.
 *
 * Exit status: 0 the finding holds (SIGABRT), 1 it is gone (a status
 * came back), 77 it cannot be reached here.
 * Build: see README.md beside this file.
 */
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
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

/* Compiles `partition` for `in` and `out`; returns its status. */
static dnnl_status_t compile(dnnl_graph_partition_t partition, dnnl_engine_t engine,
                             const dnnl_graph_logical_tensor_t *in,
                             const dnnl_graph_logical_tensor_t *out)
{
    const dnnl_graph_logical_tensor_t *ins[1] = {in}, *outs[1] = {out};
    dnnl_graph_compiled_partition_t compiled;
    dnnl_status_t st = dnnl_graph_compiled_partition_create(&compiled, partition);

    return st == dnnl_success
               ? dnnl_graph_partition_compile(partition, compiled, 1, ins, 1, outs, engine)
               : st;
}

int main(void)
{
    const dnnl_dims_t dims = {6}, out_dims = {3, 2}, out_strides = {2, 3};
    const int64_t shape[2] = {3, 2};
    dnnl_graph_logical_tensor_t in, out;
    dnnl_graph_partition_t partition;
    dnnl_engine_t engine;
    uint8_t supported = 0;

    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success) {
        printf("oneDNN could not make a CPU engine here\n");
        return 77;
    }
    dnnl_graph_logical_tensor_init_with_dims(&in, 0, dnnl_f32, 1, dims,
                                             dnnl_graph_layout_type_strided,
                                             dnnl_graph_tensor_property_undef);
    dnnl_graph_logical_tensor_init_with_strides(&out, 1, dnnl_f32, 2, out_dims, out_strides,
                                                dnnl_graph_tensor_property_undef);
    const dnnl_version_t *v = dnnl_version();
    printf("oneDNN %d.%d.%d Graph\n", v->major, v->minor, v->patch);
    int rc = one_op_partition(shape, sizeof shape / sizeof shape[0], &in, &out, &partition,
                              &supported);
    if (rc != 0)
        return rc;
    if (!supported) {
        printf("dnnl_graph_partition_is_supported: 0 (no backend takes a StaticReshape alone "
               "in this version): the finding cannot be reached here\n");
        return 77;
    }
    printf("StaticReshape f32 [6] to shape [3, 2], dst strides [2, 3]: "
           "compiling in a child process\n");
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 77;
    if (pid == 0) {
        dnnl_status_t st = compile(partition, engine, &in, &out);
        printf("dnnl_graph_partition_compile returned %s\n", dnnl_status2str(st));
        _exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return 77;
    if (WIFSIGNALED(status)) {
        printf("the child died of signal %d (%s): the finding %s\n", WTERMSIG(status),
               strsignal(WTERMSIG(status)), WTERMSIG(status) == SIGABRT ? "holds" : "changed");
        return WTERMSIG(status) == SIGABRT ? 0 : 1;
    }
    printf("the compile returned: the finding is gone\n");
    return 1;
}
