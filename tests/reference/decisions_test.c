/*
 * decisions_test.c - each entry D1..D10 of reference/DECISIONS.md: the
 * reading the reference follows where the texts disagree or are silent.
 * One suite per entry; rows run through infer_shape and execute.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"
#include <stdio.h>
#include <string.h>

#include "support.h"

#define F32 RESHAPE_DT_F32
#define S64 RESHAPE_DT_S64
#define S32 RESHAPE_DT_S32
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Declares a table test `rows` of suite `suite` over the table `rows` that
 * checks each row through infer_shape and through execute. */
#define ROWS_TEST(suite, rows)                                                 \
    ParameterizedTestParameters(suite, rows)                                   \
    {                                                                          \
        return cr_make_param_array(struct infer_row, rows, COUNT(rows));       \
    }                                                                          \
    RowTest(struct infer_row *row, suite, rows)                                \
    {                                                                          \
        check_infer_row(row);                                                  \
        check_execute_row(row);                                                \
    }

/* D1: a -1 next to dims whose product is 0 cannot be inferred, for every
 * operation, on empty and non-empty inputs. */
static struct infer_row d1[] = {
    {"OV, literal 0, non-empty input", OV, 0, F32, 2, {2, 3}, S64, 2, {0, -1},
     FAILS(ZERO_AND_MINUS_ONE)},
    {"OV, literal 0, empty input", OV, 0, F32, 2, {2, 0}, S64, 2, {0, -1},
     FAILS(ZERO_AND_MINUS_ONE)},
    {"OV, copied 0 from an empty input dim", OV, 1, F32, 2, {0, 3}, S64, 2,
     {0, -1}, FAILS(ZERO_AND_MINUS_ONE)},
    {"static, literal 0", STATIC, 0, F32, 2, {2, 3}, S64, 3, {-1, 3, 0},
     FAILS(ZERO_AND_MINUS_ONE)},
    {"dynamic, literal 0, empty input", DYNAMIC, 0, F32, 1, {0}, S32, 2,
     {-1, 0}, FAILS(ZERO_AND_MINUS_ONE)},
    {"ONNX allowzero=1, literal 0", ONNX, 0, F32, 2, {2, 3}, S64, 2, {0, -1},
     FAILS(ZERO_AND_MINUS_ONE)},
    {"ONNX allowzero=0, copied 0 from an empty dim", ONNX, 1, F32, 2, {0, 5},
     S64, 2, {0, -1}, FAILS(ZERO_AND_MINUS_ONE)},
    {"a -1 beside non-zero dims on an empty input is 0", OV, 0, F32, 2,
     {0, 3}, S64, 2, {5, -1}, GIVES(2, 5, 0)},
};
ROWS_TEST(d1_zero_next_to_minus_one, d1)

/* D2: a copying 0 at index i needs i < rank(data); i == rank is an error. */
static struct infer_row d2[] = {
    {"OV, 0 at index == rank", OV, 1, F32, 2, {2, 3}, S64, 3, {0, 0, 0},
     FAILS(ZERO_OUT_OF_RANGE)},
    {"OV, 0 at index == rank + 1", OV, 1, F32, 2, {2, 3}, S64, 4,
     {0, 0, 1, 0}, FAILS(ZERO_OUT_OF_RANGE)},
    {"OV, 0 at index rank - 1 copies", OV, 1, F32, 2, {2, 3}, S64, 3,
     {1, 0, 2}, GIVES(3, 1, 3, 2)},
    {"static, 0 at index == rank", STATIC, 1, F32, 1, {6}, S64, 2, {6, 0},
     FAILS(ZERO_OUT_OF_RANGE)},
    {"dynamic, 0 at index == rank", DYNAMIC, 1, F32, 1, {6}, S32, 2, {1, 0},
     FAILS(ZERO_OUT_OF_RANGE)},
    {"ONNX, 0 at index == rank", ONNX, 1, F32, 0, {0}, S64, 1, {0},
     FAILS(ZERO_OUT_OF_RANGE)},
    {"special_zero false: a 0 past the rank is a literal zero dim", OV, 0,
     F32, 2, {2, 0}, S64, 3, {2, 0, 5}, GIVES(3, 2, 0, 5)},
};
ROWS_TEST(d2_copying_zero_at_rank, d2)

