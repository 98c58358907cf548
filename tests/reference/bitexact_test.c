/*
 * bitexact_test.c - reshape never changes a bit: NaN payloads, -0.0,
 * denormals and infinities of every float type; all 256 byte values of every
 * 8-bit type; odd element counts of u1, u4 and s4 with non-zero padding bits.
 * Each on the fast path, the plain path and strided layouts; every
 * comparison is of bytes (assert_bytes_eq), never of float values.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ================================================== float bit patterns */

struct float_row {
    reshape_dtype dtype;
    int32_t count;
    uint64_t bits[10]; /* element values as unsigned integers of the type */
};

static struct float_row floats[] = {
    {RESHAPE_DT_F64, 9,
     {0x8000000000000000u,   /* -0.0 */
      0x0000000000000000u,   /* +0.0 */
      0x7FF0000000000001u,   /* signalling NaN, smallest payload */
      0x7FF4000000000ABCu,   /* signalling NaN, a payload */
      0xFFFFFFFFFFFFFFFFu,   /* negative quiet NaN, every payload bit */
      0x0000000000000001u,   /* smallest denormal */
      0x800FFFFFFFFFFFFFu,   /* largest negative denormal */
      0x7FF0000000000000u,   /* +inf */
      0x3FF0000000000000u}}, /* 1.0 */
    {RESHAPE_DT_F32, 9,
     {0x80000000u, 0x00000000u, 0x7F800001u, 0x7FA00123u, 0xFFFFFFFFu,
      0x00000001u, 0x807FFFFFu, 0x7F800000u, 0x3F800000u}},
    {RESHAPE_DT_F16, 9,
     {0x8000u, 0x0000u, 0x7C01u, 0x7D23u, 0xFFFFu, 0x0001u, 0x83FFu, 0x7C00u,
      0x3C00u}},
    {RESHAPE_DT_BF16, 9,
     {0x8000u, 0x0000u, 0x7F81u, 0x7FA3u, 0xFFFFu, 0x0001u, 0x807Fu, 0x7F80u,
      0x3F80u}},
    /* e4m3: S.1111.111 is NaN; no infinities */
    {RESHAPE_DT_F8E4M3, 7, {0x80u, 0x00u, 0x7Fu, 0xFFu, 0x01u, 0x87u, 0x38u}},
    /* e5m2: exponent 11111 with a mantissa is NaN, without it inf */
    {RESHAPE_DT_F8E5M2, 9,
     {0x80u, 0x00u, 0x7Du, 0x7Eu, 0xFFu, 0x01u, 0x83u, 0x7Cu, 0x3Cu}},
};

/* Fills `buf` with the row's elements at linear offsets k * stride. */
static void put_floats(const struct float_row *r, void *buf, int64_t stride)
{
    unsigned bits = reshape_dtype_bits(r->dtype);

    for (int32_t k = 0; k < r->count; k++)
        set_element(buf, k * stride, bits, r->bits[k]);
}

/* Reshapes the row's elements from [count] to [1, count] dense, and checks
 * every byte of dst against the bytes put in. */
static void dense_floats(const struct float_row *r)
{
    size_t n = payload_bytes(r->dtype, r->count);
    unsigned char in[80], out[80], want[80];
    int64_t sdims[1] = {r->count}, ddims[2] = {1, r->count};
    reshape_tensor src = tensor(r->dtype, 1, sdims, in);
    reshape_tensor dst = tensor(r->dtype, 2, ddims, out);

    memset(in, 0, sizeof in);
    memset(out, 0x5A, sizeof out);
    put_floats(r, in, 1);
    memcpy(want, in, n);
    memset(want + n, 0x5A, sizeof want - n);
    check_copy(RESHAPE_OP_OPENVINO_RESHAPE_1, &src, sizeof in, &dst,
               sizeof out);
    assert_bytes_eq(out, want, sizeof out);
}

