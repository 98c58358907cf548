/*
 * onednn_graph313_test.c - the findings of oneDNN Graph on PyPI's oneDNN
 * 3.13.2 (the onednn_graph313 build, candidates/onednn/wheel313.mk),
 * asserted through the adapter one input at a time, so that a new version
 * that changes shouts here: OpenVINO example 2 goes through oneDNN's own
 * shape inference (the partition 3.2.0 lacks), the volume 2^64 wraps to 0,
 * a byte size past int64 aborts the compile, and there is no
 * DynamicReshape.  Each test is skipped when the adapter was not built
 * (`make candidates ONEDNN_GRAPH313=1`).  Depends on the ABI header,
 * Criterion and libdl.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "adapter_load.h"
#include "reshape_candidate.h"

/* infer_shape of StaticReshape-1 on f32 `dims` (rank `rank`) with the s64
 * shape `values` (`count` of them). */
static reshape_status infer313(const reshape_candidate *c, int32_t special_zero, int32_t rank,
                               const int64_t *dims, int64_t count, const int64_t *values,
                               int32_t *out_rank, int64_t *out_dims)
{
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)values};
    reshape_params p = {RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, special_zero, &shape};
    reshape_tensor src = {RESHAPE_DT_F32, rank, dims, NULL, NULL};
    return c->infer_shape(&p, &src, out_rank, out_dims);
}

/* The adapter, skipping the test unless it runs on a 3.13.x. */
static const reshape_candidate *load313(void)
{
    const reshape_candidate *c = adapter_load("onednn_graph313");
    if (strncmp(c->version, "3.13.", 5) != 0)
        cr_skip_test("onednn_graph313 runs oneDNN %s, not 3.13", c->version);
    return c;
}

Test(onednn_graph313, infers_openvino_example_2)
{
    const reshape_candidate *c = load313();
    const int64_t dims[4] = {2, 5, 5, 24}, values[3] = {0, -1, 4}, want[3] = {2, 150, 4};
    int32_t rank = -1;
    int64_t out[RESHAPE_MAX_RANK];

    cr_assert_eq(infer313(c, 1, 4, dims, 3, values, &rank, out), RESHAPE_OK, "%s",
                 adapter_why(c));
    cr_assert_eq(rank, 3);
    cr_expect_arr_eq(out, want, sizeof want);
}

/* reports/onednn_graph/repro/volume_wraps_at_2_64.c: [2^32, 2^32] to [-1]
 * compiles, with the output dims [0]. */
Test(onednn_graph313, volume_wraps_at_2_64)
{
    const reshape_candidate *c = load313();
    const int64_t dims[2] = {INT64_C(4294967296), INT64_C(4294967296)}, values[1] = {-1};
    int32_t rank = -1;
    int64_t out[RESHAPE_MAX_RANK] = {-1};

    cr_assert_eq(infer313(c, 0, 2, dims, 1, values, &rank, out), RESHAPE_OK, "%s",
                 adapter_why(c));
    cr_assert_eq(rank, 1);
    cr_expect_eq(out[0], 0);
}

/* reports/onednn_graph/repro/compile_aborts_on_byte_size_overflow.c: f32
 * [2^62] to [-1] ends the process with SIGABRT.  In a child, so that a
 * missing adapter is a skip. */
Test(onednn_graph313, compile_aborts_on_byte_size_overflow)
{
    const reshape_candidate *c = load313();
    const int64_t dims[1] = {INT64_C(4611686018427387904)}, values[1] = {-1};
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];

    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        infer313(c, 0, 1, dims, 1, values, &rank, out);
        _exit(0);
    }
    int st = 0;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "wait status %#x, not SIGABRT", st);
}

Test(onednn_graph313, has_no_dynamic_reshape)
{
    const reshape_candidate *c = load313();

    cr_expect_eq(c->supports(RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1, RESHAPE_DT_F32,
                             RESHAPE_DT_S32, 0),
                 RESHAPE_E_NOT_SUPPORTED);
    cr_expect(strstr(adapter_why(c), "DynamicReshape") != NULL, "%s", adapter_why(c));
}
