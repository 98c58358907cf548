/*
 * rules.c - which data dtypes and shape dtypes each operation allows:
 * DECISIONS.md D5 and D7, one row per operation.  Depends on the ABI header
 * only.
 */
#include "reference.h"

#define BIT(dt) (UINT32_C(1) << (dt))

/* Every ABI dtype, 1..RESHAPE_DT_COUNT. */
#define ALL_DTYPES                                                            \
    (((UINT32_C(1) << (RESHAPE_DT_COUNT + 1)) - 1) & ~UINT32_C(1))

#define ONEDNN_DATA                                                           \
    (BIT(RESHAPE_DT_F32) | BIT(RESHAPE_DT_F16) | BIT(RESHAPE_DT_BF16))

#define INTEGER_SHAPE                                                         \
    (BIT(RESHAPE_DT_S64) | BIT(RESHAPE_DT_S32) | BIT(RESHAPE_DT_S16) |        \
     BIT(RESHAPE_DT_S8) | BIT(RESHAPE_DT_U64) | BIT(RESHAPE_DT_U32) |         \
     BIT(RESHAPE_DT_U16) | BIT(RESHAPE_DT_U8))

struct op_rules {
    uint32_t data;          /* bit d set: data dtype d allowed */
    uint32_t shape;         /* bit d set: shape dtype d allowed */
    const char *data_list;  /* the same, as the spec lists them */
    const char *shape_list;
};

static const struct op_rules rules[RESHAPE_OP_COUNT + 1] = {
    /* openvino_reshape_1.rst, Types: "T: any numeric type." (boolean
     * counted as numeric, D5); "T_SHAPE: any supported integer type." (D7) */
    [RESHAPE_OP_OPENVINO_RESHAPE_1] = {
        ALL_DTYPES, INTEGER_SHAPE, "any numeric type",
        "s64, s32, s16, s8, u64, u32, u16, u8"},
    /* onednn_static_reshape_1.md, Types: "T: f32,f16,bf16"; Attributes,
     * shape: "Type: s64[]" */
    [RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1] = {
        ONEDNN_DATA, BIT(RESHAPE_DT_S64), "f32, f16, bf16", "s64"},
    /* onednn_dynamic_reshape_1.md, Types: "T1: f32,f16,bf16", "T2: s32" */
    [RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1] = {
        ONEDNN_DATA, BIT(RESHAPE_DT_S32), "f32, f16, bf16", "s32"},
    /* onnx_reshape_14.md: data "any tensor type", shape "1-D tensor of
     * int64" */
    [RESHAPE_OP_ONNX_RESHAPE_14] = {
        ALL_DTYPES, BIT(RESHAPE_DT_S64), "any tensor type", "s64"},
};

static const struct op_rules *rules_of(reshape_op op)
{
    if (op < 1 || op > RESHAPE_OP_COUNT)
        return NULL;
    return &rules[op];
}

static int in_set(uint32_t set, reshape_dtype dtype)
{
    if (dtype < 1 || dtype > RESHAPE_DT_COUNT)
        return 0;
    return (set & BIT(dtype)) != 0;
}

int reshape_ref_data_dtype_allowed(reshape_op op, reshape_dtype dtype)
{
    const struct op_rules *r = rules_of(op);
    return r != NULL && in_set(r->data, dtype);
}

int reshape_ref_shape_dtype_allowed(reshape_op op, reshape_dtype dtype)
{
    const struct op_rules *r = rules_of(op);
    return r != NULL && in_set(r->shape, dtype);
}

const char *reshape_ref_data_dtype_list(reshape_op op)
{
    const struct op_rules *r = rules_of(op);
    return r != NULL ? r->data_list : "";
}

const char *reshape_ref_shape_dtype_list(reshape_op op)
{
    const struct op_rules *r = rules_of(op);
    return r != NULL ? r->shape_list : "";
}
