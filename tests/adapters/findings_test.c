/*
 * findings_test.c - what the scoreboard says about the libraries added with
 * oneDNN Graph, asserted through their adapters one input at a time, so
 * that a new library version that changes shouts here: oneDNN Graph has no
 * DynamicReshape (and 3.2 no StaticReshape partition); oneDNN 3.2.0's
 * reorder flushes bf16 denormals; xtensor dies on a target shape with a 0
 * and takes -2 as -1; OpenCV ignores the second size of a 2-D to 2-D reshape; Eigen's one
 * check is an eigen_assert; ONNX Runtime's telemetry stays off.  Each
 * test is skipped when its adapter was not
 * built.  Depends on the ABI header, Criterion and libdl.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "adapter_load.h"
#include "reshape_candidate.h"

/* infer_shape of f32 `dims` (rank `rank`) with the s64 shape `values`. */
static reshape_status infer(const reshape_candidate *c, reshape_op op,
                            int32_t special_zero, int32_t rank,
                            const int64_t *dims, int64_t count,
                            const int64_t *values, int32_t *out_rank,
                            int64_t *out_dims)
{
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)values};
    reshape_params p = {op, special_zero, &shape};
    reshape_tensor src = {RESHAPE_DT_F32, rank, dims, NULL, NULL};
    return c->infer_shape(&p, &src, out_rank, out_dims);
}

Test(findings, onednn_graph_has_no_dynamic_reshape)
{
    const reshape_candidate *c = adapter_load("onednn_graph");
    const int64_t dims[2] = {2, 3}, values[1] = {6};
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];

    cr_expect_eq(c->supports(RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1, RESHAPE_DT_F32,
                             RESHAPE_DT_S32, 0),
                 RESHAPE_E_NOT_SUPPORTED);
    cr_expect_eq(infer(c, RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1, 0, 2, dims, 1,
                       values, &rank, out),
                 RESHAPE_E_NOT_SUPPORTED);
    cr_expect(strstr(adapter_why(c), "DynamicReshape") != NULL, "%s",
              adapter_why(c));
}

/* OpenVINO example 2 through oneDNN Graph's own shape inference, where a
 * backend takes the partition; oneDNN 3.2 (PyPI's 3.2.0) has none for a
 * StaticReshape alone, and infer_shape says so, naming the check. */
Test(findings, onednn_graph_infers_openvino_example_2)
{
    const reshape_candidate *c = adapter_load("onednn_graph");
    const int64_t dims[4] = {2, 5, 5, 24}, values[3] = {0, -1, 4};
    const int64_t want[3] = {2, 150, 4};
    int32_t rank = -1;
    int64_t out[RESHAPE_MAX_RANK];

    reshape_status st = infer(c, RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, 1, 4, dims,
                              3, values, &rank, out);
    if (strncmp(c->version, "3.2.", 4) == 0) {
        cr_assert_eq(st, RESHAPE_E_NOT_SUPPORTED, "oneDNN %s: %s", c->version,
                     adapter_why(c));
        cr_expect(strstr(adapter_why(c), "dnnl_graph_partition_is_supported") != NULL, "%s",
                  adapter_why(c));
        return;
    }
    cr_assert_eq(st, RESHAPE_OK, "%s", adapter_why(c));
    cr_assert_eq(rank, 3);
    cr_expect_arr_eq(out, want, sizeof want);
}

/* The oneDNN primitive adapter over PyPI's 3.2.0: its reorder flushes bf16
 * denormals (0001 becomes 0000) with AVX-512, where 2.6.3's keeps them, and
 * capped at AVX2, as 2.6.3's does there
 * (reports/onednn3/repro/bf16_through_f32.c). */
Test(findings, onednn3_flushes_a_bf16_denormal)
{
    const reshape_candidate *c = adapter_load("onednn3");
    const int64_t dims[2] = {3, 2}, count = 1, values[1] = {6}, out_dims[1] = {6};
    uint16_t in[6] = {0x0001, 0x8001, 0x007f, 0x3f80, 0x4000, 0x4040}, got[6];
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)values};
    reshape_params p = {RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, 0, &shape};
    reshape_tensor src = {RESHAPE_DT_BF16, 2, dims, NULL, in};
    reshape_tensor dst = {RESHAPE_DT_BF16, 1, out_dims, NULL, got};

    memset(got, 0xee, sizeof got);
    cr_assert_eq(c->execute(&p, &src, &dst), RESHAPE_OK, "%s", adapter_why(c));
    cr_expect_eq(got[0], 0x0000, "0001 came out as %04x", got[0]);
    cr_expect_eq(got[1], 0x8000, "8001 came out as %04x", got[1]);
    cr_expect_eq(got[2], 0x0000, "007f came out as %04x", got[2]);
    cr_expect_eq(got[3], 0x3f80, "1.0 came out as %04x", got[3]);
}

