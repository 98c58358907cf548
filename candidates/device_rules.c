/*
 * device_rules.c - the reference's rules for a device candidate
 * (device_rules.h).  Depends on the reference (reference.h).
 */
#include <stddef.h>

#include "device_rules.h"
#include "reference.h"

static _Thread_local int copy_failed;

void device_copy_failed(void)
{
    copy_failed = 1;
}

reshape_status device_supports(reshape_op op, reshape_dtype data_dtype,
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

reshape_status device_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                  int32_t *out_rank, int64_t *out_dims)
{
    reshape_ref_clear_error();
    return reshape_ref_infer(params, src, out_rank, out_dims, NULL);
}

reshape_status device_execute(const reshape_params *params, const reshape_tensor *src,
                              const reshape_tensor *dst)
{
    reshape_ref_clear_error();
    copy_failed = 0;
    reshape_status st = reshape_ref_execute(params, src, dst);
    if (st == RESHAPE_OK && copy_failed)
        return RESHAPE_E_INTERNAL;      /* reshape_device_copy recorded why */
    return st;
}
