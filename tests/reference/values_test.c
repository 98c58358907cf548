/*
 * values_test.c - the reference's arithmetic and value reading on their
 * own (reference.h): target-shape values in every shape dtype, host byte
 * order, any alignment; checked volumes and strided offsets at the int64
 * limits.  Through the ABI, every OpenVINO shape dtype is read.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"
#include <stdio.h>
#include <string.h>

#include "reference.h"
#include "support.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------ reshape_ref_shape_value */

Test(values, s64_read_unaligned)
{
    unsigned char buf[17];
    int64_t v = -1, got = 0;

    memset(buf, 0, sizeof buf);
    memcpy(buf + 1 + 8, &v, sizeof v);
    cr_assert_eq(reshape_ref_shape_value(RESHAPE_DT_S64, buf + 1, 1, &got),
                 RESHAPE_OK);
    cr_assert_eq(got, -1);
}

Test(values, s32_s16_s8_sign_extend)
{
    int32_t a = -7;
    int16_t b = -300;
    int8_t c = -128;
    int64_t got;

    reshape_ref_shape_value(RESHAPE_DT_S32, &a, 0, &got);
    cr_assert_eq(got, -7);
    reshape_ref_shape_value(RESHAPE_DT_S16, &b, 0, &got);
    cr_assert_eq(got, -300);
    reshape_ref_shape_value(RESHAPE_DT_S8, &c, 0, &got);
    cr_assert_eq(got, -128);
}

Test(values, unsigned_types_never_negative)
{
    uint8_t a = 0xFF;
    uint16_t b = 0xFFFF;
    uint32_t c = 0xFFFFFFFFu;
    uint64_t d = (uint64_t)INT64_MAX;
    int64_t got;

    reshape_ref_shape_value(RESHAPE_DT_U8, &a, 0, &got);
    cr_assert_eq(got, 255);
    reshape_ref_shape_value(RESHAPE_DT_U16, &b, 0, &got);
    cr_assert_eq(got, 65535);
    reshape_ref_shape_value(RESHAPE_DT_U32, &c, 0, &got);
    cr_assert_eq(got, INT64_C(4294967295));
    cr_assert_eq(reshape_ref_shape_value(RESHAPE_DT_U64, &d, 0, &got),
                 RESHAPE_OK);
    cr_assert_eq(got, INT64_MAX);
}

Test(values, u64_above_int64_max_is_overflow)
{
    uint64_t v[2] = {(uint64_t)INT64_MAX + 1, UINT64_MAX};
    int64_t got;

    cr_assert_eq(reshape_ref_shape_value(RESHAPE_DT_U64, v, 0, &got),
                 RESHAPE_E_OVERFLOW);
    cr_assert_eq(reshape_ref_shape_value(RESHAPE_DT_U64, v, 1, &got),
                 RESHAPE_E_OVERFLOW);
}

Test(values, non_index_types_are_internal_errors)
{
    float f = 1.0f;
    int64_t got;

    cr_assert_eq(reshape_ref_shape_value(RESHAPE_DT_F32, &f, 0, &got),
                 RESHAPE_E_INTERNAL);
    cr_assert_eq(reshape_ref_shape_value(RESHAPE_DT_U4, &f, 0, &got),
                 RESHAPE_E_INTERNAL);
}

/* Every OpenVINO shape dtype through infer_shape: [2, 3, 4] by [4, X, 2]
 * where X is -1 (signed) or 3 (unsigned). */
ParameterizedTestParameters(values, every_openvino_shape_dtype)
{
    static reshape_dtype shape_dtypes[] = {
        RESHAPE_DT_S64, RESHAPE_DT_S32, RESHAPE_DT_S16, RESHAPE_DT_S8,
        RESHAPE_DT_U64, RESHAPE_DT_U32, RESHAPE_DT_U16, RESHAPE_DT_U8};

    return cr_make_param_array(reshape_dtype, shape_dtypes,
                               COUNT(shape_dtypes));
}

