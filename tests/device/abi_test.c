/*
 * abi_test.c - the device declarations of include/reshape_candidate.h:
 * RESHAPE_DEVICE_* are DLPack's DLDeviceType values, checked against the
 * dlpack.h Debian ships (libdlpack-dev), and the optional fields of
 * reshape_device are read only when struct_size covers them.
 */
#include <criterion/criterion.h>
#include <dlpack/dlpack.h>

#include "reshape_candidate.h"

Test(abi, device_types_are_dlpacks)
{
    cr_expect_eq(RESHAPE_DEVICE_CPU, kDLCPU);
    cr_expect_eq(RESHAPE_DEVICE_CUDA, kDLCUDA);
    cr_expect_eq(RESHAPE_DEVICE_CUDA_HOST, kDLCUDAHost);
    cr_expect_eq(RESHAPE_DEVICE_OPENCL, kDLOpenCL);
    cr_expect_eq(RESHAPE_DEVICE_VULKAN, kDLVulkan);
    cr_expect_eq(RESHAPE_DEVICE_METAL, kDLMetal);
    cr_expect_eq(RESHAPE_DEVICE_ROCM, kDLROCM);
    cr_expect_eq(RESHAPE_DEVICE_EXT, kDLExtDev);
#if DLPACK_VERSION >= 70
    cr_expect_eq(RESHAPE_DEVICE_ONEAPI, kDLOneAPI);
#else
    /* dlpack 0.6 (Debian 12) predates kDLOneAPI, which 0.7 numbered 14 */
    cr_expect_eq(RESHAPE_DEVICE_ONEAPI, 14);
#endif
}

Test(abi, device_v1_size_ends_at_synchronize)
{
    cr_expect_eq(RESHAPE_DEVICE_V1_SIZE, offsetof(reshape_device, copy_on_device));
    reshape_device d = {.struct_size = RESHAPE_DEVICE_V1_SIZE};
    cr_expect(RESHAPE_DEVICE_HAS(&d, synchronize));
    cr_expect(!RESHAPE_DEVICE_HAS(&d, copy_on_device));
    cr_expect(!RESHAPE_DEVICE_HAS(&d, memory_in_use));
    d.struct_size = sizeof d;
    cr_expect(RESHAPE_DEVICE_HAS(&d, memory_in_use));
}

Test(abi, device_field_follows_limits)
{
    reshape_candidate t = {.struct_size = RESHAPE_CANDIDATE_V1_SIZE};
    cr_expect(!RESHAPE_CANDIDATE_HAS(&t, device));
    t.struct_size = offsetof(reshape_candidate, device);
    cr_expect(!RESHAPE_CANDIDATE_HAS(&t, device));
    t.struct_size = sizeof t;
    cr_expect(RESHAPE_CANDIDATE_HAS(&t, device));
}
