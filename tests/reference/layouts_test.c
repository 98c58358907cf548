/*
 * layouts_test.c - the copy under every layout the ABI allows: strided src
 * (padded rows, permuted dims, stride 0), strided dst whose gaps hold a
 * canary that must survive, in-place, sub-byte strided, misaligned data,
 * scalars and empty tensors.  Expected bytes come from the tests' own
 * index model (support.c), never from the reference.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"

#define OVR RESHAPE_OP_OPENVINO_RESHAPE_1

/* A zeroed buffer of at least `elements` elements of `dtype`, plus slack. */
static unsigned char *buffer(reshape_dtype dtype, int64_t elements,
                             size_t *bytes)
{
    unsigned char *p;

    *bytes = payload_bytes(dtype, elements) + 8;
    p = calloc(1, *bytes);
    cr_assert(p != NULL);
    return p;
}

/*
 * Declares `name` as a test of suite `layouts` for every dtype, whose body
 * (the block after the macro) runs twice, on the fast path and then on the
 * plain path, with the dtype in `dtype`.
 */
#define EVERY_DTYPE_TEST(name)                                                 \
    static void name(reshape_dtype dtype);                                     \
    ParameterizedTestParameters(layouts, name)                                 \
    {                                                                          \
        return cr_make_param_array(reshape_dtype, all_dtypes,                  \
                                   RESHAPE_DT_COUNT);                          \
    }                                                                          \
    RowTest(reshape_dtype *d, layouts, name)                                   \
    {                                                                          \
        for (int plain = 0; plain <= 1; plain++) {                             \
            reshape_ref_set_plain(plain);                                      \
            name(*d);                                                          \
        }                                                                      \
    }                                                                          \
    static void name(reshape_dtype dtype)

/* src [3, 5] stored with rows of 8 (3 padding elements per row) -> dst
 * [5, 3] dense.  The padding holds random bytes that must not be copied. */
EVERY_DTYPE_TEST(strided_src_padded_rows)
{
    size_t sb, db;
    unsigned char *in = buffer(dtype, 24, &sb), *out;
    int64_t sdims[2] = {3, 5}, sstr[2] = {8, 1}, ddims[2] = {5, 3};
    reshape_tensor src, dst;

    out = buffer(dtype, 15, &db);
    fill_random(in, sb, 11);
    fill_random(out, db, 12);
    src = strided(dtype, 2, sdims, sstr, in);
    dst = tensor(dtype, 2, ddims, out);
    check_copy(OVR, &src, sb, &dst, db);
    free(in);
    free(out);
}

/* src [4, 3] is the transpose of a dense [3, 4] buffer (strides [1, 4]) ->
 * dst [2, 6] dense. */
EVERY_DTYPE_TEST(strided_src_permuted)
{
    size_t sb, db;
    unsigned char *in = buffer(dtype, 12, &sb), *out;
    int64_t sdims[2] = {4, 3}, sstr[2] = {1, 4}, ddims[2] = {2, 6};
    reshape_tensor src, dst;

    out = buffer(dtype, 12, &db);
    fill_random(in, sb, 21);
    src = strided(dtype, 2, sdims, sstr, in);
    dst = tensor(dtype, 2, ddims, out);
    check_copy(OVR, &src, sb, &dst, db);
    free(in);
    free(out);
}

/* src [2, 3, 2] permuted to dims order (2, 0, 1) of a dense [2, 2, 3]. */
EVERY_DTYPE_TEST(strided_src_permuted_rank_3)
{
    size_t sb, db;
    unsigned char *in = buffer(dtype, 12, &sb), *out;
    int64_t sdims[3] = {2, 3, 2}, sstr[3] = {3, 1, 6}, ddims[1] = {12};
    reshape_tensor src, dst;

    out = buffer(dtype, 12, &db);
    fill_random(in, sb, 22);
    src = strided(dtype, 3, sdims, sstr, in);
    dst = tensor(dtype, 1, ddims, out);
    check_copy(OVR, &src, sb, &dst, db);
    free(in);
    free(out);
}

