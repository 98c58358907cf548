/*
 * onednn_test.c - the oneDNN Graph rules: StaticReshape takes its shape as
 * an s64[] attribute, DynamicReshape as an s32 input tensor, and both move
 * f32, f16 and bf16 data only (onednn_static_reshape_1.md, Types: "T:
 * f32,f16,bf16"; onednn_dynamic_reshape_1.md, Types: "T1: f32,f16,bf16",
 * "T2: s32").
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"

#include "support.h"

#define S64 RESHAPE_DT_S64
#define S32 RESHAPE_DT_S32

static struct infer_row rows[] = {
    {"static: an s64 shape attribute is read", STATIC, 0, RESHAPE_DT_F32,
     2, {2, 6}, S64, 3, {3, 2, 2}, GIVES(3, 3, 2, 2)},
    {"static: an s32 shape is not the s64[] attribute", STATIC, 0,
     RESHAPE_DT_F32, 2, {2, 6}, S32, 3, {3, 2, 2}, FAILS(SHAPE_TYPE)},
    {"dynamic: an s32 shape input is read", DYNAMIC, 0, RESHAPE_DT_F32, 2,
     {2, 6}, S32, 3, {3, 2, 2}, GIVES(3, 3, 2, 2)},
    {"dynamic: an s64 shape input is not T2", DYNAMIC, 0, RESHAPE_DT_F32, 2,
     {2, 6}, S64, 3, {3, 2, 2}, FAILS(SHAPE_TYPE)},
    {"static: f16 data", STATIC, 1, RESHAPE_DT_F16, 2, {4, 3}, S64, 2,
     {0, -1}, GIVES(2, 4, 3)},
    {"static: bf16 data", STATIC, 1, RESHAPE_DT_BF16, 2, {4, 3}, S64, 2,
     {-1, 0}, GIVES(2, 4, 3)},
    {"dynamic: f16 data", DYNAMIC, 1, RESHAPE_DT_F16, 3, {2, 3, 4}, S32, 2,
     {0, -1}, GIVES(2, 2, 12)},
    {"dynamic: bf16 data", DYNAMIC, 0, RESHAPE_DT_BF16, 3, {2, 3, 4}, S32, 1,
     {-1}, GIVES(1, 24)},
    {"static: a literal 0 next to -1 cannot be inferred", STATIC, 0,
     RESHAPE_DT_F32, 2, {2, 6}, S64, 2, {0, -1}, FAILS(ZERO_AND_MINUS_ONE)},
    {"dynamic: a literal 0 next to -1 cannot be inferred", DYNAMIC, 0,
     RESHAPE_DT_F32, 2, {2, 6}, S32, 2, {0, -1},
     FAILS(ZERO_AND_MINUS_ONE)},
    {"static: a 0 with special_zero false is a zero dim", STATIC, 0,
     RESHAPE_DT_F32, 2, {0, 6}, S64, 2, {6, 0}, GIVES(2, 6, 0)},
    {"dynamic: a 0 with special_zero true copies", DYNAMIC, 1,
     RESHAPE_DT_F32, 2, {5, 6}, S32, 3, {0, 3, 2}, GIVES(3, 5, 3, 2)},
    {"static: value -2 is below -1 (\"no less than -1\")", STATIC, 0,
     RESHAPE_DT_F32, 1, {6}, S64, 2, {-2, -3}, FAILS(BELOW_MINUS_ONE)},
    {"dynamic: two -1", DYNAMIC, 0, RESHAPE_DT_F32, 1, {6}, S32, 2, {-1, -1},
     FAILS(MULTIPLE_MINUS_ONE)},
};

ParameterizedTestParameters(onednn, infer_shape)
{
    return cr_make_param_array(struct infer_row, rows,
                               sizeof rows / sizeof rows[0]);
}

RowTest(struct infer_row *row, onednn, infer_shape)
{
    check_infer_row(row);
}

ParameterizedTestParameters(onednn, execute)
{
    return cr_make_param_array(struct infer_row, rows,
                               sizeof rows / sizeof rows[0]);
}

RowTest(struct infer_row *row, onednn, execute)
{
    check_execute_row(row);
}

/* Every (op, dtype) pair of the two oneDNN ops, with the status its Types
 * line gives. */
struct dtype_row {
    reshape_op op;
    reshape_dtype dtype;
    reshape_status status;
};

#define YES RESHAPE_OK
#define NO RESHAPE_E_DATA_TYPE
#define BOTH(dt, st)                                                           \
    {STATIC, RESHAPE_DT_##dt, st}, {DYNAMIC, RESHAPE_DT_##dt, st}

static struct dtype_row dtype_rows[] = {
    BOTH(F64, NO),    BOTH(F32, YES),    BOTH(F16, YES), BOTH(BF16, YES),
    BOTH(F8E4M3, NO), BOTH(F8E5M2, NO),  BOTH(S64, NO),  BOTH(S32, NO),
    BOTH(S16, NO),    BOTH(S8, NO),      BOTH(U64, NO),  BOTH(U32, NO),
    BOTH(U16, NO),    BOTH(U8, NO),      BOTH(S4, NO),   BOTH(U4, NO),
    BOTH(U1, NO),     BOTH(BOOLEAN, NO),
};

ParameterizedTestParameters(onednn, data_types)
{
    return cr_make_param_array(struct dtype_row, dtype_rows,
                               sizeof dtype_rows / sizeof dtype_rows[0]);
}

RowTest(struct dtype_row *row, onednn, data_types)
{
    struct infer_row r = {
        "oneDNN data type", row->op, 0, row->dtype, 2, {2, 3},
        row->op == STATIC ? S64 : S32, 1, {6}, row->status, 1, {6}};

    cr_log_info("%s on %s", reshape_op_name(row->op),
                reshape_dtype_name(row->dtype));
    check_infer_row(&r);
    check_execute_row(&r);
}