/* D3: an empty 1-D shape tensor means a rank-0 output of volume 1.  (Rank 0
 * and rank 2 shape tensors: errors_test.c, and below for DynamicReshape.) */
static struct infer_row d3[] = {
    {"empty shape, scalar data", OV, 0, F32, 0, {0}, S64, 0, {0},
     GIVES(0, 0)},
    {"empty shape, data [1, 1]", ONNX, 0, F32, 2, {1, 1}, S64, 0, {0},
     GIVES(0, 0)},
    {"empty shape, data [2]", STATIC, 0, F32, 1, {2}, S64, 0, {0},
     FAILS(VOLUME_MISMATCH)},
    {"empty shape, empty data", DYNAMIC, 0, F32, 1, {0}, S32, 0, {0},
     FAILS(VOLUME_MISMATCH)},
};
ROWS_TEST(d3_shape_rank, d3)

Test(d3_shape_rank, dynamic_rank_0_shape_tensor_is_not_1d)
{
    struct shape_buf shape;
    int64_t dims[1] = {6}, out[RESHAPE_MAX_RANK];
    int32_t rank;
    reshape_tensor src = tensor(F32, 1, dims, NULL);
    reshape_params p;

    shape_init(&shape, S32, DIMS(6));
    shape.t.rank = 0;
    shape.t.dims = NULL;
    p = params(DYNAMIC, 0, &shape.t);
    cr_assert_eq(ref()->infer_shape(&p, &src, &rank, out),
                 RESHAPE_E_SHAPE_NOT_1D);
}

/* D4: unsigned values are never negative; above INT64_MAX is OVERFLOW. */
static struct infer_row d4[] = {
    {"u8 255 is 255", OV, 0, F32, 2, {5, 51}, RESHAPE_DT_U8, 1, {255},
     GIVES(1, 255)},
    {"u16 65535 is 65535", OV, 0, RESHAPE_DT_U8, 2, {5, 13107},
     RESHAPE_DT_U16, 1, {65535}, GIVES(1, 65535)},
    {"u32 0xFFFFFFFF is 4294967295", OV, 0, RESHAPE_DT_U8, 1,
     {INT64_C(4294967295)}, RESHAPE_DT_U32, 1, {INT64_C(4294967295)},
     GIVES(1, INT64_C(4294967295))},
    {"u64 INT64_MAX is read", OV, 0, F32, 1, {INT64_MAX}, RESHAPE_DT_U64, 1,
     {INT64_MAX}, GIVES(1, INT64_MAX)},
    {"u64 2^63 is OVERFLOW", OV, 0, F32, 1, {6}, RESHAPE_DT_U64, 1,
     {INT64_MIN}, FAILS(OVERFLOW)},
    {"u64 2^64-1 is OVERFLOW, not -1", OV, 0, F32, 1, {6}, RESHAPE_DT_U64, 1,
     {-1}, FAILS(OVERFLOW)},
    {"u64 2^64-1 after a valid value", OV, 0, F32, 1, {6}, RESHAPE_DT_U64, 2,
     {6, -1}, FAILS(OVERFLOW)},
    {"u8 255 is not -1", OV, 0, F32, 1, {6}, RESHAPE_DT_U8, 2, {3, 255},
     FAILS(VOLUME_MISMATCH)},
    {"s8 -1 is -1", OV, 0, F32, 1, {6}, RESHAPE_DT_S8, 2, {3, -1},
     GIVES(2, 3, 2)},
    {"s16 -1 is -1", OV, 0, F32, 1, {6}, RESHAPE_DT_S16, 2, {-1, 2},
     GIVES(2, 3, 2)},
    {"s8 -128 is below -1", OV, 0, F32, 1, {6}, RESHAPE_DT_S8, 1, {-128},
     FAILS(BELOW_MINUS_ONE)},
};
ROWS_TEST(d4_unsigned_values, d4)