/* src [4, 3] with stride 0 on the first dim: every row reads the same
 * three elements. */
EVERY_DTYPE_TEST(strided_src_stride_0)
{
    size_t sb, db;
    unsigned char *in = buffer(dtype, 3, &sb), *out;
    int64_t sdims[2] = {4, 3}, sstr[2] = {0, 1}, ddims[1] = {12};
    reshape_tensor src, dst;

    out = buffer(dtype, 12, &db);
    fill_random(in, sb, 23);
    src = strided(dtype, 2, sdims, sstr, in);
    dst = tensor(dtype, 1, ddims, out);
    check_copy(OVR, &src, sb, &dst, db);
    free(in);
    free(out);
}

/* dst [3, 4] stored with rows of 7 and every element two apart in its row
 * (strides [9, 2] over 3 * 9 elements): the gaps hold a canary (0xA5 bytes)
 * that must survive, bit for bit, also for sub-byte types. */
EVERY_DTYPE_TEST(strided_dst_gaps_keep_the_canary)
{
    size_t sb, db;
    unsigned char *in = buffer(dtype, 12, &sb), *out;
    int64_t sdims[1] = {12}, ddims[2] = {3, 4}, dstr[2] = {9, 2};
    reshape_tensor src, dst;

    out = buffer(dtype, 27, &db);
    fill_random(in, sb, 31);
    memset(out, 0xA5, db);
    src = tensor(dtype, 1, sdims, in);
    dst = strided(dtype, 2, ddims, dstr, out);
    check_copy(OVR, &src, sb, &dst, db);
    free(in);
    free(out);
}

/* Both strided: a permuted src into a padded dst. */
EVERY_DTYPE_TEST(strided_src_into_strided_dst)
{
    size_t sb, db;
    unsigned char *in = buffer(dtype, 12, &sb), *out;
    int64_t sdims[2] = {4, 3}, sstr[2] = {1, 4};
    int64_t ddims[3] = {2, 3, 2}, dstr[3] = {10, 3, 1};
    reshape_tensor src, dst;

    out = buffer(dtype, 20, &db);
    fill_random(in, sb, 41);
    memset(out, 0xA5, db);
    src = strided(dtype, 2, sdims, sstr, in);
    dst = strided(dtype, 3, ddims, dstr, out);
    check_copy(OVR, &src, sb, &dst, db);
    free(in);
    free(out);
}

/* In-place: dst->data == src->data, both dense; the bytes stay as they
 * were (odd counts: sub-byte padding bits too). */
EVERY_DTYPE_TEST(in_place)
{
    size_t sb;
    unsigned char *buf = buffer(dtype, 15, &sb);
    unsigned char *before = malloc(sb);
    int64_t sdims[2] = {3, 5}, ddims[3] = {5, 1, 3};
    reshape_tensor src, dst;

    cr_assert(before != NULL);
    fill_random(buf, sb, 51);
    memcpy(before, buf, sb);
    src = tensor(dtype, 2, sdims, buf);
    dst = tensor(dtype, 3, ddims, buf);
    check_copy(OVR, &src, sb, &dst, sb);
    assert_bytes_eq(buf, before, sb);
    free(buf);
    free(before);
}

/* Data one byte past an aligned address: no alignment is promised. */
EVERY_DTYPE_TEST(misaligned_data)
{
    size_t sb, db;
    unsigned char *in = buffer(dtype, 13, &sb), *out;
    int64_t sdims[1] = {12}, ddims[2] = {4, 3};
    reshape_tensor src, dst;

    out = buffer(dtype, 13, &db);
    fill_random(in, sb, 61);
    src = tensor(dtype, 1, sdims, in + 1);
    dst = tensor(dtype, 2, ddims, out + 1);
    check_copy(OVR, &src, sb - 1, &dst, db - 1);
    free(in);
    free(out);
}

