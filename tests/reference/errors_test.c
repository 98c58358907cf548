/*
 * errors_test.c - every error status, for each operation where it applies,
 * through infer_shape and through execute (which must leave dst untouched);
 * then inputs that break several rules, which must get the status of the
 * first rule in DECISIONS.md's order (what --strict-errors asks for).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"

#include "support.h"

#define F32 RESHAPE_DT_F32
#define S64 RESHAPE_DT_S64
#define S32 RESHAPE_DT_S32
#define BIG (INT64_C(1) << 62)

/* The spec errors every operation has, with `sh` its shape dtype and `bad`
 * a shape dtype it refuses. */
#define ERRORS(op, sh, bad)                                                    \
    {#op ": two -1", op, 0, F32, 2, {2, 3}, sh, 2, {-1, -1},                   \
     FAILS(MULTIPLE_MINUS_ONE)},                                               \
    {#op ": a value below -1", op, 0, F32, 1, {6}, sh, 2, {2, -2},             \
     FAILS(BELOW_MINUS_ONE)},                                                  \
    {#op ": a copying 0 past the input rank", op, 1, F32, 1, {6}, sh, 2,       \
     {0, 0}, FAILS(ZERO_OUT_OF_RANGE)},                                        \
    {#op ": a literal 0 next to -1", op, 0, F32, 2, {2, 3}, sh, 2, {0, -1},    \
     FAILS(ZERO_AND_MINUS_ONE)},                                               \
    {#op ": -1 not a whole number", op, 0, F32, 2, {2, 3}, sh, 2, {4, -1},     \
     FAILS(NOT_DIVISIBLE)},                                                    \
    {#op ": volumes differ", op, 0, F32, 2, {2, 3}, sh, 1, {7},                \
     FAILS(VOLUME_MISMATCH)},                                                  \
    {#op ": a refused shape type", op, 0, F32, 2, {2, 3}, bad, 1, {6},         \
     FAILS(SHAPE_TYPE)},                                                       \
    {#op ": an input volume of 2^64", op, 0, F32, 2, {BIG, 4}, sh, 1, {-1},    \
     FAILS(OVERFLOW)},                                                         \
    {#op ": output dims with product 2^90", op, 0, F32, 1, {6}, sh, 3,         \
     {1 << 30, 1 << 30, 1 << 30}, FAILS(OVERFLOW)},                            \
    {#op ": special_zero 2", op, 2, F32, 1, {6}, sh, 1, {6},                   \
     FAILS(INVALID_ARGUMENT)},                                                 \
    {#op ": a negative input dim", op, 0, F32, 2, {-2, -3}, sh, 1, {6},        \
     FAILS(INVALID_ARGUMENT)}

