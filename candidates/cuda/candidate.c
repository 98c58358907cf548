/*
 * candidate.c - the CUDA candidate's table (cuda.h): the reference's rules
 * with the copy the GPU kernel (device_rules.h), every dtype and layout,
 * tensors in the GPU's memory only.  The entry function reads the
 * device's name from /proc and calls no driver function.  Depends on
 * cuda.h, device_rules.h and the reference (reference.h).
 */
#include <pthread.h>
#include <stddef.h>

#include "cuda.h"
#include "device_rules.h"
#include "reference.h"

static const reshape_device device = {
    .struct_size = sizeof(reshape_device),
    .device_type = RESHAPE_DEVICE_CUDA,
    .device_id = 0,
    .name = cuda_device_name,
    .alloc = cuda_alloc,
    .release = cuda_release,
    .copy_to_device = cuda_copy_to_device,
    .copy_to_host = cuda_copy_to_host,
    .synchronize = cuda_synchronize,
    .copy_on_device = cuda_copy_on_device,
    .memory_in_use = cuda_memory_in_use,
};

static const reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .name = "reshape-cuda",
    .version = "1.0",
    .supports = device_supports,
    .infer_shape = device_infer_shape,
    .execute = device_execute,
    .last_error = reshape_ref_last_error,
    .device = &device,
};

static pthread_once_t named = PTHREAD_ONCE_INIT;

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    pthread_once(&named, cuda_name_from_proc);
    return &table;
}
