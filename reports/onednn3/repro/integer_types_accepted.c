/*
 * integer_types_accepted.c - oneDNN 3.2.0 (PyPI onednn-cpu-gomp 2023.2.0):
 * the primitive API has no operation type list, so dnnl_memory_desc_reshape
 * reshapes s32, s8 and u8 memory as readily as f32, where oneDNN's own
 * StaticReshape-1 and DynamicReshape-1 list f32, f16 and bf16 only (a
 * caller that maps those ops onto it must refuse the rest itself).
 *
 * Input: dense memory descriptors of dims [2, 3] with data types s32, s8
 * and u8, each reshaped to dims [3, 2].  Expected for StaticReshape-1: an
 * error for each (the op's type list); the primitive API has none to give.
 *
 * Exit status: 0 the finding holds (all three reshaped), 1 it is gone
 * (some refused), 77 oneDNN could not be used here.
 * Build: see README.md beside this file.
 */
#include <stdio.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>

int main(void)
{
    const dnnl_dims_t dims = {2, 3}, target = {3, 2};
    const dnnl_data_type_t types[3] = {dnnl_s32, dnnl_s8, dnnl_u8};
    int accepted = 0;

    const dnnl_version_t *v = dnnl_version();
    printf("oneDNN %d.%d.%d\n", v->major, v->minor, v->patch);
    for (int i = 0; i < 3; i++) {
        dnnl_memory_desc_t in, out = NULL;
        if (dnnl_memory_desc_create_with_tag(&in, 2, dims, types[i], dnnl_ab) != dnnl_success) {
            printf("oneDNN could not describe %s [2, 3]\n", dnnl_dt2str(types[i]));
            return 77;
        }
        dnnl_status_t st = dnnl_memory_desc_reshape(&out, in, 2, target);
        printf("dnnl_memory_desc_reshape(%s [2, 3] -> [3, 2]) returned %s\n",
               dnnl_dt2str(types[i]), dnnl_status2str(st));
        accepted += st == dnnl_success;
        dnnl_memory_desc_destroy(in);
        if (out != NULL)
            dnnl_memory_desc_destroy(out);
    }
    printf("%d of 3 integer types reshaped: the finding %s\n", accepted,
           accepted == 3 ? "holds" : "is gone");
    return accepted == 3 ? 0 : 1;
}
