/*
 * volume_not_compared.c - XNNPACK (Debian's libxnnpack 0.0~git20220216):
 * xnn_define_static_reshape compares no volumes: f32 [2, 3, 4] (24
 * elements) with the new shape [7, 3] (21) defines, and
 * xnn_create_runtime_v2 succeeds, where every reshape spec here refuses a
 * volume mismatch.  Exit 0: still accepted (the finding holds); 1: refused
 * now; 77: xnn_initialize fails here.  Against libXNNPACK alone.
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
    const size_t in[3] = {2, 3, 4}, shape[2] = {7, 3};
    xnn_runtime_t runtime;
    if (xnn_initialize(NULL) != xnn_status_success) {
        printf("xnn_initialize failed\n");
        return 77;
    }
    printf("xnn_define_static_reshape f32 [2, 3, 4] to [7, 3]\n"
           "expected: an error (volume 24 to 21)\n");
    if (build(xnn_datatype_fp32, 3, in, 2, shape, &runtime) != xnn_status_success)
        return 1;
    xnn_delete_runtime(runtime);
    return 0;
}
