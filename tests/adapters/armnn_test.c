/*
 * armnn_test.c - the Arm NN 20.08 adapter (candidates/armnn/README.md) one
 * input at a time: -1 and a copying 0 resolved as Arm NN's parsers do, and
 * what Arm NN's Reshape on CpuRef then does with them, asserted exactly so
 * that a change shouts: a 32-bit element count that wraps, negative values
 * taken as unsigned dims, a truncating -1, a copying 0 on a scalar, the
 * CpuRef copy that never returns on an empty tensor of huge dims, Boolean
 * refused, the limits declared.  Skipped when the adapter was not built.
 * Depends on the ABI header, Criterion and adapter_load.h.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "adapter_load.h"
#include "reshape_candidate.h"

/* infer_shape on f32 `dims` with the s64 shape `values`, OpenVINO op. */
static reshape_status infer(const reshape_candidate *c, int32_t special_zero, int32_t rank,
                            const int64_t *dims, int64_t count, const int64_t *values,
                            int32_t *out_rank, int64_t *out_dims)
{
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)values};
    reshape_params p = {RESHAPE_OP_OPENVINO_RESHAPE_1, special_zero, &shape};
    reshape_tensor src = {RESHAPE_DT_F32, rank, dims, NULL, NULL};
    return c->infer_shape(&p, &src, out_rank, out_dims);
}

/* The dims of one infer_shape call that must succeed. */
#define EXPECT_SHAPE(c, rank, want)                                                  \
    do {                                                                             \
        cr_assert_eq(st, RESHAPE_OK, "%s", adapter_why(c));                          \
        cr_assert_eq(out_rank, rank);                                                \
        cr_expect_arr_eq(out, want, sizeof want);                                    \
    } while (0)

Test(armnn, a_volume_that_wraps_at_2p32_is_accepted)
{
    const reshape_candidate *c = adapter_load("armnn");
    const int64_t dims[1] = {4}, values[2] = {4, 1073741825}, want[2] = {4, 1073741825};
    int32_t out_rank;
    int64_t out[RESHAPE_MAX_RANK];

    /* 4 * 1073741825 = 2^32 + 4: TensorShape::GetNumElements says 4. */
    reshape_status st = infer(c, 0, 1, dims, 2, values, &out_rank, out);
    EXPECT_SHAPE(c, 2, want);
}

Test(armnn, negative_values_become_unsigned_dims)
{
    const reshape_candidate *c = adapter_load("armnn");
    const int64_t dims[1] = {6}, values[2] = {-2, -3}, want[2] = {4294967294, 4294967293};
    int32_t out_rank;
    int64_t out[RESHAPE_MAX_RANK];

    /* (2^32 - 2) * (2^32 - 3) = 6 modulo 2^32. */
    reshape_status st = infer(c, 0, 1, dims, 2, values, &out_rank, out);
    EXPECT_SHAPE(c, 2, want);
}

Test(armnn, the_parsers_minus_one_truncates_then_load_refuses)
{
    const reshape_candidate *c = adapter_load("armnn");
    const int64_t dims[3] = {2, 2, 4}, values[2] = {12, -1}, two[2] = {-1, -1};
    int32_t out_rank;
    int64_t out[RESHAPE_MAX_RANK];

    /* 16 / 12 = 1: [12, 1], which LoadNetwork's validation refuses. */
    cr_expect_eq(infer(c, 0, 3, dims, 2, values, &out_rank, out), RESHAPE_E_VOLUME_MISMATCH);
    cr_expect(strstr(adapter_why(c), "must have the same number of elements") != NULL, "%s",
              adapter_why(c));
    cr_expect_eq(infer(c, 0, 3, dims, 2, two, &out_rank, out), RESHAPE_E_MULTIPLE_MINUS_ONE);
}

Test(armnn, a_zero_beside_minus_one_is_not_divided_by)
{
    const reshape_candidate *c = adapter_load("armnn");
    const int64_t dims[2] = {2, 3}, values[2] = {0, -1};
    int32_t out_rank;
    int64_t out[RESHAPE_MAX_RANK];

    cr_expect_eq(infer(c, 0, 2, dims, 2, values, &out_rank, out), RESHAPE_E_NOT_SUPPORTED);
    cr_expect(strstr(adapter_why(c), "divide the input's element count by 0") != NULL, "%s",
              adapter_why(c));
}

Test(armnn, a_copying_zero_copies_and_reads_1_from_a_scalar)
{
    const reshape_candidate *c = adapter_load("armnn");
    const int64_t dims[3] = {2, 3, 4}, values[3] = {0, -1, 2}, want[3] = {2, 6, 2};
    const int64_t zero[1] = {0}, one[1] = {1};
    int32_t out_rank;
    int64_t out[RESHAPE_MAX_RANK];

    reshape_status st = infer(c, 1, 3, dims, 3, values, &out_rank, out);
    EXPECT_SHAPE(c, 3, want);
    /* A scalar's TensorShape has one dim of 1 to copy, as the ONNX parser's
     * scalars ([1]) have. */
    st = infer(c, 1, 0, NULL, 1, zero, &out_rank, out);
    EXPECT_SHAPE(c, 1, one);
}

/* CopyMemGenericWorkload::Execute (libarmnn.so.22) walks the outer dims of
 * an empty tensor: f32 [2147483647, 2147483647, 2147483647, 0] to itself
 * has not returned after 3 s (the harness's 10 s budget gives TIMEOUT). */
Test(armnn, the_copy_of_an_empty_tensor_of_huge_dims_does_not_return, .timeout = 30)
{
    const reshape_candidate *c = adapter_load("armnn");
    const int64_t dims[4] = {2147483647, 2147483647, 2147483647, 0}, count = 4;
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)dims};
    reshape_params p = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape};
    unsigned char buf[8];
    reshape_tensor src = {RESHAPE_DT_F32, 4, dims, NULL, buf};
    reshape_tensor dst = {RESHAPE_DT_F32, 4, dims, NULL, buf + 4};
    int status;

    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        alarm(3);
        _exit(c->execute(&p, &src, &dst) == RESHAPE_OK ? 0 : 1);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM,
              "execute returned (status %#x): Arm NN's copy was fixed?", status);
}

Test(armnn, cpuref_refuses_boolean_and_limits_are_declared)
{
    const reshape_candidate *c = adapter_load("armnn");

    cr_expect_eq(c->supports(RESHAPE_OP_OPENVINO_RESHAPE_1, RESHAPE_DT_BOOLEAN, RESHAPE_DT_S64,
                             0),
                 RESHAPE_E_NOT_SUPPORTED);
    cr_expect_str_eq(adapter_why(c), "CpuRef: Reference reshape: input type not supported.");
    cr_assert(RESHAPE_CANDIDATE_HAS(c, limits) && c->limits != NULL);
    cr_expect_eq(c->limits->max_rank, 5);
    cr_expect_eq(c->limits->max_volume, (int64_t)UINT32_MAX);
    cr_expect_eq(c->limits->layouts, RESHAPE_LAYOUT_IN_PLACE);
}
