/*
 * device_rules.h - what the device candidates (candidates/simdev/,
 * candidates/cuda/) share: the reference's shape rules and checks, with
 * the copy on their device.  Each links the reference's objects but its
 * table, its execute.o with the copy call renamed reshape_device_copy
 * (objcopy: candidates/simdev/build.mk), and defines reshape_device_copy
 * to start its kernel.  Depends on the ABI header and reference.h.
 */
#ifndef CANDIDATES_DEVICE_RULES_H
#define CANDIDATES_DEVICE_RULES_H

#include "reshape_candidate.h"

/* Every op, dtype and layout flag the header defines, with
 * RESHAPE_LAYOUT_DEVICE required: the tensors are in the device's
 * memory.  NOT_SUPPORTED otherwise, with a last error saying why. */
reshape_status device_supports(reshape_op op, reshape_dtype data_dtype,
                               reshape_dtype shape_dtype, unsigned layout);

/* The reference's infer_shape. */
reshape_status device_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                  int32_t *out_rank, int64_t *out_dims);

/* The reference's execute, its copy the device's kernel: INTERNAL when
 * reshape_device_copy could not start it (device_copy_failed). */
reshape_status device_execute(const reshape_params *params, const reshape_tensor *src,
                              const reshape_tensor *dst);

/* The copy step of the reference's execute (renamed): starts the kernel
 * copying `volume` (> 0) elements of src to dst, both checked. */
void reshape_device_copy(const reshape_tensor *src, const reshape_tensor *dst, int64_t volume);

/* Called by reshape_device_copy when its kernel could not start, after
 * recording the reason as the thread's last error (reshape_ref_fail). */
void device_copy_failed(void);

#endif
