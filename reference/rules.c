/*
 * rules.c - which data dtypes and shape dtypes each operation allows:
 * DECISIONS.md D5 and D7.  The rules themselves are the ABI header's
 * (reshape_op_accepts_data_dtype, generated from specs/type_rules.yaml,
 * which the case generators read too); here are the lists as the spec
 * texts write them, for error messages.  Depends on the ABI header only.
 */
#include "reference.h"

struct op_lists {
    const char *data_list;  /* the data dtypes, as the spec lists them */
    const char *shape_list; /* the shape dtypes, the same */
};

static const struct op_lists lists[RESHAPE_OP_COUNT + 1] = {
    /* openvino_reshape_1.rst, Types: "T: any numeric type." (boolean
     * counted as numeric, D5); "T_SHAPE: any supported integer type." (D7) */
    [RESHAPE_OP_OPENVINO_RESHAPE_1] = {"any numeric type", "s64, s32, s16, s8, u64, u32, u16, u8"},
    /* onednn_static_reshape_1.md, Types: "T: f32,f16,bf16"; Attributes,
     * shape: "Type: s64[]" */
    [RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1] = {"f32, f16, bf16", "s64"},
    /* onednn_dynamic_reshape_1.md, Types: "T1: f32,f16,bf16", "T2: s32" */
    [RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1] = {"f32, f16, bf16", "s32"},
    /* onnx_reshape_14.md: data "any tensor type", shape "1-D tensor of
     * int64" */
    [RESHAPE_OP_ONNX_RESHAPE_14] = {"any tensor type", "s64"},
};

int reshape_ref_data_dtype_allowed(reshape_op op, reshape_dtype dtype)
{
    return reshape_op_accepts_data_dtype(op, dtype);
}

int reshape_ref_shape_dtype_allowed(reshape_op op, reshape_dtype dtype)
{
    return reshape_op_accepts_shape_dtype(op, dtype);
}

const char *reshape_ref_data_dtype_list(reshape_op op)
{
    return op >= 1 && op <= RESHAPE_OP_COUNT ? lists[op].data_list : "";
}

const char *reshape_ref_shape_dtype_list(reshape_op op)
{
    return op >= 1 && op <= RESHAPE_OP_COUNT ? lists[op].shape_list : "";
}