/* A scalar (rank 0, one element) to [1, 1] and back. */
EVERY_DTYPE_TEST(scalar)
{
    unsigned char in[8], out[8], back[8];
    int64_t ddims[2] = {1, 1};
    reshape_tensor src = tensor(dtype, 0, NULL, in);
    reshape_tensor dst = tensor(dtype, 2, ddims, out);
    reshape_tensor again = tensor(dtype, 0, NULL, back);

    fill_random(in, sizeof in, 71);
    memset(out, 0, sizeof out);
    memset(back, 0xA5, sizeof back);
    check_copy(OVR, &src, sizeof in, &dst, sizeof out);
    check_copy(OVR, &dst, sizeof out, &again, sizeof back);
}

/* An empty tensor ([4, 0, 2] to [0, 5]): succeeds and writes nothing, into
 * a dense or a strided dst. */
EVERY_DTYPE_TEST(empty)
{
    unsigned char in[4], out[4], canary[4];
    int64_t sdims[3] = {4, 0, 2}, ddims[2] = {0, 5}, dstr[2] = {5, 1};
    reshape_tensor src = tensor(dtype, 3, sdims, in);
    reshape_tensor dst = tensor(dtype, 2, ddims, out);

    fill_random(in, sizeof in, 81);
    memset(out, 0xA5, sizeof out);
    memset(canary, 0xA5, sizeof canary);
    check_copy(OVR, &src, sizeof in, &dst, sizeof out);
    assert_bytes_eq(out, canary, sizeof out);
    dst.strides = dstr;
    check_copy(OVR, &src, sizeof in, &dst, sizeof out);
    assert_bytes_eq(out, canary, sizeof out);
}

/* ------------------------------------------------ sub-byte specifics */

/* u1 from a strided src into a dense dst: the dst's padding bits (no
 * element) are left as they were, not copied from src. */
Test(layouts, u1_strided_src_leaves_dst_padding)
{
    unsigned char in[2] = {0xFF, 0xFF}, out[1] = {0x00};
    int64_t sdims[1] = {5}, sstr[1] = {2}, ddims[1] = {5};
    reshape_tensor src = strided(RESHAPE_DT_U1, 1, sdims, sstr, in);
    reshape_tensor dst = tensor(RESHAPE_DT_U1, 1, ddims, out);

    check_copy(OVR, &src, sizeof in, &dst, sizeof out);
    cr_assert_eq(out[0], 0xF8, "got 0x%02x", out[0]);
}

/* u4 into a strided dst with odd strides: every other nibble is a gap, and
 * gaps share bytes with elements. */
Test(layouts, u4_strided_dst_shares_bytes_with_gaps)
{
    unsigned char in[2] = {0x21, 0x43}, out[4];
    int64_t sdims[1] = {4}, ddims[1] = {4}, dstr[1] = {2};
    reshape_tensor src = tensor(RESHAPE_DT_U4, 1, sdims, in);
    reshape_tensor dst = strided(RESHAPE_DT_U4, 1, ddims, dstr, out);

    memset(out, 0xA5, sizeof out);
    check_copy(OVR, &src, sizeof in, &dst, sizeof out);
    /* elements 1, 2, 3, 4 in the low nibbles, canary 0xA in the high */
    cr_assert_eq(out[0], 0xA1);
    cr_assert_eq(out[1], 0xA2);
    cr_assert_eq(out[2], 0xA3);
    cr_assert_eq(out[3], 0xA4);
}

/* u1 permuted: a 3 x 5 bit matrix transposed. */
Test(layouts, u1_permuted_src)
{
    unsigned char in[2], out[2];
    int64_t sdims[2] = {5, 3}, sstr[2] = {1, 5}, ddims[1] = {15};
    reshape_tensor src = strided(RESHAPE_DT_U1, 2, sdims, sstr, in);
    reshape_tensor dst = tensor(RESHAPE_DT_U1, 1, ddims, out);

    in[0] = 0xB6;
    in[1] = 0x5D;
    memset(out, 0, sizeof out);
    check_copy(OVR, &src, sizeof in, &dst, sizeof out);
}
