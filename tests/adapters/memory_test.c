/*
 * memory_test.c - the repeat variant's measurement on ONNX Runtime, longer
 * than the harness takes it: the `repeat` case dtype_onnx_bf16_min_denormal_repeated
 * (onnx_reshape_14, bf16 [3,5] -> shape s64 [5,3], allowzero 0) executed
 * 2000 times (the harness's warm-up), then 1000 more with the memory in use
 * sampled every 50 calls as the worker samples it in a plain build
 * (glibc mallinfo2() uordblks + hblkhd; skipped in the sanitized build,
 * where malloc is AddressSanitizer's and 3000 calls take minutes).  ONNX Runtime 1.30.0 allocates while creating the session (first
 * 50 calls, ~8 MB) and once more within the next 50 (4112 bytes), then
 * nothing: the LEAK once seen in full runs is not a leak of its calls
 * (candidates/onnxruntime/README.md, "Memory").  Skipped when the adapter
 * was not built.
 */
#include <dlfcn.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "reshape_candidate.h"

/* glibc's bytes in use, as the worker samples them in a plain build. */
static int64_t memory_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return (int64_t)(m.uordblks + m.hblkhd);
}

Test(memory, onnxruntime_repeated_execute_keeps_nothing_after_warm_up, .timeout = 120)
{
#ifdef __SANITIZE_ADDRESS__
    cr_skip_test("measured on glibc's malloc: the plain build runs it");
#endif
    const char *dir = getenv("ADAPTER_DIR") ? getenv("ADAPTER_DIR") : "build/candidates";
    char path[512];
    snprintf(path, sizeof path, "%s/onnxruntime.so", dir);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        cr_skip_test("%s not built (make candidates): %s", path, dlerror());
    reshape_candidate_entry entry = (reshape_candidate_entry)dlsym(h, "reshape_candidate_v1");
    cr_assert(entry, "no reshape_candidate_v1 in %s", path);
    const reshape_candidate *c = entry();
    int64_t sdims[1] = {2}, svals[2] = {5, 3}, idims[2] = {3, 5}, odims[2] = {5, 3};
    uint16_t src[15], dst[15];
    for (int i = 0; i < 15; i++)
        src[i] = 0x0100;        /* bf16 min denormal, as the case's payload */
    reshape_tensor shape = {RESHAPE_DT_S64, 1, sdims, NULL, svals};
    reshape_params p = {RESHAPE_OP_ONNX_RESHAPE_14, 0, &shape};
    reshape_tensor s = {RESHAPE_DT_BF16, 2, idims, NULL, src};
    reshape_tensor d = {RESHAPE_DT_BF16, 2, odims, NULL, dst};
    for (int i = 0; i < 2000; i++)
        cr_assert_eq(c->execute(&p, &s, &d), RESHAPE_OK, "warm-up call %d", i);
    int64_t first = memory_in_use(), prev = first;
    int grew = 0;
    for (int i = 1; i <= 1000; i++) {
        cr_assert_eq(c->execute(&p, &s, &d), RESHAPE_OK, "call %d", i);
        if (i % 50 == 0) {
            int64_t m = memory_in_use();
            grew += m > prev;
            prev = m;
        }
    }
    cr_expect_lt(grew, 20, "memory in use grew in each of the 20 intervals of 50 calls");
    cr_expect_leq(prev - first, 4112, "grew by %lld bytes over 1000 calls after warm-up",
                  (long long)(prev - first));
    dlclose(h);
}
