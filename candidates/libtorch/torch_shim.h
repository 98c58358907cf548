/*
 * torch_shim.h - the C face of libtorch's at::reshape, for libtorch.c.
 * Implemented in torch_shim.cpp, the only C++ in the adapter; it catches
 * every std::exception (c10::Error and the std::runtime_error at::reshape
 * throws for "only one dimension can be inferred") and returns its text.
 */
#ifndef TORCH_SHIM_H
#define TORCH_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The element types of libtorch 1.13 the adapter passes, by ABI name. */
typedef enum torch_shim_type {
    TORCH_SHIM_F64, TORCH_SHIM_F32, TORCH_SHIM_F16, TORCH_SHIM_BF16,
    TORCH_SHIM_S64, TORCH_SHIM_S32, TORCH_SHIM_S16, TORCH_SHIM_S8,
    TORCH_SHIM_U8, TORCH_SHIM_BOOL
} torch_shim_type;

/* A tensor in caller memory: `rank` dims, strides in elements (NULL:
 * contiguous), `data` not owned. */
typedef struct torch_shim_tensor {
    torch_shim_type type;
    int32_t rank;
    const int64_t *dims;
    const int64_t *strides;
    void *data;
} torch_shim_tensor;

typedef enum torch_shim_result {
    TORCH_SHIM_OK = 0,
    TORCH_SHIM_THREW = 1,        /* libtorch threw; `message` holds what() */
    TORCH_SHIM_DST_MISMATCH = 2  /* the output dims are not dst's */
} torch_shim_result;

/*
 * at::reshape(src, shape[0..count)) on dims alone: `src` is viewed with all
 * strides 0 over one byte (src.data and src.strides are ignored), so any
 * volume fits and at::reshape returns a view without touching memory.
 * Writes the output rank and dims (RESHAPE_MAX_RANK entries of room).
 * On TORCH_SHIM_THREW, `message` (size `message_size`) holds the text.
 */
torch_shim_result torch_shim_infer(const torch_shim_tensor *src,
                                   const int64_t *shape, int32_t count,
                                   int32_t *out_rank, int64_t *out_dims,
                                   char *message, size_t message_size);

/*
 * at::reshape(src, shape) then, when the result's dims equal dst's,
 * dst.copy_(result), both over caller memory.  On TORCH_SHIM_DST_MISMATCH
 * nothing is written and *out_rank / out_dims hold the result's dims.
 */
torch_shim_result torch_shim_execute(const torch_shim_tensor *src,
                                     const int64_t *shape, int32_t count,
                                     const torch_shim_tensor *dst,
                                     int32_t *out_rank, int64_t *out_dims,
                                     char *message, size_t message_size);

/* The libtorch version string ("1.13.1"), static. */
const char *torch_shim_version(void);

#ifdef __cplusplus
}
#endif

#endif /* TORCH_SHIM_H */
