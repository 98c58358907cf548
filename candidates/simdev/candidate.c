/*
 * candidate.c - the simulated device's candidate table (simdev.h): the
 * reference's rules with the copy run as a device kernel
 * (device_rules.h), and the device's hooks.  Depends on simdev.h,
 * device_rules.h and the reference (reference.h).
 */
#include <stddef.h>

#include "device_rules.h"
#include "reference.h"
#include "simdev.h"

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
    .supports = device_supports,
    .infer_shape = device_infer_shape,
    .execute = device_execute,
    .last_error = reshape_ref_last_error,
    .device = &device,
};

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    table.name = simdev_defect.name;
    return &table;
}
