/*
 * bf16_through_f32.c - oneDNN 3.2.0 (PyPI onednn-cpu-gomp 2023.2.0): a
 * reorder of bf16 elements into bf16 memory of the same dims converts them
 * through f32 with denormals flushed, so bytes change that a copy keeps:
 * denormals become zero (0001 becomes 0000, 8001 8000) and signalling NaNs
 * come out quiet (7f95 becomes 7fd5), on a CPU with AVX-512 (and
 * AVX512-BF16) too, where 2.6.3 keeps them (../../onednn/repro/README.md).
 *
 * Input: bf16 memory of dims [4, 2], dense, the eight values below,
 * reordered (dnnl_reorder_primitive_desc_create, dnnl_primitive_execute)
 * into dense bf16 memory of dims [4, 2], as a Reshape's copy is.
 * Expected: the output bytes equal the input bytes.
 *
 * Exit status: 0 the finding holds (some element changed), 1 it is gone
 * (every byte kept), 77 oneDNN could not be used here.
 * Build: see README.md beside this file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#define N 8

int main(void)
{
    /* the smallest denormal, its negative, the largest denormal, +sNaN,
     * -sNaN, -0.0, 1.0, the largest finite */
    const uint16_t in[N] = {0x0001, 0x8001, 0x007f, 0x7f95, 0xff95, 0x8000, 0x3f80, 0x7f7f};
    uint16_t out[N];
    const dnnl_dims_t dims = {4, 2};
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_memory_desc_t md;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t from, to;
    const char *impl = "?";

    memset(out, 0xee, sizeof out);
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
        dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) != dnnl_success ||
        dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_bf16, dnnl_ab) != dnnl_success ||
        dnnl_reorder_primitive_desc_create(&pd, md, engine, md, engine, NULL) != dnnl_success ||
        dnnl_primitive_create(&prim, pd) != dnnl_success ||
        dnnl_memory_create(&from, md, engine, (void *)in) != dnnl_success ||
        dnnl_memory_create(&to, md, engine, out) != dnnl_success) {
        printf("oneDNN could not set up a bf16 reorder here\n");
        return 77;
    }
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    const dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    if (dnnl_primitive_execute(prim, stream, 2, args) != dnnl_success ||
        dnnl_stream_wait(stream) != dnnl_success) {
        printf("dnnl_primitive_execute failed\n");
        return 77;
    }
    const dnnl_version_t *v = dnnl_version();
    printf("oneDNN %d.%d.%d, reorder '%s', CPU ISA %d (dnnl_get_effective_cpu_isa), "
           "bf16 [4, 2] to bf16 [4, 2]\n",
           v->major, v->minor, v->patch, impl, (int)dnnl_get_effective_cpu_isa());
    int changed = 0;
    for (int i = 0; i < N; i++) {
        printf("element %d: in %04" PRIx16 " out %04" PRIx16 "%s\n", i, in[i], out[i],
               in[i] != out[i] ? "  <- changed" : "");
        changed += in[i] != out[i];
    }
    printf("%d of %d elements changed: the finding %s\n", changed, N,
           changed ? "holds" : "is gone");
    return changed ? 0 : 1;
}