/* xstrided_container::reshape computes size() % |product| first: a 0 in
 * the target makes it an integer division by zero, valid or not.  The call
 * runs in a child, so that a missing adapter is a skip (Criterion's
 * .signal would count a skip as a failure). */
Test(findings, xtensor_dies_on_a_target_shape_with_a_zero)
{
    const reshape_candidate *c = adapter_load("xtensor");
    const int64_t dims[4] = {2, 5, 5, 0}, values[2] = {0, 4};
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];

    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        infer(c, RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 4, dims, 2, values, &rank, out);
        _exit(0);
    }
    int st = 0;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGFPE, "wait status %#x, not SIGFPE", st);
}

/* Any negative value is taken as the inferred dim: [2,3] with [-2,3] gives
 * [1,3], half the elements. */
Test(findings, xtensor_takes_minus_two_as_minus_one)
{
    const reshape_candidate *c = adapter_load("xtensor");
    const int64_t dims[2] = {2, 3}, values[2] = {-2, 3}, want[2] = {1, 3};
    int32_t rank = -1;
    int64_t out[RESHAPE_MAX_RANK];

    reshape_status st = infer(c, RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 2, dims, 2,
                              values, &rank, out);
    cr_assert_eq(st, RESHAPE_OK, "%s", adapter_why(c));
    cr_assert_eq(rank, 2);
    cr_expect_arr_eq(out, want, sizeof want);
}

/* Mat::reshape(cn, 2, newsz) on a 2-D Mat is reshape(cn, newsz[0]): the
 * second size is never read. */
Test(findings, opencv_ignores_the_second_size_of_a_2d_reshape)
{
    const reshape_candidate *c = adapter_load("opencv");
    const int64_t dims[2] = {2, 3}, values[2] = {3, -2}, want[2] = {3, 2};
    int32_t rank = -1;
    int64_t out[RESHAPE_MAX_RANK];

    reshape_status st = infer(c, RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 2, dims, 2,
                              values, &rank, out);
    cr_assert_eq(st, RESHAPE_OK, "%s", adapter_why(c));
    cr_assert_eq(rank, 2);
    cr_expect_arr_eq(out, want, sizeof want);
}

/* Eigen's reshape checks the element count only in an eigen_assert, which
 * the adapter turns into a status with the asserted expression. */
Test(findings, eigen_checks_the_volume_by_eigen_assert)
{
    const reshape_candidate *c = adapter_load("eigen");
    const int64_t dims[3] = {2, 3, 4}, values[2] = {5, 5};
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];

    reshape_status st = infer(c, RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 3, dims, 2,
                              values, &rank, out);
    cr_expect_eq(st, RESHAPE_E_INVALID_ARGUMENT, "%s", reshape_status_name(st));
    cr_expect(strstr(adapter_why(c), "eigen_assert") != NULL, "%s",
              adapter_why(c));
}

/* ONNX Runtime 1.30.0 (npm) starts Microsoft's 1DS telemetry in CreateEnv:
 * it writes /tmp/mat-debug-<pid>.log, an SQLite database under
 * ~/.cache/Microsoft/DeveloperTools/ and prepares HTTPS uploads.  The
 * adapter sets ORT_DISABLE_TELEMETRY=1 when loaded, before any
 * environment exists: a call leaves no log of this process behind. */
Test(findings, onnxruntime_telemetry_is_off)
{
    const reshape_candidate *c = adapter_load("onnxruntime");
    const int64_t dims[2] = {2, 3}, values[1] = {6};
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];
    char log[64];

    cr_assert_eq(infer(c, RESHAPE_OP_ONNX_RESHAPE_14, 0, 2, dims, 1, values, &rank, out),
                 RESHAPE_OK, "%s", adapter_why(c));
    snprintf(log, sizeof log, "/tmp/mat-debug-%d.log", (int)getpid());
    cr_expect_neq(access(log, F_OK), 0, "ONNX Runtime wrote %s", log);
    cr_expect_str_eq(getenv("ORT_DISABLE_TELEMETRY"), "1");
}