RowTest(reshape_dtype *sdt, values, every_openvino_shape_dtype)
{
    int is_signed = *sdt == RESHAPE_DT_S64 || *sdt == RESHAPE_DT_S32 ||
                    *sdt == RESHAPE_DT_S16 || *sdt == RESHAPE_DT_S8;
    struct infer_row row = {
        "", OV, 0, RESHAPE_DT_F32, 3, {2, 3, 4}, *sdt, 3,
        {4, is_signed ? -1 : 3, 2}, GIVES(3, 4, 3, 2)};

    snprintf(row.what, sizeof row.what, "shape type %s",
             reshape_dtype_name(*sdt));
    check_infer_row(&row);
    check_execute_row(&row);
}

/* ---------------------------------------------------- reshape_ref_volume */

Test(volume, rank_0_is_1)
{
    int64_t v = -1;

    cr_assert_eq(reshape_ref_volume(0, NULL, &v), RESHAPE_OK);
    cr_assert_eq(v, 1);
}

Test(volume, zero_first_whatever_follows)
{
    int64_t dims[3] = {INT64_MAX, INT64_MAX, 0}, v = -1;

    cr_assert_eq(reshape_ref_volume(3, dims, &v), RESHAPE_OK);
    cr_assert_eq(v, 0);
}

Test(volume, exactly_int64_max)
{
    int64_t dims[7] = {7, 7, 73, 127, 337, 92737, 649657}, v = 0;

    cr_assert_eq(reshape_ref_volume(7, dims, &v), RESHAPE_OK);
    cr_assert_eq(v, INT64_MAX);
}

Test(volume, one_past_int64_max)
{
    /* 2^62 * 2 = 2^63 = INT64_MAX + 1 */
    int64_t dims[2] = {INT64_C(1) << 62, 2}, v;

    cr_assert_eq(reshape_ref_volume(2, dims, &v), RESHAPE_E_OVERFLOW);
}

Test(volume, int64_max_times_1_fits)
{
    int64_t dims[3] = {1, INT64_MAX, 1}, v = 0;

    cr_assert_eq(reshape_ref_volume(3, dims, &v), RESHAPE_OK);
    cr_assert_eq(v, INT64_MAX);
}

/* ------------------------------------------------ reshape_ref_max_offset */

Test(max_offset, dense_is_volume_minus_1)
{
    int64_t dims[3] = {2, 3, 4}, o = -1;

    cr_assert_eq(reshape_ref_max_offset(3, dims, NULL, &o), RESHAPE_OK);
    cr_assert_eq(o, 23);
}

Test(max_offset, strided_sums_the_last_index_of_each_dim)
{
    int64_t dims[2] = {3, 4}, strides[2] = {10, 2}, o = -1;

    cr_assert_eq(reshape_ref_max_offset(2, dims, strides, &o), RESHAPE_OK);
    cr_assert_eq(o, 2 * 10 + 3 * 2);
}

Test(max_offset, stride_0_adds_nothing)
{
    int64_t dims[2] = {INT64_MAX, 3}, strides[2] = {0, 1}, o = -1;

    cr_assert_eq(reshape_ref_max_offset(2, dims, strides, &o), RESHAPE_OK);
    cr_assert_eq(o, 2);
}

Test(max_offset, product_overflow)
{
    int64_t dims[1] = {3}, strides[1] = {INT64_MAX / 2 + 1}, o;

    cr_assert_eq(reshape_ref_max_offset(1, dims, strides, &o),
                 RESHAPE_E_OVERFLOW);
}

Test(max_offset, sum_overflow)
{
    int64_t dims[2] = {2, 2}, strides[2] = {INT64_MAX, 1}, o;

    cr_assert_eq(reshape_ref_max_offset(2, dims, strides, &o),
                 RESHAPE_E_OVERFLOW);
}

Test(max_offset, sum_exactly_int64_max)
{
    int64_t dims[2] = {2, 2}, strides[2] = {INT64_MAX - 1, 1}, o = 0;

    cr_assert_eq(reshape_ref_max_offset(2, dims, strides, &o), RESHAPE_OK);
    cr_assert_eq(o, INT64_MAX);
}
