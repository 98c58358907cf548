/*
 * cuda.h - the CUDA candidate (candidates/cuda/README.md): the reshape
 * copy as a PTX kernel (reshape_gather.ptx) on an NVIDIA GPU through the
 * CUDA driver API, which is loaded with dlopen("libcuda.so.1") so that the
 * candidate builds with no CUDA toolkit.  The few driver prototypes it
 * needs are declared here, as the driver API documents them (cuda.h of
 * the toolkit is not needed).
 *
 * Nothing touches the driver before the first hook or execute call in a
 * process (cuda_ready): a CUDA context does not survive fork, and the
 * harness may load the candidate in a process it forks workers from.
 * Depends on the ABI header.
 */
#ifndef CANDIDATE_CUDA_H
#define CANDIDATE_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "reshape_candidate.h"

/* ------------------------------------------------------ the driver API */

typedef int CUresult;                   /* 0: CUDA_SUCCESS */
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

/* The entry points used, resolved by name from libcuda.so.1 (the _v2
 * symbols are the 64-bit size_t ones cuda.h maps the plain names to). */
typedef struct cuda_api {
    CUresult (*init)(unsigned flags);                                   /* cuInit */
    CUresult (*device_get_count)(int *count);                           /* cuDeviceGetCount */
    CUresult (*device_get)(CUdevice *dev, int ordinal);                 /* cuDeviceGet */
    CUresult (*device_get_name)(char *name, int len, CUdevice dev);     /* cuDeviceGetName */
    CUresult (*driver_get_version)(int *version);                       /* cuDriverGetVersion */
    CUresult (*primary_ctx_retain)(CUcontext *ctx, CUdevice dev);       /* cuDevicePrimaryCtxRetain */
    CUresult (*ctx_set_current)(CUcontext ctx);                         /* cuCtxSetCurrent */
    CUresult (*ctx_synchronize)(void);                                  /* cuCtxSynchronize */
    CUresult (*module_load_data)(CUmodule *mod, const void *image);     /* cuModuleLoadData */
    CUresult (*module_get_function)(CUfunction *f, CUmodule mod, const char *name);
    CUresult (*mem_alloc)(CUdeviceptr *p, size_t bytes);                /* cuMemAlloc_v2 */
    CUresult (*mem_free)(CUdeviceptr p);                                /* cuMemFree_v2 */
    CUresult (*memcpy_htod)(CUdeviceptr to, const void *from, size_t bytes);
    CUresult (*memcpy_dtoh)(void *to, CUdeviceptr from, size_t bytes);
    CUresult (*memcpy_dtod)(CUdeviceptr to, CUdeviceptr from, size_t bytes);
    CUresult (*launch_kernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                              unsigned by, unsigned bz, unsigned shared_bytes, CUstream stream,
                              void **params, void **extra);             /* cuLaunchKernel */
    CUresult (*get_error_name)(CUresult r, const char **name);          /* cuGetErrorName */
} cuda_api;

/* The driver, once cuda_ready returned RESHAPE_OK in this process. */
extern cuda_api cuda;
/* The kernel, loaded from the PTX text `cuda_ptx` (ptx.S). */
extern CUfunction cuda_gather;
extern const char cuda_ptx[];

/*
 * Makes the driver usable on the calling thread: the first call in a
 * process loads libcuda.so.1, initialises device 0, retains its primary
 * context and loads the kernel; every call makes that context current.
 * Returns RESHAPE_OK, or RESHAPE_E_INTERNAL with the thread's last error
 * saying what failed ("cannot load libcuda.so.1: ...", "cuInit failed:
 * CUDA_ERROR_NO_DEVICE").  A process forked after the first call gets
 * RESHAPE_E_INTERNAL (the context belongs to its parent).
 */
reshape_status cuda_ready(void);

/* Records "`what` failed: NAME" for a CUresult other than 0 and returns
 * RESHAPE_E_INTERNAL; returns RESHAPE_OK for 0. */
reshape_status cuda_check(CUresult r, const char *what);

/* "NVIDIA H100 80GB HBM3, driver 550.54.15": read at load from
 * /proc/driver/nvidia (no driver call), completed by cuda_ready. */
extern char cuda_device_name[128];
void cuda_name_from_proc(void);

/* ---------------------------------------------------------- the hooks */

reshape_status cuda_alloc(size_t bytes, void **device_ptr);
reshape_status cuda_release(void *device_ptr);
reshape_status cuda_copy_to_device(void *device_dst, const void *host_src, size_t bytes);
reshape_status cuda_copy_to_host(void *host_dst, const void *device_src, size_t bytes);
reshape_status cuda_copy_on_device(void *device_dst, const void *device_src, size_t bytes);
reshape_status cuda_synchronize(void);
reshape_status cuda_memory_in_use(uint64_t *bytes);

/* --------------------------------------------------------- the kernel */

/* The kernel's geometry parameter (reshape_gather.ptx gives the offsets). */
#define CUDA_SRC_DENSE 1u
#define CUDA_DST_DENSE 2u
#define CUDA_ALIGNED 4u
#define CUDA_PADDING 8u
typedef struct cuda_geometry {
    uint32_t src_rank, dst_rank, bits, flags;
    uint64_t count;
    int64_t src_dims[RESHAPE_MAX_RANK], src_strides[RESHAPE_MAX_RANK];
    int64_t dst_dims[RESHAPE_MAX_RANK], dst_strides[RESHAPE_MAX_RANK];
} cuda_geometry;

/* Threads per block, and the most blocks, of a launch. */
#define CUDA_BLOCK 256u
#define CUDA_MAX_BLOCKS 65535u

/* Fills `g` for copying `volume` (> 0) elements of src to dst. */
void cuda_geometry_of(cuda_geometry *g, const reshape_tensor *src, const reshape_tensor *dst,
                      int64_t volume);

/* reshape_device_copy (device_rules.h), kernel.c: launches the kernel
 * on the default stream; execute returns before it has run. */

#endif /* CANDIDATE_CUDA_H */
