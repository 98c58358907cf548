/*
 * onnx_reference_test.c - ONNX's own reference evaluator through its two
 * builds (build/candidates/onnx_reference.so, opset 14;
 * onnx_reference_latest.so, the newest opset): the name and version it
 * reports, the checker's refusals (an s32 shape, a 2-D shape), allowzero
 * both ways, the finding that a value below -1 acts as -1, bytes of f8e5m2
 * and of s4 with an odd count (its padding nibble), and that
 * cases/generated/onnx_backend.yaml holds every case of the wheel's own
 * backend generator (onnx_backend_compare.py).  Each test is skipped when
 * its adapter (or the wheel) is not there.  Depends on the ABI header,
 * Criterion and libdl; ONNX_REF_SITE (the wheels' folder) comes from
 * candidates/onnx_reference/build.mk.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "adapter_load.h"
#include "reshape_candidate.h"

#ifndef ONNX_REF_SITE
#define ONNX_REF_SITE "/nonexistent"
#endif

static const char *const builds[] = {"onnx_reference", "onnx_reference_latest"};

/* infer_shape of `dtype` `dims` with the shape tensor `values` (of
 * `shape_dtype`, rank `shape_rank` with dims `shape_dims`). */
static reshape_status infer(const reshape_candidate *c, int32_t allowzero, reshape_dtype dtype,
                            int32_t rank, const int64_t *dims, reshape_dtype shape_dtype,
                            int32_t shape_rank, const int64_t *shape_dims, const void *values,
                            int32_t *out_rank, int64_t *out_dims)
{
    reshape_tensor shape = {shape_dtype, shape_rank, shape_dims, NULL, (void *)values};
    reshape_params p = {RESHAPE_OP_ONNX_RESHAPE_14, 1 - allowzero, &shape};
    reshape_tensor src = {dtype, rank, dims, NULL, NULL};
    return c->infer_shape(&p, &src, out_rank, out_dims);
}

Test(onnx_reference, name_and_version_are_whole)
{
    for (size_t b = 0; b < 2; b++) {
        const reshape_candidate *c = adapter_load(builds[b]);
        cr_log_info("%s: %s %s", builds[b], c->name, c->version);
        cr_expect(strlen(c->name) <= 64 && strlen(c->version) <= 64, "%s %s", c->name,
                  c->version);
        cr_expect(strncmp(c->version, "1.23.2; numpy 2.4.6, protobuf 6.33.6, ml_dtypes 0.7.0, Py ",
                          58) == 0, "%s", c->version);
        cr_expect(strstr(c->name, b == 0 ? "opset 14 (19: 8-bit floats, 21: s4 u4)" : "opset 28"),
                  "%s", c->name);
        cr_expect_eq(c->supports(RESHAPE_OP_OPENVINO_RESHAPE_1, RESHAPE_DT_F32, RESHAPE_DT_S64,
                                 0), RESHAPE_E_NOT_SUPPORTED);
        cr_expect_eq(c->supports(RESHAPE_OP_ONNX_RESHAPE_14, RESHAPE_DT_U1, RESHAPE_DT_S64, 0),
                     RESHAPE_E_NOT_SUPPORTED);
    }
}

/* onnx.checker.check_model(full_check=True) refuses an int32 shape and a
 * shape that is not 1-D; allowzero 0 copies a 0, allowzero 1 keeps it. */
Test(onnx_reference, the_checker_and_allowzero)
{
    const int64_t dims[3] = {2, 3, 4}, one[1] = {2}, two[2] = {1, 2};
    const int32_t s32[2] = {4, 6};
    const int64_t s64[2] = {0, -1}, empty_dims[3] = {0, 3, 4}, literal[3] = {3, 4, 0};
    int32_t rank = -1;
    int64_t out[RESHAPE_MAX_RANK];

    for (size_t b = 0; b < 2; b++) {
        const reshape_candidate *c = adapter_load(builds[b]);
        cr_expect_eq(infer(c, 0, RESHAPE_DT_F32, 3, dims, RESHAPE_DT_S32, 1, one, s32, &rank,
                           out), RESHAPE_E_SHAPE_TYPE, "%s", adapter_why(c));
        cr_expect(strstr(adapter_why(c), "check_model"), "%s", adapter_why(c));
        cr_expect_eq(infer(c, 0, RESHAPE_DT_F32, 3, dims, RESHAPE_DT_S64, 2, two, s64, &rank,
                           out), RESHAPE_E_SHAPE_NOT_1D, "%s", adapter_why(c));
        cr_assert_eq(infer(c, 0, RESHAPE_DT_F32, 3, dims, RESHAPE_DT_S64, 1, one, s64, &rank,
                           out), RESHAPE_OK, "%s", adapter_why(c));
        cr_expect(rank == 2 && out[0] == 2 && out[1] == 12, "[%lld, %lld]", (long long)out[0],
                  (long long)out[1]);
        const int64_t three[1] = {3};
        cr_assert_eq(infer(c, 1, RESHAPE_DT_F32, 3, empty_dims, RESHAPE_DT_S64, 1, three,
                           literal, &rank, out), RESHAPE_OK, "%s", adapter_why(c));
        cr_expect(rank == 3 && out[0] == 3 && out[1] == 4 && out[2] == 0);
        cr_expect_eq(infer(c, 1, RESHAPE_DT_F32, 3, empty_dims, RESHAPE_DT_S64, 1, one, s64,
                           &rank, out), RESHAPE_E_ZERO_AND_MINUS_ONE, "%s", adapter_why(c));
    }
}

