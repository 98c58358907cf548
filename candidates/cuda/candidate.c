/*
 * candidate.c - the CUDA candidate's table (cuda.h): the reference's rules
 * and checks (reshape_ref_infer, reshape_ref_execute), its copy the GPU
 * kernel, every dtype and layout, tensors in the GPU's memory only.  The
 * entry function reads the device's name from /proc and calls no driver
 * function.  Depends on cuda.h and the reference (reference.h).
 */
#include <pthread.h>
#include <stddef.h>

#include "cuda.h"
#include "reference.h"

static reshape_status cuda_supports(reshape_op op, reshape_dtype data_dtype,
                                    reshape_dtype shape_dtype, unsigned layout)
{
    const unsigned known = RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST |
                           RESHAPE_LAYOUT_IN_PLACE | RESHAPE_LAYOUT_BROADCAST_SRC |
                           RESHAPE_LAYOUT_SIZE1_STRIDES | RESHAPE_LAYOUT_DEVICE;
    reshape_ref_clear_error();
    if (reshape_op_name(op) == NULL || reshape_dtype_name(data_dtype) == NULL ||
        reshape_dtype_name(shape_dtype) == NULL || (layout & ~known) != 0)
        return reshape_ref_fail(RESHAPE_E_NOT_SUPPORTED, "unknown op, dtype or layout flags");
    if (!(layout & RESHAPE_LAYOUT_DEVICE))
        return reshape_ref_fail(RESHAPE_E_NOT_SUPPORTED, "tensors must be in the GPU's memory "
                                "(RESHAPE_LAYOUT_DEVICE)");
    return RESHAPE_OK;
}

static reshape_status cuda_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                       int32_t *out_rank, int64_t *out_dims)
{
    reshape_ref_clear_error();
    return reshape_ref_infer(params, src, out_rank, out_dims, NULL);
}

static reshape_status cuda_execute(const reshape_params *params, const reshape_tensor *src,
                                   const reshape_tensor *dst)
{
    reshape_ref_clear_error();
    cuda_take_failure();
    reshape_status st = reshape_ref_execute(params, src, dst);
    if (st == RESHAPE_OK && cuda_take_failure())
        return RESHAPE_E_INTERNAL;      /* the message is recorded */
    return st;
}

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
    .supports = cuda_supports,
    .infer_shape = cuda_infer_shape,
    .execute = cuda_execute,
    .last_error = reshape_ref_last_error,
    .device = &device,
};

static pthread_once_t named = PTHREAD_ONCE_INIT;

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    pthread_once(&named, cuda_name_from_proc);
    return &table;
}
