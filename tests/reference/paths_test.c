/*
 * paths_test.c - the plain path (the definition) and the fast paths give
 * identical bytes: memmove on random dense inputs of every dtype, runs on
 * random strided layouts; and the switch between them (RESHAPE_REF_PLAIN,
 * reshape_ref_set_plain) works.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"

#define TRIALS 60

/* Runs one dense reshape of `src` into dims `ddims` on the path `plain`,
 * into `out` (which holds garbage before). */
static void run(int plain, const reshape_tensor *src, int32_t drank,
                const int64_t *ddims, void *out)
{
    struct shape_buf shape;
    reshape_tensor dst = tensor(src->dtype, drank, ddims, out);
    reshape_params p;
    reshape_status st;

    reshape_ref_set_plain(plain);
    cr_assert_eq(reshape_ref_plain(), plain);
    shape_init(&shape, RESHAPE_DT_S64, drank, ddims);
    p = params(RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape.t);
    st = ref()->execute(&p, src, &dst);
    cr_assert_eq(st, RESHAPE_OK, "%s", ref()->last_error());
}

ParameterizedTestParameters(paths, plain_equals_fast_on_random_input)
{
    return cr_make_param_array(reshape_dtype, all_dtypes, RESHAPE_DT_COUNT);
}

/* TRIALS random shapes of rank 0..4 with dims 1..7, reshaped to their
 * reversed dims plus a trailing 1; dst buffers start with different
 * garbage; both must end equal to src, padding bits included. */
RowTest(reshape_dtype *dtype, paths,
        plain_equals_fast_on_random_input)
{
    unsigned char draw[8];

    for (uint64_t trial = 0; trial < TRIALS; trial++) {
        int64_t sdims[4], ddims[5], volume = 1;
        int32_t rank;
        size_t n;
        unsigned char *in, *fast, *plain;
        reshape_tensor src;

        fill_random(draw, sizeof draw, trial * 1000 + (uint64_t)*dtype);
        rank = draw[0] % 5;
        for (int32_t i = 0; i < rank; i++) {
            sdims[i] = 1 + draw[1 + i] % 7;
            ddims[rank - 1 - i] = sdims[i];
            volume *= sdims[i];
        }
        ddims[rank] = 1;
        n = payload_bytes(*dtype, volume);
        in = malloc(n);
        fast = malloc(n);
        plain = malloc(n);
        cr_assert(in != NULL && fast != NULL && plain != NULL);
        fill_random(in, n, trial + 1);
        fill_random(fast, n, trial + 2);
        fill_random(plain, n, trial + 3);
        src = tensor(*dtype, rank, sdims, in);

        run(0, &src, rank + 1, ddims, fast);
        run(1, &src, rank + 1, ddims, plain);
        assert_bytes_eq(plain, fast, n);
        assert_bytes_eq(fast, in, n);
        free(in);
        free(fast);
        free(plain);
    }
}

/* ------------------------------------------------------- the switch */

Test(paths, unset_environment_means_fast)
{
    unsetenv("RESHAPE_REF_PLAIN");
    cr_assert_eq(reshape_ref_plain(), 0);
}

Test(paths, environment_1_means_plain)
{
    setenv("RESHAPE_REF_PLAIN", "1", 1);
    cr_assert_eq(reshape_ref_plain(), 1);
}

Test(paths, environment_other_than_1_means_fast)
{
    setenv("RESHAPE_REF_PLAIN", "yes", 1);
    cr_assert_eq(reshape_ref_plain(), 0);
}

Test(paths, environment_is_read_once)
{
    setenv("RESHAPE_REF_PLAIN", "1", 1);
    cr_assert_eq(reshape_ref_plain(), 1);
    setenv("RESHAPE_REF_PLAIN", "0", 1);
    cr_assert_eq(reshape_ref_plain(), 1);
}

Test(paths, set_plain_overrides_the_environment)
{
    setenv("RESHAPE_REF_PLAIN", "1", 1);
    reshape_ref_set_plain(0);
    cr_assert_eq(reshape_ref_plain(), 0);
    reshape_ref_set_plain(1);
    cr_assert_eq(reshape_ref_plain(), 1);
}