static struct infer_row errors[] = {
    ERRORS(OV, S64, F32),
    ERRORS(STATIC, S64, S32),
    ERRORS(DYNAMIC, S32, S64),
    ERRORS(ONNX, S64, S32),
    {"STATIC: s8 data", STATIC, 0, RESHAPE_DT_S8, 1, {6}, S64, 1, {6},
     FAILS(DATA_TYPE)},
    {"DYNAMIC: f64 data", DYNAMIC, 0, RESHAPE_DT_F64, 1, {6}, S32, 1, {6},
     FAILS(DATA_TYPE)},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

ParameterizedTestParameters(errors, infer_shape)
{
    return cr_make_param_array(struct infer_row, errors, COUNT(errors));
}

RowTest(struct infer_row *row, errors, infer_shape)
{
    check_infer_row(row);
}

ParameterizedTestParameters(errors, execute_leaves_dst_untouched)
{
    return cr_make_param_array(struct infer_row, errors, COUNT(errors));
}

RowTest(struct infer_row *row, errors, execute_leaves_dst_untouched)
{
    check_execute_row(row);
}

/* Inputs breaking several rules: the first rule in order wins. */
static struct infer_row order[] = {
    {"arguments before data type", STATIC, 2, RESHAPE_DT_S8, 1, {6}, S64, 1,
     {6}, FAILS(INVALID_ARGUMENT)},
    {"data type before shape type", STATIC, 0, RESHAPE_DT_S8, 1, {6}, S32, 1,
     {6}, FAILS(DATA_TYPE)},
    {"shape type before values", DYNAMIC, 0, F32, 1, {6}, S64, 2, {-1, -3},
     FAILS(SHAPE_TYPE)},
    {"below -1 before two -1 (below comes last)", OV, 0, F32, 1, {6}, S64, 3,
     {-1, -1, -3}, FAILS(BELOW_MINUS_ONE)},
    {"two -1 before a copying 0 past the rank", OV, 1, F32, 1, {6}, S64, 5,
     {-1, -1, 0, 0, 0}, FAILS(MULTIPLE_MINUS_ONE)},
    {"a copying 0 past the rank before the input volume", OV, 1, F32, 2,
     {BIG, 4}, S64, 3, {0, 0, 0}, FAILS(ZERO_OUT_OF_RANGE)},
    {"input volume overflow before 0 next to -1", OV, 0, F32, 2, {BIG, 4},
     S64, 2, {0, -1}, FAILS(OVERFLOW)},
    {"input volume overflow before volume mismatch", ONNX, 0, F32, 2,
     {BIG, 4}, S64, 1, {5}, FAILS(OVERFLOW)},
    {"output product overflow before volume mismatch", DYNAMIC, 0, F32, 1,
     {6}, S32, 3, {1 << 30, 1 << 30, 1 << 30}, FAILS(OVERFLOW)},
    {"output product overflow before -1 is solved", OV, 0, F32, 1, {6}, S64,
     3, {BIG, -1, 4}, FAILS(OVERFLOW)},
};

ParameterizedTestParameters(errors, first_rule_wins)
{
    return cr_make_param_array(struct infer_row, order, COUNT(order));
}

RowTest(struct infer_row *row, errors, first_rule_wins)
{
    check_infer_row(row);
}

/* ------------------------------------------------ SHAPE_NOT_1D (D3) */

static reshape_op all_ops[] = {OV, STATIC, DYNAMIC, ONNX};

static reshape_dtype shape_dtype_of(reshape_op op)
{
    return op == DYNAMIC ? S32 : S64;
}

/* Infers data [2, 3] against a shape tensor of `rank` dims `sdims` whose
 * `count` values are `values`, stored as the op's shape dtype. */
static reshape_status infer_with_shape_dims(reshape_op op, int32_t rank,
                                            const int64_t *sdims, int32_t count,
                                            const int64_t *values,
                                            reshape_dtype sdt)
{
    struct shape_buf shape;
    int64_t dims[2] = {2, 3}, out[RESHAPE_MAX_RANK];
    int32_t out_rank;
    reshape_tensor src = tensor(F32, 2, dims, NULL);
    reshape_params p;

    shape_init(&shape, sdt, count, values);
    shape.t.rank = rank;
    shape.t.dims = sdims;
    p = params(op, 0, &shape.t);
    return ref()->infer_shape(&p, &src, &out_rank, out);
}

ParameterizedTestParameters(errors, rank_0_shape_tensor_is_not_1d)
{
    return cr_make_param_array(reshape_op, all_ops, COUNT(all_ops));
}

RowTest(reshape_op *op, errors, rank_0_shape_tensor_is_not_1d)
{
    reshape_status st =
        infer_with_shape_dims(*op, NODIMS, DIMS(6), shape_dtype_of(*op));

    cr_assert_eq(st, RESHAPE_E_SHAPE_NOT_1D, "%s: got %s", reshape_op_name(*op),
                 reshape_status_name(st));
}

ParameterizedTestParameters(errors, rank_2_shape_tensor_is_not_1d)
{
    return cr_make_param_array(reshape_op, all_ops, COUNT(all_ops));
}

RowTest(reshape_op *op, errors, rank_2_shape_tensor_is_not_1d)
{
    reshape_status st =
        infer_with_shape_dims(*op, DIMS(1, 2), DIMS(2, 3), shape_dtype_of(*op));

    cr_assert_eq(st, RESHAPE_E_SHAPE_NOT_1D, "%s: got %s", reshape_op_name(*op),
                 reshape_status_name(st));
}

Test(errors, shape_type_before_not_1d)
{
    reshape_status st = infer_with_shape_dims(OV, DIMS(1, 2), DIMS(2, 3), F32);

    cr_assert_eq(st, RESHAPE_E_SHAPE_TYPE);
}

Test(errors, not_1d_before_values)
{
    reshape_status st =
        infer_with_shape_dims(OV, DIMS(1, 2), DIMS(-5, -1), S64);

    cr_assert_eq(st, RESHAPE_E_SHAPE_NOT_1D);
}
