/*
 * driver.c - the CUDA driver, loaded and initialised on first use in a
 * process (cuda.h, cuda_ready), and the device's name.  Depends on cuda.h,
 * the reference's error recording (reference.h) and libdl.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "nvrm_version.h"
#include "reference.h"

cuda_api cuda;
CUfunction cuda_gather;
char cuda_device_name[128] = "CUDA device 0";

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t ready_pid;                 /* the process that initialised it */
static CUcontext context;
static char failure[256];               /* why the first use failed, kept */

reshape_status cuda_check(CUresult r, const char *what)
{
    if (r == 0)
        return RESHAPE_OK;
    const char *name = NULL;
    if (!cuda.get_error_name || cuda.get_error_name(r, &name) != 0 || !name)
        name = "an unknown error";
    return reshape_ref_fail(RESHAPE_E_INTERNAL, "%s failed: %s (%d)", what, name, r);
}

/* Resolves every entry point of `cuda`; returns 0, or -1 with `failure`
 * saying which is missing. */
static int resolve(void *lib)
{
    static const struct {
        const char *name;
        size_t at;
    } entries[] = {
        {"cuInit", offsetof(cuda_api, init)},
        {"cuDeviceGetCount", offsetof(cuda_api, device_get_count)},
        {"cuDeviceGet", offsetof(cuda_api, device_get)},
        {"cuDeviceGetName", offsetof(cuda_api, device_get_name)},
        {"cuDriverGetVersion", offsetof(cuda_api, driver_get_version)},
        {"cuDevicePrimaryCtxRetain", offsetof(cuda_api, primary_ctx_retain)},
        {"cuCtxSetCurrent", offsetof(cuda_api, ctx_set_current)},
        {"cuCtxSynchronize", offsetof(cuda_api, ctx_synchronize)},
        {"cuModuleLoadData", offsetof(cuda_api, module_load_data)},
        {"cuModuleGetFunction", offsetof(cuda_api, module_get_function)},
        {"cuMemAlloc_v2", offsetof(cuda_api, mem_alloc)},
        {"cuMemFree_v2", offsetof(cuda_api, mem_free)},
        {"cuMemcpyHtoD_v2", offsetof(cuda_api, memcpy_htod)},
        {"cuMemcpyDtoH_v2", offsetof(cuda_api, memcpy_dtoh)},
        {"cuMemcpyDtoD_v2", offsetof(cuda_api, memcpy_dtod)},
        {"cuLaunchKernel", offsetof(cuda_api, launch_kernel)},
        {"cuGetErrorName", offsetof(cuda_api, get_error_name)},
    };
    for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
        void *sym = dlsym(lib, entries[i].name);
        if (!sym) {
            snprintf(failure, sizeof failure, "libcuda.so.1 has no '%s'", entries[i].name);
            return -1;
        }
        memcpy((char *)&cuda + entries[i].at, &sym, sizeof sym);
    }
    return 0;
}

/* The kernel module's version from /proc, "" when unknown. */
static char kernel_module[32];

/* Names the device as the driver does, once it answers. */
static void name_device(CUdevice dev)
{
    char gpu[96] = "";
    int v = 0;
    if (cuda.device_get_name(gpu, sizeof gpu, dev) != 0 || !*gpu)
        snprintf(gpu, sizeof gpu, "CUDA device 0");
    cuda.driver_get_version(&v);
    if (*kernel_module)
        snprintf(cuda_device_name, sizeof cuda_device_name, "%s, driver %s (CUDA %d.%d)", gpu,
                 kernel_module, v / 1000, v % 1000 / 10);
    else
        snprintf(cuda_device_name, sizeof cuda_device_name, "%s (CUDA %d.%d)", gpu, v / 1000,
                 v % 1000 / 10);
}

/* The first use in this process, under the lock: returns 0, or -1 with
 * `failure` set. */
static int first_use(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(failure, sizeof failure, "cannot load libcuda.so.1 (no NVIDIA driver): %s",
                 e ? e : "unknown error");
        return -1;
    }
    if (resolve(lib))
        return -1;
    int count = 0;
    CUdevice dev = 0;
    CUmodule module;
    const char *step = NULL;
    CUresult r;
    if ((r = cuda.init(0)))
        step = "cuInit";
    else if ((r = cuda.device_get_count(&count)) || (count < 1 && (r = 100)))
        step = "cuDeviceGetCount";      /* 100: CUDA_ERROR_NO_DEVICE */
    else if ((r = cuda.device_get(&dev, 0)))
        step = "cuDeviceGet";
    else if ((r = cuda.primary_ctx_retain(&context, dev)))
        step = "cuDevicePrimaryCtxRetain";
    else if ((r = cuda.ctx_set_current(context)))
        step = "cuCtxSetCurrent";
    else if ((r = cuda.module_load_data(&module, cuda_ptx)))
        step = "cuModuleLoadData";
    else if ((r = cuda.module_get_function(&cuda_gather, module, "reshape_gather")))
        step = "cuModuleGetFunction";
    if (step) {
        cuda_check(r, step);
        snprintf(failure, sizeof failure, "%s", reshape_ref_last_error());
        return -1;
    }
    name_device(dev);
    return 0;
}

reshape_status cuda_ready(void)
{
    pthread_mutex_lock(&lock);
    pid_t self = getpid();
    if (!ready_pid) {
        ready_pid = self;
        if (first_use())
            context = NULL;
    }
    int forked = ready_pid != self;
    pthread_mutex_unlock(&lock);
    if (forked)
        return reshape_ref_fail(RESHAPE_E_INTERNAL, "CUDA was initialised in process %d, and "
                                "its context does not survive fork into process %d",
                                (int)ready_pid, (int)self);
    if (!context)
        return reshape_ref_fail(RESHAPE_E_INTERNAL, "%s", failure);
    return cuda_check(cuda.ctx_set_current(context), "cuCtxSetCurrent");
}

/* The first line of `path` that starts with `key`, after it and its
 * blanks, into out[0..n); "" when there is none. */
static void read_field(const char *path, const char *key, char *out, size_t n)
{
    char line[256];
    *out = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, strlen(key))) {
            char *v = line + strlen(key);
            v += strspn(v, " \t:");
            v[strcspn(v, "\n")] = '\0';
            snprintf(out, n, "%s", v);
            break;
        }
    fclose(f);
}

void cuda_name_from_proc(void)
{
    char model[96] = "", version[128] = "";
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    struct dirent *e;
    while (d && !*model && (e = readdir(d))) {
        char path[320];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%s/information", e->d_name);
        read_field(path, "Model", model, sizeof model);
    }
    if (d)
        closedir(d);
    /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar ..." */
    read_field("/proc/driver/nvidia/version", "NVRM version", version, sizeof version);
    nvrm_module_version(version, kernel_module, sizeof kernel_module);
    if (*model || *kernel_module)
        snprintf(cuda_device_name, sizeof cuda_device_name, "%s, driver %s",
                 *model ? model : "CUDA device 0", *kernel_module ? kernel_module : "unknown");
}
