/*
 * invalid_argument_test.c - caller misuse (DECISIONS.md rule 1, and the
 * destination checks of execute): each must give RESHAPE_E_INVALID_ARGUMENT,
 * never a crash, and leave dst untouched.  Each test starts from one valid
 * call, f32 [2, 3] into [6], and breaks one thing.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "support.h"

#define F32 RESHAPE_DT_F32
#define S64 RESHAPE_DT_S64

/* A valid call that a test then breaks in one place. */
struct call {
    int64_t src_dims[RESHAPE_MAX_RANK + 1];
    int64_t dst_dims[RESHAPE_MAX_RANK + 1];
    int64_t src_strides[2], dst_strides[1];
    float in[6];
    unsigned char out[64];
    struct shape_buf shape;
    reshape_tensor src, dst;
    reshape_params p;
    int32_t out_rank;
    int64_t out_dims[RESHAPE_MAX_RANK];
};

static struct call c;

static void call_init(void)
{
    memset(&c, 0, sizeof c);
    c.src_dims[0] = 2;
    c.src_dims[1] = 3;
    c.dst_dims[0] = 6;
    c.src_strides[0] = 3;
    c.src_strides[1] = 1;
    c.dst_strides[0] = 1;
    for (int i = 0; i < 6; i++)
        c.in[i] = (float)i + 0.5f;
    memset(c.out, 0xA5, sizeof c.out);
    shape_init(&c.shape, S64, DIMS(6));
    c.src = tensor(F32, 2, c.src_dims, c.in);
    c.dst = tensor(F32, 1, c.dst_dims, c.out);
    c.p = params(OV, 0, &c.shape.t);
}

TestSuite(invalid_argument, .init = call_init);

static reshape_status infer(void)
{
    return ref()->infer_shape(&c.p, &c.src, &c.out_rank, c.out_dims);
}

static reshape_status execute(void)
{
    return ref()->execute(&c.p, &c.src, &c.dst);
}

/* Asserts that `st` is INVALID_ARGUMENT and dst still holds the canary. */
static void assert_refused(reshape_status st)
{
    unsigned char canary[sizeof c.out];

    cr_assert_eq(st, RESHAPE_E_INVALID_ARGUMENT, "got %s",
                 reshape_status_name(st));
    memset(canary, 0xA5, sizeof canary);
    assert_bytes_eq(c.out, canary, sizeof c.out);
}

Test(invalid_argument, the_unbroken_call_succeeds)
{
    cr_assert_eq(infer(), RESHAPE_OK);
    cr_assert_eq(execute(), RESHAPE_OK);
    assert_bytes_eq(c.out, c.in, sizeof c.in);
}

/* --------------------------------------------------------- NULLs */

Test(invalid_argument, null_params)
{
    assert_refused(ref()->infer_shape(NULL, &c.src, &c.out_rank, c.out_dims));
    assert_refused(ref()->execute(NULL, &c.src, &c.dst));
}

Test(invalid_argument, null_src)
{
    assert_refused(ref()->infer_shape(&c.p, NULL, &c.out_rank, c.out_dims));
    assert_refused(ref()->execute(&c.p, NULL, &c.dst));
}

Test(invalid_argument, null_dst)
{
    assert_refused(ref()->execute(&c.p, &c.src, NULL));
}

Test(invalid_argument, null_shape)
{
    c.p.shape = NULL;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, null_out_rank_and_out_dims)
{
    assert_refused(ref()->infer_shape(&c.p, &c.src, NULL, c.out_dims));
    assert_refused(ref()->infer_shape(&c.p, &c.src, &c.out_rank, NULL));
}

Test(invalid_argument, null_src_dims_with_rank_2)
{
    c.src.dims = NULL;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, null_dst_dims_with_rank_1)
{
    c.dst.dims = NULL;
    assert_refused(execute());
}

Test(invalid_argument, null_shape_data_with_values)
{
    c.shape.t.data = NULL;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, null_src_data_with_volume_6)
{
    c.src.data = NULL;
    assert_refused(execute());
}

Test(invalid_argument, null_dst_data_with_volume_6)
{
    c.dst.data = NULL;
    cr_assert_eq(execute(), RESHAPE_E_INVALID_ARGUMENT);
}

Test(invalid_argument, null_data_with_volume_0_is_fine)
{
    c.src_dims[1] = 0;
    c.dst_dims[0] = 0;
    c.shape.bytes[0] = 0; /* shape [0]: a literal zero dim */
    c.src.data = NULL;
    c.dst.data = NULL;
    cr_assert_eq(execute(), RESHAPE_OK);
}

/* ------------------------------------------------ attribute values */

Test(invalid_argument, special_zero_minus_1)
{
    c.p.special_zero = -1;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, special_zero_2)
{
    c.p.special_zero = 2;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, op_outside_the_enum)
{
    int32_t bad[] = {0, RESHAPE_OP_COUNT + 1, 99};

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(&c.p.op, &bad[i], sizeof c.p.op);
        assert_refused(infer());
        assert_refused(execute());
    }
}

Test(invalid_argument, src_dtype_outside_the_enum)
{
    int32_t bad[] = {0, RESHAPE_DT_COUNT + 1, 1000};

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(&c.src.dtype, &bad[i], sizeof c.src.dtype);
        assert_refused(infer());
        assert_refused(execute());
    }
}

