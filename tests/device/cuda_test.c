/*
 * cuda_test.c - the CUDA candidate (candidates/cuda/) where there is no
 * GPU: its PTX assembles for sm_90 (where ptxas is), the harness skips it
 * cleanly without a driver, and its host side (driver loading, the first
 * use, fork, allocation counting, the kernel's geometry and launch) runs
 * the whole suite conformant on the fake driver of tests/device/fakecuda/,
 * which models the kernel on the host.
 */
#include <dlfcn.h>
#include <sys/wait.h>

#include "cuda.h"
#include "nvrm_version.h"
#include "run_harness.h"

#define CUDA_SO "build/cuda/reshape_cuda.so"
#define FAKE_DIR "build/tests/fakecuda"

/* ptxas from PTXAS, else PATH, else the toolkit's usual place; NULL when
 * none is there (CI without a toolkit). */
static const char *find_ptxas(void)
{
    const char *env = getenv("PTXAS");
    if (env && *env)
        return env;
    if (system("command -v ptxas >/dev/null 2>&1") == 0)
        return "ptxas";
    return access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ? "/usr/local/cuda/bin/ptxas" : NULL;
}

Test(cuda, ptx_assembles_for_sm_90)
{
    const char *ptxas = find_ptxas();
    if (!ptxas)
        cr_skip_test("no ptxas here (a CUDA toolkit's): the PTX is not checked");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s -arch=sm_90 candidates/cuda/reshape_gather.ptx "
             "-o /dev/null 2>&1", ptxas);
    cr_expect_eq(system(cmd), 0, "%s failed", cmd);
}

Test(cuda, without_a_driver_nothing_is_tested)
{
    if (access("/dev/nvidiactl", F_OK) == 0)
        cr_skip_test("an NVIDIA driver is here: candidates/cuda/gpu_check.sh certifies on it");
    unsetenv("LD_LIBRARY_PATH");
    run r = run_harness("--candidate " CUDA_SO " --cases cases/openvino_reshape_1.yaml");
    cr_expect_eq(r.code, 77, "exit %d: %s", r.code, r.err);
    cr_expect(strstr(r.err, "skipped: the candidate's device 'CUDA device 0"), "%s", r.err);
    cr_expect(strstr(r.err, "libcuda.so.1") || strstr(r.err, "cuInit failed"), "%s", r.err);
    run_free(&r);
}

Test(cuda, no_gpu_behind_the_driver_is_a_skip)
{
    setenv("LD_LIBRARY_PATH", FAKE_DIR, 1);
    setenv("FAKECUDA_NO_DEVICE", "1", 1);
    run r = run_harness("--candidate " CUDA_SO " --cases cases/openvino_reshape_1.yaml");
    cr_expect_eq(r.code, 77, "exit %d: %s", r.code, r.err);
    cr_expect(strstr(r.err, "cuInit failed: CUDA_ERROR_NO_DEVICE"), "%s", r.err);
    run_free(&r);
}

Test(cuda, conformant_on_the_fake_driver, .timeout = 600)
{
    setenv("LD_LIBRARY_PATH", FAKE_DIR, 1);
    run r = run_harness("--candidate " CUDA_SO " --variants all");
    cr_assert_eq(r.code, 0, "exit %d: %s %s", r.code, r.out, r.err);
    cr_expect_eq(others_not_passing(&r, NULL), 0);
    json_t *dev = json_object_get(json_object_get(r.report, "host"), "device");
    cr_expect_str_eq(field(dev, "type"), "cuda");
    cr_expect_str_eq(field(dev, "name"), "Fake GPU (tests/device/fakecuda) (CUDA 12.4)");
    run_free(&r);
}

/* ------------------------------------------- in this process, on the fake */

static const reshape_candidate *cand;
static const cuda_geometry *(*last_geometry)(void);

