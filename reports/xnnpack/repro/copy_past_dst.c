/*
 * copy_past_dst.c - XNNPACK (Debian's libxnnpack 0.0~git20220216): after
 * the mismatch xnn_define_static_reshape accepts (volume_not_compared.c),
 * xnn_invoke_runtime copies the input's volume, not the output's: f32
 * [2, 3, 4] (24 elements 1..24) into the [7, 3] destination it accepted
 * (21 elements) writes elements 22, 23 and 24 into the 3 floats after the
 * destination (here a guard of 0xAA bytes in the same array).  Exit 0: the
 * guard is overwritten so (the finding holds); 1: it is intact now; 77:
 * xnn_initialize fails here.  Against libXNNPACK alone.
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
    float src[24], dst[21 + 3];
    xnn_runtime_t runtime;
    for (int i = 0; i < 24; i++)
        src[i] = (float)(i + 1);
    memset(dst, 0xAA, sizeof dst);
    if (xnn_initialize(NULL) != xnn_status_success) {
        printf("xnn_initialize failed\n");
        return 77;
    }
    printf("f32 [2, 3, 4] = 1..24 into a [7, 3] destination (21 floats, then 3 guard "
           "floats of bytes aa)\nexpected: the guard intact (aaaaaaaa x 3)\n");
    if (build(xnn_datatype_fp32, 3, in, 2, shape, &runtime) != xnn_status_success)
        return 1;
    const struct xnn_external_value values[2] = {{0, src}, {1, dst}};
    if (xnn_setup_runtime(runtime, 2, values) != xnn_status_success ||
        xnn_invoke_runtime(runtime) != xnn_status_success) {
        printf("observed: setup or invoke failed\n");
        return 1;
    }
    xnn_delete_runtime(runtime);
    unsigned char guard[12];
    memcpy(guard, dst + 21, sizeof guard);
    printf("observed guard bytes:");
    for (int i = 0; i < 12; i++)
        printf("%s%02x", i % 4 ? "" : " ", guard[i]);
    printf(" (floats %g %g %g)\n", dst[21], dst[22], dst[23]);
    return dst[21] == 22.0f && dst[22] == 23.0f && dst[23] == 24.0f ? 0 : 1;
}
