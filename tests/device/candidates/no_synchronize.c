/* no_synchronize.c - a device table without its synchronize hook: the
 * harness refuses the candidate at load, before anything runs. */
#include <stddef.h>

#include "reshape_candidate.h"

static reshape_status no_supports(reshape_op op, reshape_dtype d, reshape_dtype s, unsigned l)
{
    (void)op, (void)d, (void)s, (void)l;
    return RESHAPE_E_NOT_SUPPORTED;
}

static reshape_status no_infer(const reshape_params *p, const reshape_tensor *src,
                               int32_t *rank, int64_t *dims)
{
    (void)p, (void)src, (void)rank, (void)dims;
    return RESHAPE_E_NOT_SUPPORTED;
}

static reshape_status no_execute(const reshape_params *p, const reshape_tensor *src,
                                 const reshape_tensor *dst)
{
    (void)p, (void)src, (void)dst;
    return RESHAPE_E_NOT_SUPPORTED;
}

static reshape_status no_alloc(size_t bytes, void **p)
{
    (void)bytes, (void)p;
    return RESHAPE_E_INTERNAL;
}

static reshape_status no_release(void *p)
{
    (void)p;
    return RESHAPE_E_INTERNAL;
}

static reshape_status no_copy(void *to, const void *from, size_t bytes)
{
    (void)to, (void)from, (void)bytes;
    return RESHAPE_E_INTERNAL;
}

static reshape_status no_copy_back(void *to, const void *from, size_t bytes)
{
    (void)to, (void)from, (void)bytes;
    return RESHAPE_E_INTERNAL;
}

static const reshape_device device = {
    .struct_size = sizeof(reshape_device),
    .device_type = RESHAPE_DEVICE_EXT,
    .name = "no synchronize",
    .alloc = no_alloc,
    .release = no_release,
    .copy_to_device = no_copy,
    .copy_to_host = no_copy_back,
};

static const reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .name = "no_synchronize",
    .version = "1",
    .supports = no_supports,
    .infer_shape = no_infer,
    .execute = no_execute,
    .device = &device,
};

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    return &table;
}
