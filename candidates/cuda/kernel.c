/*
 * kernel.c - launching reshape_gather.ptx for the reference's copy step
 * (cuda.h): the geometry of the two tensors, the launch on the context's
 * default stream, asynchronous (synchronize waits for it).  Depends on
 * cuda.h and the reference's error recording.
 */
#include <string.h>

#include "cuda.h"
#include "device_rules.h"
#include "reference.h"

static void copy_side(uint32_t *rank, int64_t *dims, int64_t *strides, const reshape_tensor *t)
{
    *rank = (uint32_t)t->rank;
    memcpy(dims, t->dims, (size_t)t->rank * sizeof *dims);
    if (t->strides)
        memcpy(strides, t->strides, (size_t)t->rank * sizeof *strides);
}

void cuda_geometry_of(cuda_geometry *g, const reshape_tensor *src, const reshape_tensor *dst,
                      int64_t volume)
{
    memset(g, 0, sizeof *g);
    copy_side(&g->src_rank, g->src_dims, g->src_strides, src);
    copy_side(&g->dst_rank, g->dst_dims, g->dst_strides, dst);
    g->bits = reshape_dtype_bits(src->dtype);
    g->count = (uint64_t)volume;
    g->flags = (src->strides ? 0 : CUDA_SRC_DENSE) | (dst->strides ? 0 : CUDA_DST_DENSE);
    uint32_t bytes = g->bits / 8;
    if ((bytes == 2 || bytes == 4 || bytes == 8) && (uintptr_t)src->data % bytes == 0 &&
        (uintptr_t)dst->data % bytes == 0)
        g->flags |= CUDA_ALIGNED;
    /* dense into dense copies the padding bits of a sub-byte tensor's last byte */
    if (g->bits < 8 && !src->strides && !dst->strides && g->count * g->bits % 8)
        g->flags |= CUDA_PADDING;
}

void reshape_device_copy(const reshape_tensor *src, const reshape_tensor *dst, int64_t volume)
{
    cuda_geometry g;
    cuda_geometry_of(&g, src, dst, volume);
    CUdeviceptr to = (CUdeviceptr)(uintptr_t)dst->data, from = (CUdeviceptr)(uintptr_t)src->data;
    void *params[] = {&to, &from, &g};
    uint64_t blocks = (g.count + CUDA_BLOCK - 1) / CUDA_BLOCK;
    if (blocks > CUDA_MAX_BLOCKS)
        blocks = CUDA_MAX_BLOCKS;       /* the kernel strides over the rest */
    if (cuda_ready() != RESHAPE_OK ||
        cuda_check(cuda.launch_kernel(cuda_gather, (unsigned)blocks, 1, 1, CUDA_BLOCK, 1, 1, 0,
                                      NULL, params, NULL), "cuLaunchKernel") != RESHAPE_OK)
        device_copy_failed();
}
