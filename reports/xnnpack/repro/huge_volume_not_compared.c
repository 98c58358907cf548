/*
 * huge_volume_not_compared.c - XNNPACK (Debian's libxnnpack 0.0~git20220216):
 * f32 [4, 4611686018427387905] (2^64 + 4 elements, past int64) with the new
 * shape [4] defines and gets a runtime (nothing is run), where the reshape
 * specs refuse a volume that overflows.  The cause is not a wrapping
 * product: xnn_define_static_reshape compares no volumes at all, so [4, 5]
 * with [4], whose product needs no wrap, is accepted the same way (both
 * are shown).  Exit 0: both still accepted (the finding holds); 1: either
 * refused now; 77: xnn_initialize fails here.  Against libXNNPACK alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <xnnpack.h>

/* A subgraph of one xnn_define_static_reshape of `type` data of `in_rank`
 * dims `in` to `new_rank` dims `shape` (external values 0 and 1), then
 * xnn_create_runtime_v2, as the adapter does; the runtime into *runtime.
 * Returns the first status that is not success, and prints it. */
static enum xnn_status build(enum xnn_datatype type, size_t in_rank, const size_t *in,
                             size_t new_rank, const size_t *shape, xnn_runtime_t *runtime)
{
    xnn_subgraph_t g;
    uint32_t in_id, out_id;
    enum xnn_status s = xnn_create_subgraph(2, 0, &g);
    if (s != xnn_status_success)
        return s;
    if (type == xnn_datatype_fp32) {
        s = xnn_define_tensor_value(g, type, in_rank, in, NULL, 0,
                                    XNN_VALUE_FLAG_EXTERNAL_INPUT, &in_id);
        if (s == xnn_status_success)
            s = xnn_define_tensor_value(g, type, new_rank, shape, NULL, 1,
                                        XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &out_id);
    } else {
        s = xnn_define_quantized_tensor_value(g, type, 0, 1.0f, in_rank, in, NULL, 0,
                                              XNN_VALUE_FLAG_EXTERNAL_INPUT, &in_id);
        if (s == xnn_status_success)
            s = xnn_define_quantized_tensor_value(g, type, 0, 1.0f, new_rank, shape, NULL, 1,
                                                  XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &out_id);
    }
    if (s == xnn_status_success)
        s = xnn_define_static_reshape(g, new_rank, shape, in_id, out_id, 0);
    if (s == xnn_status_success)
        s = xnn_create_runtime_v2(g, NULL, 0, runtime);
    xnn_delete_subgraph(g);
    printf("observed: xnn_status %d (%s)\n", (int)s,
           s == xnn_status_success ? "success" : "an error");
    return s;
}

int main(void)
{
    const size_t huge[2] = {4, 4611686018427387905u}, small[2] = {4, 5}, shape[1] = {4};
    xnn_runtime_t runtime;
    int held = 1;
    if (xnn_initialize(NULL) != xnn_status_success) {
        printf("xnn_initialize failed\n");
        return 77;
    }
    printf("xnn_define_static_reshape f32 [4, 4611686018427387905] to [4]\n"
           "expected: an error (2^64 + 4 elements)\n");
    if (build(xnn_datatype_fp32, 2, huge, 1, shape, &runtime) == xnn_status_success)
        xnn_delete_runtime(runtime);
    else
        held = 0;
    printf("xnn_define_static_reshape f32 [4, 5] to [4]\n"
           "expected: an error (volume 20 to 4)\n");
    if (build(xnn_datatype_fp32, 2, small, 1, shape, &runtime) == xnn_status_success)
        xnn_delete_runtime(runtime);
    else
        held = 0;
    return held ? 0 : 1;
}
