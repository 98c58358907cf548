/*
 * memory.c - the device hooks of the CUDA candidate (cuda.h): cuMemAlloc,
 * cuMemFree, the three cuMemcpy and cuCtxSynchronize, each after
 * cuda_ready.  Allocations are counted here, so that memory_in_use is the
 * candidate's own and not the GPU's free memory, which other processes
 * change.  Depends on cuda.h and the reference's error recording.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cuda.h"
#include "reference.h"

typedef struct block {
    CUdeviceptr p;
    size_t bytes;
} block;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static block *blocks;
static size_t used, room;

static CUdeviceptr dptr(const void *p)
{
    return (CUdeviceptr)(uintptr_t)p;
}

reshape_status cuda_alloc(size_t bytes, void **device_ptr)
{
    CUdeviceptr p = 0;
    reshape_status st = cuda_ready();
    if (st == RESHAPE_OK)
        st = cuda_check(cuda.mem_alloc(&p, bytes), "cuMemAlloc");
    if (st != RESHAPE_OK)
        return st;
    pthread_mutex_lock(&lock);
    if (used == room) {
        size_t n = room ? 2 * room : 16;
        block *b = realloc(blocks, n * sizeof *b);
        if (!b) {
            pthread_mutex_unlock(&lock);
            cuda.mem_free(p);
            return reshape_ref_fail(RESHAPE_E_INTERNAL, "out of host memory");
        }
        blocks = b;
        room = n;
    }
    blocks[used++] = (block){p, bytes};
    pthread_mutex_unlock(&lock);
    *device_ptr = (void *)(uintptr_t)p;
    return RESHAPE_OK;
}

reshape_status cuda_release(void *device_ptr)
{
    reshape_status st = cuda_ready();
    if (st != RESHAPE_OK)
        return st;
    int found = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < used && !found; i++)
        if (blocks[i].p == dptr(device_ptr)) {
            blocks[i] = blocks[--used];
            found = 1;
        }
    pthread_mutex_unlock(&lock);
    if (!found)
        return reshape_ref_fail(RESHAPE_E_INTERNAL, "release of %p, which alloc did not return",
                                device_ptr);
    return cuda_check(cuda.mem_free(dptr(device_ptr)), "cuMemFree");
}

reshape_status cuda_copy_to_device(void *device_dst, const void *host_src, size_t bytes)
{
    reshape_status st = cuda_ready();
    return st != RESHAPE_OK ? st : cuda_check(cuda.memcpy_htod(dptr(device_dst), host_src, bytes),
                                              "cuMemcpyHtoD");
}

reshape_status cuda_copy_to_host(void *host_dst, const void *device_src, size_t bytes)
{
    reshape_status st = cuda_ready();
    return st != RESHAPE_OK ? st : cuda_check(cuda.memcpy_dtoh(host_dst, dptr(device_src), bytes),
                                              "cuMemcpyDtoH");
}

reshape_status cuda_copy_on_device(void *device_dst, const void *device_src, size_t bytes)
{
    reshape_status st = cuda_ready();
    return st != RESHAPE_OK ? st : cuda_check(cuda.memcpy_dtod(dptr(device_dst),
                                                               dptr(device_src), bytes),
                                              "cuMemcpyDtoD");
}

reshape_status cuda_synchronize(void)
{
    reshape_status st = cuda_ready();
    return st != RESHAPE_OK ? st : cuda_check(cuda.ctx_synchronize(), "cuCtxSynchronize");
}

reshape_status cuda_memory_in_use(uint64_t *bytes)
{
    uint64_t n = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < used; i++)
        n += blocks[i].bytes;
    pthread_mutex_unlock(&lock);
    *bytes = n;
    return RESHAPE_OK;
}