/* The finding (reports/onnx_reference/repro/below_minus_one_as_minus_one.py):
 * numpy's reshape takes -2 as the unknown dim, so [2,-2] on [2,3] is [2,3]. */
Test(onnx_reference, a_value_below_minus_one_acts_as_minus_one)
{
    const int64_t dims[2] = {2, 3}, count[1] = {2}, values[2] = {2, -2};
    int32_t rank = -1;
    int64_t out[RESHAPE_MAX_RANK];

    for (size_t b = 0; b < 2; b++) {
        const reshape_candidate *c = adapter_load(builds[b]);
        cr_assert_eq(infer(c, 0, RESHAPE_DT_F32, 2, dims, RESHAPE_DT_S64, 1, count, values,
                           &rank, out), RESHAPE_OK, "%s", adapter_why(c));
        cr_expect(rank == 2 && out[0] == 2 && out[1] == 3);
    }
}

/* One execute of `dtype` `dims` into `out_dims` through the shape `values`;
 * dst starts as 0xA5 and has `room` bytes. */
static reshape_status run(const reshape_candidate *c, reshape_dtype dtype, int32_t rank,
                          const int64_t *dims, const unsigned char *in, int32_t out_rank,
                          const int64_t *out_dims, unsigned char *dst, size_t room)
{
    int64_t count = out_rank;
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)out_dims};
    reshape_params p = {RESHAPE_OP_ONNX_RESHAPE_14, 0, &shape};
    reshape_tensor src = {dtype, rank, dims, NULL, (void *)in};
    reshape_tensor d = {dtype, out_rank, out_dims, NULL, dst};
    memset(dst, 0xA5, room);
    return c->execute(&p, &src, &d);
}

Test(onnx_reference, bytes_of_f8e5m2_and_of_odd_s4)
{
    const int64_t four[1] = {4}, two_two[2] = {2, 2}, five[1] = {5}, five_one[2] = {5, 1};
    const unsigned char f8[4] = {0x7c, 0xfc, 0x7e, 0x01}; /* inf, -inf, nan, min denormal */
    const unsigned char s4[3] = {0x21, 0x8f, 0x67};        /* 1 2 -1 -8 7, pad nibble 6 */
    unsigned char dst[8];

    for (size_t b = 0; b < 2; b++) {
        const reshape_candidate *c = adapter_load(builds[b]);
        cr_assert_eq(run(c, RESHAPE_DT_F8E5M2, 1, four, f8, 2, two_two, dst, sizeof dst),
                     RESHAPE_OK, "%s", adapter_why(c));
        cr_expect_arr_eq(dst, f8, 4);
        cr_expect_eq(dst[4], 0xA5, "a byte after dst was written");
        cr_assert_eq(run(c, RESHAPE_DT_S4, 1, five, s4, 2, five_one, dst, sizeof dst),
                     RESHAPE_OK, "%s", adapter_why(c));
        cr_expect_arr_eq(dst, s4, 3, "%02x %02x %02x", dst[0], dst[1], dst[2]);
        cr_expect_eq(dst[3], 0xA5, "a byte after dst was written");
    }
}

/* Every case of the wheel's backend generator is in onnx_backend.yaml. */
Test(onnx_reference, the_backend_cases_are_all_imported, .timeout = 120)
{
    if (access(ONNX_REF_SITE "/onnx/backend/test/case/node/reshape.py", R_OK) != 0)
        cr_skip_test("the onnx wheel is not installed in " ONNX_REF_SITE);
    int rc = system("PYTHONPATH=" ONNX_REF_SITE " /usr/bin/python3 "
                    "tests/adapters/onnx_backend_compare.py cases/generated/onnx_backend.yaml");
    cr_assert(WIFEXITED(rc), "the comparison did not finish");
    cr_expect_eq(WEXITSTATUS(rc), 0, "onnx_backend_compare.py exited %d", WEXITSTATUS(rc));
}
