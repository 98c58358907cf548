/*
 * empty_reshape_refused.c - oneDNN 3.2.0 (PyPI onednn-cpu-gomp 2023.2.0):
 * dnnl_memory_desc_reshape refuses to reshape a memory descriptor of an
 * empty tensor (a 0 among its dims) into any other dims with the same
 * volume, 0, returning dnnl_invalid_arguments.
 *
 * Input: a dense f32 memory descriptor of dims [0, 3], reshaped to dims
 * [3, 0] (and, for contrast, to [0, 3] itself).  Expected: dnnl_success
 * and an output descriptor of dims [3, 0]: both hold 0 elements, which is
 * all a Reshape asks (OpenVINO Reshape-1, oneDNN StaticReshape-1, ONNX
 * Reshape-14).
 *
 * Exit status: 0 the finding holds (refused), 1 it is gone (reshaped),
 * 77 oneDNN could not be used here.
 * Build: see README.md beside this file.
 */
#include <stdio.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>

/* dnnl_memory_desc_reshape of `in` to `ndims` dims `dims`, printed. */
static dnnl_status_t reshape(const_dnnl_memory_desc_t in, int ndims, const dnnl_dims_t dims)
{
    dnnl_memory_desc_t out = NULL;
    dnnl_status_t st = dnnl_memory_desc_reshape(&out, in, ndims, dims);

    printf("dnnl_memory_desc_reshape(f32 [0, 3] -> [%lld, %lld]) returned %s", (long long)dims[0],
           (long long)dims[1], dnnl_status2str(st));
    if (st == dnnl_success) {
        const dnnl_dims_t *got = NULL;
        int n = 0;
        dnnl_memory_desc_query(out, dnnl_query_ndims_s32, &n);
        dnnl_memory_desc_query(out, dnnl_query_dims, &got);
        printf(", dims [");
        for (int i = 0; i < n; i++)
            printf("%s%lld", i ? ", " : "", (long long)(*got)[i]);
        printf("]");
        dnnl_memory_desc_destroy(out);
    }
    printf("\n");
    return st;
}

int main(void)
{
    const dnnl_dims_t dims = {0, 3}, target = {3, 0};
    dnnl_memory_desc_t in;

    if (dnnl_memory_desc_create_with_tag(&in, 2, dims, dnnl_f32, dnnl_ab) != dnnl_success) {
        printf("oneDNN could not describe f32 [0, 3]\n");
        return 77;
    }
    const dnnl_version_t *v = dnnl_version();
    printf("oneDNN %d.%d.%d\n", v->major, v->minor, v->patch);
    reshape(in, 2, dims);
    dnnl_status_t st = reshape(in, 2, target);
    dnnl_memory_desc_destroy(in);
    printf("the finding %s\n", st == dnnl_success ? "is gone" : "holds");
    return st == dnnl_success ? 1 : 0;
}
