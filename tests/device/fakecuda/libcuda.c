/*
 * libcuda.c - a fake NVIDIA driver (build/tests/fakecuda/libcuda.so.1) for
 * testing the CUDA candidate's host side where there is no GPU: the driver
 * API entry points candidates/cuda/ uses, device memory in host memory,
 * and reshape_gather run on the calling thread by a C model that follows
 * candidates/cuda/reshape_gather.ptx step for step (sub-byte elements
 * stored into their aligned 32-bit word under a mask, as the PTX's two
 * atomics do).  It checks the PTX image it is given names the kernel.
 *   FAKECUDA_NO_DEVICE=1   cuInit fails with CUDA_ERROR_NO_DEVICE
 * fakecuda_last_geometry() returns the last launch's geometry.
 * Depends on candidates/cuda/cuda.h (the geometry) and libc.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"

#define FAKE_EXPORT __attribute__((visibility("default")))
enum { OK = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, NO_DEVICE = 100,
       INVALID_PTX = 218, NOT_FOUND = 500 };

static pid_t initialised;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static cuda_geometry last;
static int module, function;

FAKE_EXPORT const cuda_geometry *fakecuda_last_geometry(void)
{
    return &last;
}

/* Calls made in a process other than the one that called cuInit fail, as
 * the real driver's do after fork. */
static CUresult live(void)
{
    return initialised == getpid() ? OK : NOT_INITIALIZED;
}

FAKE_EXPORT CUresult cuInit(unsigned flags)
{
    const char *no = getenv("FAKECUDA_NO_DEVICE");
    if (flags || (no && *no == '1'))
        return flags ? INVALID_VALUE : NO_DEVICE;
    if (!initialised)
        initialised = getpid();
    return live();
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *n)
{
    *n = 1;
    return live();
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    *d = ordinal;
    return ordinal == 0 ? live() : INVALID_VALUE;
}

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    strncpy(name, "Fake GPU (tests/device/fakecuda)", (size_t)len - 1);
    name[len - 1] = '\0';
    return live();
}

FAKE_EXPORT CUresult cuDriverGetVersion(int *v)
{
    *v = 12040;
    return OK;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
    *c = (CUcontext)(uintptr_t)(d + 1);
    return live();
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext c)
{
    return c ? live() : INVALID_VALUE;
}

FAKE_EXPORT CUresult cuCtxSynchronize(void)
{
    return live();
}

FAKE_EXPORT CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
    if (!strstr(image, ".visible .entry reshape_gather(") || !strstr(image, ".version"))
        return INVALID_PTX;
    *m = (CUmodule)&module;
    return live();
}

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    if (m != (CUmodule)&module || strcmp(name, "reshape_gather"))
        return NOT_FOUND;
    *f = (CUfunction)&function;
    return live();
}

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
    void *q = aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!q)
        return OUT_OF_MEMORY;
    *p = (CUdeviceptr)(uintptr_t)q;
    return live();
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
    free((void *)(uintptr_t)p);
    return live();
}

FAKE_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void *from, size_t n)
{
    memcpy((void *)(uintptr_t)to, from, n);
    return live();
}

FAKE_EXPORT CUresult cuMemcpyDtoH_v2(void *to, CUdeviceptr from, size_t n)
{
    memcpy(to, (const void *)(uintptr_t)from, n);
    return live();
}

FAKE_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr to, CUdeviceptr from, size_t n)
{
    memmove((void *)(uintptr_t)to, (const void *)(uintptr_t)from, n);
    return live();
}

FAKE_EXPORT CUresult cuGetErrorName(CUresult r, const char **name)
{
    switch (r) {
    case NO_DEVICE: *name = "CUDA_ERROR_NO_DEVICE"; return OK;
    case NOT_INITIALIZED: *name = "CUDA_ERROR_NOT_INITIALIZED"; return OK;
    case INVALID_PTX: *name = "CUDA_ERROR_INVALID_PTX"; return OK;
    }
    return INVALID_VALUE;
}

/* ---------------------------------------------- the kernel, modelled */

/* An element's offset: i when dense, else by dividing by the dims from
 * the last (the PTX's SRC_DIM / DST_DIM loops). */
static uint64_t offset(uint64_t i, int dense, uint32_t rank, const int64_t *dims,
                       const int64_t *strides)
{
    if (dense)
        return i;
    uint64_t off = 0;
    for (uint32_t d = rank; d > 0; d--) {
        uint64_t q = i / (uint64_t)dims[d - 1];
        off += (i - q * (uint64_t)dims[d - 1]) * (uint64_t)strides[d - 1];
        i = q;
    }
    return off;
}

/* STORE_BITS: clears `clear` and sets `set` (bits of the byte at `byte`)
 * in the aligned 32-bit word holding it, little-endian. */
static void store_bits(uint8_t *byte, uint32_t clear, uint32_t set)
{
    uint32_t *word = (uint32_t *)((uintptr_t)byte & ~(uintptr_t)3);
    uint32_t shift = (uint32_t)((uintptr_t)byte & 3) * 8;
    *word = (*word & ~(clear << shift)) | (set << shift);
}

/* The bit of a sub-byte element within its byte: u4 from the low end, u1
 * from bit 7. */
static uint32_t bit_in_byte(uint64_t bit, uint32_t bits)
{
    uint32_t b = (uint32_t)(bit & 7);
    return bits == 1 ? 7 - b : b;
}

static void gather(uint8_t *dst, const uint8_t *src, const cuda_geometry *g)
{
    uint32_t bits = g->bits, mask = (1u << (bits < 8 ? bits : 0)) - 1;
    for (uint64_t i = 0; i < g->count; i++) {
        uint64_t so = offset(i, g->flags & CUDA_SRC_DENSE, g->src_rank, g->src_dims,
                             g->src_strides);
        uint64_t dof = offset(i, g->flags & CUDA_DST_DENSE, g->dst_rank, g->dst_dims,
                              g->dst_strides);
        if (bits >= 8) {
            memcpy(dst + dof * (bits / 8), src + so * (bits / 8), bits / 8);
            continue;
        }
        uint32_t v = (uint32_t)(src[so * bits >> 3] >> bit_in_byte(so * bits, bits)) & mask;
        uint32_t s = bit_in_byte(dof * bits, bits);
        store_bits(dst + (dof * bits >> 3), mask << s, v << s);
        if ((g->flags & CUDA_PADDING) && i + 1 == g->count) {
            uint64_t total = g->count * bits, last_byte = (total - 1) >> 3;
            uint32_t used = (uint32_t)(total & 7);
            uint32_t pad = bits == 1 ? (1u << (8 - used)) - 1 : (0xFFu << used) & 0xFF;
            store_bits(dst + last_byte, pad, src[last_byte] & pad);
        }
    }
}

FAKE_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                    unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                    CUstream stream, void **params, void **extra)
{
    if (f != (CUfunction)&function || !params || extra || stream || shared || gy != 1 ||
        gz != 1 || by != 1 || bz != 1 || gx == 0 || bx == 0 || bx > 1024)
        return INVALID_VALUE;
    const cuda_geometry *g = params[2];
    pthread_mutex_lock(&lock);
    last = *g;
    pthread_mutex_unlock(&lock);
    if ((uint64_t)gx * bx < g->count && gx != CUDA_MAX_BLOCKS)
        return INVALID_VALUE;   /* a grid that covers too little, not striding */
    gather((uint8_t *)(uintptr_t)*(CUdeviceptr *)params[0],
           (const uint8_t *)(uintptr_t)*(CUdeviceptr *)params[1], g);
    return live();
}
