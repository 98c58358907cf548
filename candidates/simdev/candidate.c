/*
 * candidate.c - the simulated device's candidate table (simdev.h): the
 * reference's rules and checks (reshape_ref_infer, reshape_ref_execute)
 * with the copy run as a device kernel, and the device's hooks.  Every
 * layout the header defines is supported, on device memory only.
 * Depends on simdev.h and the reference (reference.h).
 */
#include <stddef.h>

#include "reference.h"
#include "simdev.h"

static reshape_status sim_supports(reshape_op op, reshape_dtype data_dtype,
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
        return reshape_ref_fail(RESHAPE_E_NOT_SUPPORTED, "tensors must be in the device's "
                                "memory (RESHAPE_LAYOUT_DEVICE)");
    return RESHAPE_OK;
}

static reshape_status sim_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                      int32_t *out_rank, int64_t *out_dims)
{
    reshape_ref_clear_error();
    return reshape_ref_infer(params, src, out_rank, out_dims, NULL);
}

static reshape_status sim_execute(const reshape_params *params, const reshape_tensor *src,
                                  const reshape_tensor *dst)
{
    reshape_ref_clear_error();
    simdev_take_failure();
    reshape_status st = reshape_ref_execute(params, src, dst);
    if (st == RESHAPE_OK && simdev_take_failure())
        return RESHAPE_E_INTERNAL;      /* the message is recorded */
    return st;
}

static const reshape_device device = {
    .struct_size = sizeof(reshape_device),
    .device_type = RESHAPE_DEVICE_EXT,
    .device_id = 0,
    .name = "simdev 1.0 (simulated: PROT_NONE memory, one kernel thread)",
    .alloc = simdev_alloc,
    .release = simdev_release,
    .copy_to_device = simdev_copy_to_device,
    .copy_to_host = simdev_copy_to_host,
    .synchronize = simdev_synchronize,
    .copy_on_device = simdev_copy_on_device,
    .memory_in_use = simdev_memory_in_use,
};

static reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .version = "1.0",
    .supports = sim_supports,
    .infer_shape = sim_infer_shape,
    .execute = sim_execute,
    .last_error = reshape_ref_last_error,
    .device = &device,
};

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    table.name = simdev_defect.name;
    return &table;
}
