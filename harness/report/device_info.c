/*
 * device_info.c - the device facts of a report (report.h, host_device):
 * what a candidate with a device said of it, its type named as DLPack
 * names it (reshape_candidate.h, RESHAPE_DEVICE_*).  Depends on jansson
 * and wire.h.
 */
#include <stdio.h>

#include "report.h"

static const char *device_type_name(int32_t type)
{
    switch (type) {
    case RESHAPE_DEVICE_CPU: return "cpu";
    case RESHAPE_DEVICE_CUDA: return "cuda";
    case RESHAPE_DEVICE_CUDA_HOST: return "cuda_host";
    case RESHAPE_DEVICE_OPENCL: return "opencl";
    case RESHAPE_DEVICE_VULKAN: return "vulkan";
    case RESHAPE_DEVICE_METAL: return "metal";
    case RESHAPE_DEVICE_ROCM: return "rocm";
    case RESHAPE_DEVICE_EXT: return "ext";
    case RESHAPE_DEVICE_ONEAPI: return "oneapi";
    }
    return NULL;
}

json_t *host_device(const wire_probe *probe)
{
    if (!probe || probe->device_type == 0)
        return json_null();
    const char *type = device_type_name(probe->device_type);
    char other[32];
    snprintf(other, sizeof other, "type %d", (int)probe->device_type);
    return json_pack("{s:s, s:i, s:i, s:s}", "type", type ? type : other, "dlpack_type",
                     (int)probe->device_type, "id", (int)probe->device_id, "name",
                     probe->device_name);
}