static void load(void)
{
    /* loaded first, the fake is the libcuda.so.1 the candidate dlopens */
    void *fake = dlopen(FAKE_DIR "/libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    cr_assert(fake, "%s", dlerror());
    void *sym = dlsym(fake, "fakecuda_last_geometry");
    memcpy(&last_geometry, &sym, sizeof sym);
    void *lib = dlopen(CUDA_SO, RTLD_NOW | RTLD_LOCAL);
    cr_assert(lib, "%s", dlerror());
    sym = dlsym(lib, RESHAPE_CANDIDATE_ENTRY);
    reshape_candidate_entry entry;
    memcpy(&entry, &sym, sizeof entry);
    cand = entry();
}

TestSuite(cuda_host, .init = load);

Test(cuda_host, entry_calls_no_driver_and_names_the_device_after_first_use)
{
    cr_expect_str_eq(cand->device->name, "CUDA device 0", "no /proc/driver/nvidia here");
    uint64_t n = 1;
    cr_assert_eq(cand->device->memory_in_use(&n), RESHAPE_OK);
    cr_expect_eq(n, 0);
    void *p;
    cr_assert_eq(cand->device->alloc(100, &p), RESHAPE_OK);
    cr_expect_str_eq(cand->device->name, "Fake GPU (tests/device/fakecuda) (CUDA 12.4)");
    cr_assert_eq(cand->device->memory_in_use(&n), RESHAPE_OK);
    cr_expect_eq(n, 100);
    cr_expect_eq(cand->device->release((char *)p + 1), RESHAPE_E_INTERNAL);
    cr_expect(strstr(cand->last_error(), "which alloc did not return"));
    cr_expect_eq(cand->device->release(p), RESHAPE_OK);
}

Test(cuda_host, a_forked_child_is_told_the_context_is_its_parents)
{
    void *p;
    cr_assert_eq(cand->device->alloc(64, &p), RESHAPE_OK);
    pid_t pid = fork();
    if (pid == 0) {
        void *q;
        int refused = cand->device->alloc(64, &q) == RESHAPE_E_INTERNAL &&
                      strstr(cand->last_error(), "does not survive fork");
        _exit(refused ? 0 : 1);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Launches a copy of `n` elements of `dtype` from src at byte `so` of one
 * allocation to dst at byte `dof` of another, src with `sstrides` (NULL:
 * dense), and returns the geometry the kernel got. */
static cuda_geometry launch(reshape_dtype dtype, int64_t n, size_t so, size_t dof,
                            const int64_t *sstrides)
{
    void *a, *b;
    cr_assert_eq(cand->device->alloc(4096, &a), RESHAPE_OK);
    cr_assert_eq(cand->device->alloc(4096, &b), RESHAPE_OK);
    int64_t dims[1] = {n}, shape_dims[1] = {1};
    reshape_tensor shape = {RESHAPE_DT_S64, 1, shape_dims, NULL, dims};
    reshape_params params = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape};
    reshape_tensor src = {dtype, 1, dims, sstrides, (char *)a + so};
    reshape_tensor dst = {dtype, 1, dims, NULL, (char *)b + dof};
    cr_assert_eq(cand->execute(&params, &src, &dst), RESHAPE_OK, "%s", cand->last_error());
    cr_assert_eq(cand->device->synchronize(), RESHAPE_OK);
    cand->device->release(a);
    cand->device->release(b);
    return *last_geometry();
}

Test(cuda_host, geometry_flags)
{
    cuda_geometry g = launch(RESHAPE_DT_F32, 10, 0, 64, NULL);
    cr_expect_eq(g.flags, CUDA_SRC_DENSE | CUDA_DST_DENSE | CUDA_ALIGNED);
    cr_expect_eq(g.count, 10);
    cr_expect_eq(g.bits, 32);
    g = launch(RESHAPE_DT_F32, 10, 1, 64, NULL);
    cr_expect_eq(g.flags, CUDA_SRC_DENSE | CUDA_DST_DENSE, "misaligned: byte by byte");
    static const int64_t two[1] = {2};
    g = launch(RESHAPE_DT_U4, 7, 0, 0, two);
    cr_expect_eq(g.flags, CUDA_DST_DENSE, "strided src: no padding to copy");
    cr_expect_eq(g.src_strides[0], 2);
    g = launch(RESHAPE_DT_U4, 7, 0, 0, NULL);
    cr_expect_eq(g.flags, CUDA_SRC_DENSE | CUDA_DST_DENSE | CUDA_PADDING);
    g = launch(RESHAPE_DT_U1, 16, 0, 0, NULL);
    cr_expect_eq(g.flags, CUDA_SRC_DENSE | CUDA_DST_DENSE, "whole bytes: no padding");
}

Test(cuda_host, supports_only_device_memory)
{
    cr_expect_eq(cand->supports(RESHAPE_OP_OPENVINO_RESHAPE_1, RESHAPE_DT_U1, RESHAPE_DT_S64,
                                RESHAPE_LAYOUT_DEVICE | RESHAPE_LAYOUT_STRIDED_SRC), RESHAPE_OK);
    cr_expect_eq(cand->supports(RESHAPE_OP_OPENVINO_RESHAPE_1, RESHAPE_DT_F32, RESHAPE_DT_S64, 0),
                 RESHAPE_E_NOT_SUPPORTED);
}

/* The kernel module's version in the device's name, from the NVRM line of
 * both the proprietary and the open module (the open one's "for x86_64"
 * was read as the version on an H100 with driver 580.159.04). */
Test(cuda_host, the_kernel_modules_version_from_either_nvrm_line)
{
    char v[32];
    nvrm_module_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 "
                        "22:23:56 UTC 2024", v, sizeof v);
    cr_expect_str_eq(v, "550.54.15");
    nvrm_module_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  "
                        "Release Build  (nixbld@)", v, sizeof v);
    cr_expect_str_eq(v, "580.159.04");
    nvrm_module_version("NVRM version: none here", v, sizeof v);
    cr_expect_str_eq(v, "");
}