/* D5: which data types each operation allows.  OpenVINO and ONNX: all 18
 * (boolean included); the oneDNN pair: onednn_test.c. */
struct dtype_op {
    reshape_op op;
    reshape_dtype dtype;
};

#define OV_AND_ONNX(dt) {OV, RESHAPE_DT_##dt}, {ONNX, RESHAPE_DT_##dt}
static struct dtype_op d5[] = {
    OV_AND_ONNX(F64),    OV_AND_ONNX(F32),    OV_AND_ONNX(F16),
    OV_AND_ONNX(BF16),   OV_AND_ONNX(F8E4M3), OV_AND_ONNX(F8E5M2),
    OV_AND_ONNX(S64),    OV_AND_ONNX(S32),    OV_AND_ONNX(S16),
    OV_AND_ONNX(S8),     OV_AND_ONNX(U64),    OV_AND_ONNX(U32),
    OV_AND_ONNX(U16),    OV_AND_ONNX(U8),     OV_AND_ONNX(S4),
    OV_AND_ONNX(U4),     OV_AND_ONNX(U1),     OV_AND_ONNX(BOOLEAN),
};

ParameterizedTestParameters(d5_data_types, every_dtype_is_allowed)
{
    return cr_make_param_array(struct dtype_op, d5, COUNT(d5));
}

RowTest(struct dtype_op *d, d5_data_types, every_dtype_is_allowed)
{
    struct infer_row row = {"", d->op, 1, d->dtype, 3, {3, 1, 7}, S64, 2,
                            {0, -1}, GIVES(2, 3, 7)};

    snprintf(row.what, sizeof row.what, "%s on %s", reshape_op_name(d->op),
             reshape_dtype_name(d->dtype));
    check_infer_row(&row);
    check_execute_row(&row);
}

/* D6: the older text's first example (2 values, "3 elements" in its
 * comment): examples_test.c runs it. */

/* D7: which shape types each operation allows: the full matrix. */
struct shape_type_row {
    reshape_op op;
    reshape_dtype shape_dtype;
    reshape_status status;
};