Test(invalid_argument, shape_dtype_outside_the_enum)
{
    int32_t bad = 0;

    memcpy(&c.shape.t.dtype, &bad, sizeof bad);
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, dst_dtype_outside_the_enum)
{
    int32_t bad = RESHAPE_DT_COUNT + 1;

    memcpy(&c.dst.dtype, &bad, sizeof bad);
    assert_refused(execute());
}

/* ----------------------------------------------------------- ranks */

Test(invalid_argument, src_rank_33)
{
    for (int i = 0; i < 33; i++)
        c.src_dims[i] = 1;
    c.src_dims[0] = 6;
    c.src.rank = 33;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, src_rank_32_is_fine)
{
    for (int i = 0; i < 32; i++)
        c.src_dims[i] = 1;
    c.src_dims[0] = 6;
    c.src.rank = 32;
    cr_assert_eq(infer(), RESHAPE_OK);
    cr_assert_eq(execute(), RESHAPE_OK);
    assert_bytes_eq(c.out, c.in, sizeof c.in);
}

Test(invalid_argument, src_rank_minus_1)
{
    c.src.rank = -1;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, dst_rank_33)
{
    for (int i = 0; i < 33; i++)
        c.dst_dims[i] = 1;
    c.dst_dims[0] = 6;
    c.dst.rank = 33;
    assert_refused(execute());
}

Test(invalid_argument, shape_tensor_rank_33)
{
    int64_t dims[33];

    for (int i = 0; i < 33; i++)
        dims[i] = 1;
    c.shape.t.rank = 33;
    c.shape.t.dims = dims;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, shape_with_33_values)
{
    int64_t ones[33];

    for (int i = 0; i < 33; i++)
        ones[i] = 1;
    ones[0] = 6;
    shape_init(&c.shape, S64, 33, ones);
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, shape_with_32_values_is_fine)
{
    int64_t ones[32];

    for (int i = 0; i < 32; i++)
        ones[i] = 1;
    ones[31] = 6;
    shape_init(&c.shape, S64, 32, ones);
    cr_assert_eq(infer(), RESHAPE_OK);
    cr_assert_eq(c.out_rank, 32);
}

Test(invalid_argument, shape_tensor_of_huge_dims)
{
    /* 2^62 * 2^62 values: counted without overflow, and refused */
    int64_t dims[2] = {INT64_C(1) << 62, INT64_C(1) << 62};

    c.shape.t.rank = 2;
    c.shape.t.dims = dims;
    assert_refused(infer());
}

/* ------------------------------------------- negative dims, strides */

Test(invalid_argument, negative_src_dim)
{
    c.src_dims[0] = -2;
    c.src_dims[1] = -3; /* the product would be 6 */
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, negative_dst_dim)
{
    c.dst_dims[0] = -6;
    assert_refused(execute());
}

Test(invalid_argument, negative_shape_tensor_dim)
{
    c.shape.dims[0] = -1;
    assert_refused(infer());
}

Test(invalid_argument, shape_tensor_with_strides)
{
    int64_t one = 1;

    c.shape.t.strides = &one;
    assert_refused(infer());
    assert_refused(execute());
}

Test(invalid_argument, negative_src_stride)
{
    c.src_strides[0] = -3;
    c.src.strides = c.src_strides;
    assert_refused(execute());
}

Test(invalid_argument, negative_dst_stride)
{
    c.dst_strides[0] = -1;
    c.dst.strides = c.dst_strides;
    assert_refused(execute());
}

Test(invalid_argument, dst_strides_beyond_int64_bits)
{
    /* element 5 at offset 5 * 2^60: 5 * 2^65 bits */
    c.dst_strides[0] = INT64_C(1) << 60;
    c.dst.strides = c.dst_strides;
    assert_refused(execute());
}

Test(invalid_argument, src_strides_whose_offsets_overflow)
{
    c.src_strides[0] = INT64_MAX;
    c.src.strides = c.src_strides;
    assert_refused(execute());
}

/* ------------------------------------------- dst against inference */

Test(invalid_argument, dst_one_element_short)
{
    c.dst_dims[0] = 5;
    assert_refused(execute());
}

Test(invalid_argument, dst_one_element_long)
{
    c.dst_dims[0] = 7;
    assert_refused(execute());
}

Test(invalid_argument, dst_same_volume_other_dims)
{
    c.dst_dims[0] = 3;
    c.dst_dims[1] = 2;
    c.dst.rank = 2;
    assert_refused(execute());
}

Test(invalid_argument, dst_dtype_f16_for_f32)
{
    c.dst.dtype = RESHAPE_DT_F16;
    assert_refused(execute());
}

Test(invalid_argument, dst_dtype_s32_for_f32_same_width)
{
    c.dst.dtype = RESHAPE_DT_S32;
    assert_refused(execute());
}

/* ----------------------------------------------------------- in-place */

Test(invalid_argument, in_place_with_src_strides)
{
    float before[6];

    memcpy(before, c.in, sizeof before);
    c.src.strides = c.src_strides;
    c.dst.data = c.in;
    cr_assert_eq(execute(), RESHAPE_E_INVALID_ARGUMENT);
    assert_bytes_eq(c.in, before, sizeof before);
}

Test(invalid_argument, in_place_with_dst_strides)
{
    float before[6];

    memcpy(before, c.in, sizeof before);
    c.dst.strides = c.dst_strides;
    c.dst.data = c.in;
    cr_assert_eq(execute(), RESHAPE_E_INVALID_ARGUMENT);
    assert_bytes_eq(c.in, before, sizeof before);
}