ParameterizedTestParameters(bitexact, floats_fast_path)
{
    return cr_make_param_array(struct float_row, floats, COUNT(floats));
}

RowTest(struct float_row *r, bitexact, floats_fast_path)
{
    reshape_ref_set_plain(0);
    dense_floats(r);
}

ParameterizedTestParameters(bitexact, floats_plain_path)
{
    return cr_make_param_array(struct float_row, floats, COUNT(floats));
}

RowTest(struct float_row *r, bitexact, floats_plain_path)
{
    reshape_ref_set_plain(1);
    dense_floats(r);
}

ParameterizedTestParameters(bitexact, floats_strided_src)
{
    return cr_make_param_array(struct float_row, floats, COUNT(floats));
}

/* src elements at every third place, garbage between; dst dense. */
RowTest(struct float_row *r, bitexact, floats_strided_src)
{
    unsigned char in[240], out[80], want[80];
    int64_t sdims[1] = {r->count}, sstrides[1] = {3}, ddims[1] = {r->count};
    reshape_tensor src = strided(r->dtype, 1, sdims, sstrides, in);
    reshape_tensor dst = tensor(r->dtype, 1, ddims, out);

    fill_random(in, sizeof in, 7);
    memset(out, 0x5A, sizeof out);
    memset(want, 0x5A, sizeof want);
    put_floats(r, in, 3);
    put_floats(r, want, 1);
    check_copy(RESHAPE_OP_OPENVINO_RESHAPE_1, &src, sizeof in, &dst,
               sizeof out);
    assert_bytes_eq(out, want, sizeof out);
}

ParameterizedTestParameters(bitexact, floats_strided_dst)
{
    return cr_make_param_array(struct float_row, floats, COUNT(floats));
}

/* src dense; dst elements at every second place, the canary between. */
RowTest(struct float_row *r, bitexact, floats_strided_dst)
{
    unsigned char in[80], out[160], want[160];
    int64_t sdims[1] = {r->count}, ddims[1] = {r->count}, dstrides[1] = {2};
    reshape_tensor src = tensor(r->dtype, 1, sdims, in);
    reshape_tensor dst = strided(r->dtype, 1, ddims, dstrides, out);

    memset(in, 0, sizeof in);
    memset(out, 0xA5, sizeof out);
    memset(want, 0xA5, sizeof want);
    put_floats(r, in, 1);
    put_floats(r, want, 2);
    check_copy(RESHAPE_OP_OPENVINO_RESHAPE_1, &src, sizeof in, &dst,
               sizeof out);
    assert_bytes_eq(out, want, sizeof out);
}

/* The oneDNN operations move f32, f16 and bf16 bit patterns unchanged too. */
ParameterizedTestParameters(bitexact, floats_through_onednn)
{
    return cr_make_param_array(struct float_row, floats + 1, 3);
}

RowTest(struct float_row *r, bitexact, floats_through_onednn)
{
    unsigned char in[40], out[40];
    int64_t sdims[1] = {r->count}, ddims[2] = {r->count, 1};
    reshape_tensor src = tensor(r->dtype, 1, sdims, in);
    reshape_tensor dst = tensor(r->dtype, 2, ddims, out);

    memset(in, 0, sizeof in);
    put_floats(r, in, 1);
    memset(out, 0x5A, sizeof out);
    check_copy(RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, &src, sizeof in, &dst,
               sizeof out);
    memset(out, 0x5A, sizeof out);
    check_copy(RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1, &src, sizeof in, &dst,
               sizeof out);
}

/* ================================================ all 256 byte values */

struct byte_row {
    reshape_op op;
    reshape_dtype dtype;
};