#define Y RESHAPE_OK
#define N RESHAPE_E_SHAPE_TYPE
/* One dtype against the four ops, in the order OV, static, dynamic, ONNX. */
#define OPS4(dt, ov, st, dy, on)                                               \
    {OV, RESHAPE_DT_##dt, ov}, {STATIC, RESHAPE_DT_##dt, st},                  \
        {DYNAMIC, RESHAPE_DT_##dt, dy}, {ONNX, RESHAPE_DT_##dt, on}
static struct shape_type_row d7[] = {
    OPS4(S64, Y, Y, N, Y),    OPS4(S32, Y, N, Y, N), OPS4(S16, Y, N, N, N),
    OPS4(S8, Y, N, N, N),     OPS4(U64, Y, N, N, N), OPS4(U32, Y, N, N, N),
    OPS4(U16, Y, N, N, N),    OPS4(U8, Y, N, N, N),  OPS4(S4, N, N, N, N),
    OPS4(U4, N, N, N, N),     OPS4(U1, N, N, N, N),  OPS4(F64, N, N, N, N),
    OPS4(F32, N, N, N, N),    OPS4(F16, N, N, N, N), OPS4(BF16, N, N, N, N),
    OPS4(F8E4M3, N, N, N, N), OPS4(F8E5M2, N, N, N, N),
    OPS4(BOOLEAN, N, N, N, N),
};

ParameterizedTestParameters(d7_shape_types, matrix)
{
    return cr_make_param_array(struct shape_type_row, d7, COUNT(d7));
}

RowTest(struct shape_type_row *r, d7_shape_types, matrix)
{
    struct infer_row row = {"", r->op, 0, F32, 2, {2, 3}, r->shape_dtype, 2,
                            {3, 2}, r->status, 2, {3, 2}};

    snprintf(row.what, sizeof row.what, "%s with a %s shape",
             reshape_op_name(r->op), reshape_dtype_name(r->shape_dtype));
    check_infer_row(&row);
    check_execute_row(&row);
}

/* D8: a 0 dim gives volume 0 before any multiplication; otherwise a product
 * that leaves int64 is OVERFLOW.  (More in overflow_test.c.) */
static struct infer_row d8[] = {
    {"huge dims beside a 0 have volume 0", OV, 0, F32, 3,
     {INT64_MAX, INT64_MAX, 0}, S64, 2, {0, 9}, GIVES(2, 0, 9)},
    {"a 0 last, after dims whose product overflows", ONNX, 0, F32, 4,
     {INT64_C(1) << 40, INT64_C(1) << 40, 7, 0}, S64, 1, {0}, GIVES(1, 0)},
    {"output dims: huge beside a 0", OV, 0, F32, 1, {0}, S64, 3,
     {INT64_MAX, INT64_MAX, 0}, GIVES(3, INT64_MAX, INT64_MAX, 0)},
    {"2^62 * 2 overflows", OV, 0, F32, 2, {INT64_C(1) << 62, 2}, S64, 1,
     {-1}, FAILS(OVERFLOW)},
};
ROWS_TEST(d8_overflow, d8)

/* D9: a copying 0 at index i copies data.dims[i], counted from the first
 * dim ("left aligned"); right-aligned copying would give other dims. */
static struct infer_row d9[] = {
    {"[2, 3, 4] by [0, -1]: 2 is copied, not 4", OV, 1, F32, 3, {2, 3, 4},
     S64, 2, {0, -1}, GIVES(2, 2, 12)},
    {"[2, 3, 4] by [-1, 0]: 3 is copied, not 4", STATIC, 1, F32, 3,
     {2, 3, 4}, S64, 2, {-1, 0}, GIVES(2, 8, 3)},
    {"[5, 7, 2, 1] by [0, 0, -1]: 5 and 7 are copied", DYNAMIC, 1, F32, 4,
     {5, 7, 2, 1}, S32, 3, {0, 0, -1}, GIVES(3, 5, 7, 2)},
    {"every dim copied", ONNX, 1, F32, 3, {2, 3, 4}, S64, 3, {0, 0, 0},
     GIVES(3, 2, 3, 4)},
};
ROWS_TEST(d9_left_aligned, d9)

/* D10: a scalar has one element; an empty tensor reshapes to any volume-0
 * shape. */
static struct infer_row d10[] = {
    {"scalar to []", OV, 0, F32, 0, {0}, S64, 0, {0}, GIVES(0, 0)},
    {"scalar to [1]", OV, 0, F32, 0, {0}, S64, 1, {1}, GIVES(1, 1)},
    {"scalar to [1, 1]", STATIC, 0, F32, 0, {0}, S64, 2, {1, 1},
     GIVES(2, 1, 1)},
    {"scalar to [-1]", DYNAMIC, 0, F32, 0, {0}, S32, 1, {-1}, GIVES(1, 1)},
    {"scalar to [2]", ONNX, 0, F32, 0, {0}, S64, 1, {2},
     FAILS(VOLUME_MISMATCH)},
    {"[1, 1] to a scalar", ONNX, 1, F32, 2, {1, 1}, S64, 0, {0},
     GIVES(0, 0)},
    {"empty to [0]", OV, 0, F32, 3, {4, 0, 2}, S64, 1, {0}, GIVES(1, 0)},
    {"empty to [3, 0, 7]", OV, 0, F32, 1, {0}, S64, 3, {3, 0, 7},
     GIVES(3, 3, 0, 7)},
    {"empty to a copied 0", OV, 1, F32, 2, {0, 3}, S64, 2, {0, 5},
     GIVES(2, 0, 5)},
    {"empty to [2, 3]", OV, 0, F32, 2, {0, 6}, S64, 2, {2, 3},
     FAILS(VOLUME_MISMATCH)},
};
ROWS_TEST(d10_scalars_and_empty, d10)