/*
 * Which path ran is visible only outside the ABI's contract: with dst one
 * byte past src in the same buffer (a partial overlap, which callers must
 * not pass), memmove shifts the bytes while the plain loop, walking forward,
 * repeats the first one.  Used here only to prove the switch takes effect,
 * so that "plain equals fast" above compares two different paths.
 */
static void overlap_probe(int plain, unsigned char *buf)
{
    int64_t dims[1] = {8};
    reshape_tensor src = tensor(RESHAPE_DT_U8, 1, dims, buf);

    for (int i = 0; i < 9; i++)
        buf[i] = (unsigned char)(i + 1);
    run(plain, &src, 1, dims, buf + 1);
}

Test(paths, fast_path_is_a_memmove)
{
    unsigned char buf[9], want[9] = {1, 1, 2, 3, 4, 5, 6, 7, 8};

    overlap_probe(0, buf);
    assert_bytes_eq(buf, want, sizeof buf);
}

Test(paths, plain_path_is_an_element_loop)
{
    unsigned char buf[9], want[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};

    overlap_probe(1, buf);
    assert_bytes_eq(buf, want, sizeof buf);
}

/* -------------------------------------------------- strided: runs */

/* Strides for `dims` over a buffer: row-major with `pad` elements after
 * each row of the dim that is contiguous in memory, the innermost one, or
 * with `permute` the one before it (a transposed view).  Returns the
 * elements the buffer holds. */
static int64_t strides_for(int32_t rank, const int64_t *dims, int64_t pad,
                           int permute, int64_t *strides)
{
    int32_t row = permute && rank >= 2 ? rank - 2 : rank - 1;
    int64_t span = dims[row] + pad;

    strides[row] = 1;
    for (int32_t j = rank - 1; j >= 0; j--) {
        if (j == row)
            continue;
        strides[j] = span;
        span *= dims[j];
    }
    return span;
}

ParameterizedTestParameters(paths, plain_equals_runs_on_random_strided_layouts)
{
    return cr_make_param_array(reshape_dtype, all_dtypes, RESHAPE_DT_COUNT);
}

/* TRIALS random src and dst layouts (rank 1..4, dims 1..7, 0..3 elements
 * of padding after each row, some transposed), reshaped to the reversed
 * dims: the gaps of dst start as garbage that both paths must keep, and
 * both must write the same bytes. */
RowTest(reshape_dtype *dtype, paths,
        plain_equals_runs_on_random_strided_layouts)
{
    unsigned char draw[12];

    for (uint64_t trial = 0; trial < TRIALS; trial++) {
        int64_t sdims[4], ddims[4], sstr[4], dstr[4];
        int32_t rank;

        fill_random(draw, sizeof draw, trial * 7919 + (uint64_t)*dtype);
        rank = 1 + draw[0] % 4;
        for (int32_t i = 0; i < rank; i++) {
            sdims[i] = 1 + draw[1 + i] % 7;
            ddims[rank - 1 - i] = sdims[i];
        }
        int64_t sspan = strides_for(rank, sdims, draw[5] % 4, draw[6] % 3 == 0, sstr);
        int64_t dspan = strides_for(rank, ddims, draw[7] % 4, draw[8] % 3 == 0, dstr);
        size_t sn = payload_bytes(*dtype, sspan), dn = payload_bytes(*dtype, dspan);
        unsigned char *in = malloc(sn), *fast = malloc(dn), *plain = malloc(dn);
        cr_assert(in != NULL && fast != NULL && plain != NULL);
        fill_random(in, sn, trial + 1);
        fill_random(fast, dn, trial + 2);
        memcpy(plain, fast, dn);

        struct shape_buf shape;
        shape_init(&shape, RESHAPE_DT_S64, rank, ddims);
        reshape_params p = params(RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape.t);
        reshape_tensor src = strided(*dtype, rank, sdims, sstr, in);
        for (int plain_path = 0; plain_path < 2; plain_path++) {
            reshape_tensor dst = strided(*dtype, rank, ddims, dstr, plain_path ? plain : fast);
            reshape_ref_set_plain(plain_path);
            reshape_status st = ref()->execute(&p, &src, &dst);
            cr_assert_eq(st, RESHAPE_OK, "%s", ref()->last_error());
        }
        assert_bytes_eq(fast, plain, dn);
        free(in);
        free(fast);
        free(plain);
    }
}