#define BYTE_ROWS(dt)                                                          \
    {RESHAPE_OP_OPENVINO_RESHAPE_1, RESHAPE_DT_##dt},                          \
        {RESHAPE_OP_ONNX_RESHAPE_14, RESHAPE_DT_##dt}
static struct byte_row bytes8[] = {
    BYTE_ROWS(S8), BYTE_ROWS(U8), BYTE_ROWS(BOOLEAN), BYTE_ROWS(F8E4M3),
    BYTE_ROWS(F8E5M2),
};

ParameterizedTestParameters(bitexact, all_256_bytes_dense)
{
    return cr_make_param_array(struct byte_row, bytes8, COUNT(bytes8));
}

RowTest(struct byte_row *r, bitexact, all_256_bytes_dense)
{
    unsigned char in[256], out[256];
    int64_t sdims[1] = {256}, ddims[2] = {16, 16};
    reshape_tensor src = tensor(r->dtype, 1, sdims, in);
    reshape_tensor dst = tensor(r->dtype, 2, ddims, out);

    for (int i = 0; i < 256; i++)
        in[i] = (unsigned char)i;
    for (int plain = 0; plain <= 1; plain++) {
        memset(out, 0, sizeof out);
        reshape_ref_set_plain(plain);
        check_copy(r->op, &src, sizeof in, &dst, sizeof out);
        assert_bytes_eq(out, in, sizeof in);
    }
}

ParameterizedTestParameters(bitexact, all_256_bytes_transposed_dst)
{
    return cr_make_param_array(struct byte_row, bytes8, COUNT(bytes8));
}

/* dst [16, 16] with strides [1, 16]: logical (i, j) lands at j * 16 + i. */
RowTest(struct byte_row *r, bitexact, all_256_bytes_transposed_dst)
{
    unsigned char in[256], out[256];
    int64_t sdims[1] = {256}, ddims[2] = {16, 16}, dstrides[2] = {1, 16};
    reshape_tensor src = tensor(r->dtype, 1, sdims, in);
    reshape_tensor dst = strided(r->dtype, 2, ddims, dstrides, out);

    for (int i = 0; i < 256; i++)
        in[i] = (unsigned char)i;
    memset(out, 0, sizeof out);
    check_copy(r->op, &src, sizeof in, &dst, sizeof out);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            cr_assert_eq(out[j * 16 + i], i * 16 + j);
}

/* ========================================= sub-byte odd element counts */

struct subbyte_row {
    reshape_dtype dtype;
    int64_t count;
};

static struct subbyte_row subbyte[] = {
    {RESHAPE_DT_U1, 1}, {RESHAPE_DT_U1, 3},  {RESHAPE_DT_U1, 7},
    {RESHAPE_DT_U1, 9}, {RESHAPE_DT_U1, 13}, {RESHAPE_DT_U1, 63},
    {RESHAPE_DT_U4, 1}, {RESHAPE_DT_U4, 3},  {RESHAPE_DT_U4, 9},
    {RESHAPE_DT_S4, 1}, {RESHAPE_DT_S4, 5},  {RESHAPE_DT_S4, 15},
};

/* The padding bits of the last byte of a dense tensor of `n` elements. */
static unsigned char padding_mask(reshape_dtype dtype, int64_t n)
{
    unsigned bits = reshape_dtype_bits(dtype);
    unsigned used = (unsigned)((n * bits) % 8);

    if (used == 0)
        return 0;
    /* u1 fills a byte from bit 7 down; u4/s4 from the low nibble up */
    return (unsigned char)(bits == 1 ? 0xFFu >> used : 0xFFu << used);
}

ParameterizedTestParameters(bitexact, subbyte_padding_survives)
{
    return cr_make_param_array(struct subbyte_row, subbyte, COUNT(subbyte));
}

/* Random elements with every padding bit set; dst starts all zero (then
 * all ones) and must come out equal to src, padding included. */
RowTest(struct subbyte_row *r, bitexact, subbyte_padding_survives)
{
    size_t n = payload_bytes(r->dtype, r->count);
    unsigned char in[16], out[16];
    int64_t sdims[1] = {r->count}, ddims[2] = {r->count, 1};
    reshape_tensor src = tensor(r->dtype, 1, sdims, in);
    reshape_tensor dst = tensor(r->dtype, 2, ddims, out);
    unsigned char pad = padding_mask(r->dtype, r->count);

    cr_assert(pad != 0, "the row must have padding bits");
    for (int plain = 0; plain <= 1; plain++) {
        reshape_ref_set_plain(plain);
        fill_random(in, sizeof in, (uint64_t)r->count);
        in[n - 1] |= pad;
        memset(out, 0x00, sizeof out);
        check_copy(RESHAPE_OP_OPENVINO_RESHAPE_1, &src, n, &dst, sizeof out);
        assert_bytes_eq(out, in, n);
        cr_assert_eq(out[n - 1] & pad, pad, "padding bits were not copied");

        memset(out, 0xFF, sizeof out);
        in[n - 1] &= (unsigned char)~pad; /* and zero padding over ones */
        check_copy(RESHAPE_OP_OPENVINO_RESHAPE_1, &src, n, &dst, sizeof out);
        assert_bytes_eq(out, in, n);
    }
}

ParameterizedTestParameters(bitexact, subbyte_elements_by_abi_packing)
{
    return cr_make_param_array(struct subbyte_row, subbyte, COUNT(subbyte));
}

/* Element k read back by the ABI's packing rule equals element k put in
 * (the packing is not only copied but read the ABI's way). */
RowTest(struct subbyte_row *r, bitexact,
        subbyte_elements_by_abi_packing)
{
    unsigned bits = reshape_dtype_bits(r->dtype);
    unsigned char in[16], out[16];
    int64_t sdims[1] = {r->count}, ddims[1] = {r->count}, dstrides[1] = {1};
    reshape_tensor src = tensor(r->dtype, 1, sdims, in);
    /* strided dst with stride 1: the element loop, whatever the switch */
    reshape_tensor dst = strided(r->dtype, 1, ddims, dstrides, out);
    uint64_t mask = (UINT64_C(1) << bits) - 1;

    memset(in, 0, sizeof in);
    memset(out, 0, sizeof out);
    for (int64_t k = 0; k < r->count; k++)
        set_element(in, k, bits, (uint64_t)(k * 5 + 3) & mask);
    check_copy(RESHAPE_OP_OPENVINO_RESHAPE_1, &src, sizeof in, &dst,
               sizeof out);
    for (int64_t k = 0; k < r->count; k++)
        cr_assert_eq(get_element(out, k, bits), (uint64_t)(k * 5 + 3) & mask,
                     "element %lld", (long long)k);
}

Test(bitexact, u1_element_0_is_the_most_significant_bit)
{
    unsigned char in[1] = {0x80}, out[1] = {0};
    int64_t dims[1] = {3}, strides[1] = {1};
    reshape_tensor src = tensor(RESHAPE_DT_U1, 1, dims, in);
    reshape_tensor dst = strided(RESHAPE_DT_U1, 1, dims, strides, out);

    /* strided dst: elements only, padding of dst untouched */
    check_copy(RESHAPE_OP_OPENVINO_RESHAPE_1, &src, 1, &dst, 1);
    cr_assert_eq(out[0], 0x80);
}

Test(bitexact, u4_element_0_is_the_low_nibble)
{
    unsigned char in[2] = {0x21, 0x03}, out[2] = {0, 0};
    int64_t sdims[1] = {3}, ddims[1] = {3}, strides[1] = {1};
    reshape_tensor src = tensor(RESHAPE_DT_U4, 1, sdims, in);
    reshape_tensor dst = strided(RESHAPE_DT_U4, 1, ddims, strides, out);

    check_copy(RESHAPE_OP_OPENVINO_RESHAPE_1, &src, 2, &dst, 2);
    cr_assert_eq(out[0], 0x21);
    cr_assert_eq(out[1], 0x03);
}
