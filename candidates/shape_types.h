/*
 * shape_types.h - the shape-type list of each operation (DECISIONS.md D7),
 * for the in-tree adapters whose library takes the shape as a plain list
 * of integers: such a library has no typed shape input that could refuse a
 * type, so the adapter answers NOT_SUPPORTED outside the list rather than
 * pass a value the library cannot judge.  A spec rule, so it is not in the
 * installed kit (include/reshape_adapter.h), which decides none.  Depends
 * on the kit.
 */
#ifndef SHAPE_TYPES_H
#define SHAPE_TYPES_H

#include "reshape_adapter.h"

/* 1 when `dtype` is in the shape-type list of `op`: OpenVINO s64 s32 s16
 * s8 u64 u32 u16 u8; DynamicReshape s32; StaticReshape and ONNX s64. */
static inline int shape_type_allowed(reshape_op op, reshape_dtype dtype)
{
    switch (op) {
    case RESHAPE_OP_OPENVINO_RESHAPE_1:
        switch (dtype) {
        case RESHAPE_DT_S64: case RESHAPE_DT_S32: case RESHAPE_DT_S16:
        case RESHAPE_DT_S8: case RESHAPE_DT_U64: case RESHAPE_DT_U32:
        case RESHAPE_DT_U16: case RESHAPE_DT_U8:
            return 1;
        default:
            return 0;
        }
    case RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1:
        return dtype == RESHAPE_DT_S32;
    case RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1:
    case RESHAPE_OP_ONNX_RESHAPE_14:
        return dtype == RESHAPE_DT_S64;
    }
    return 0;
}

/* For supports(): RESHAPE_OK for a shape dtype in the list, else
 * NOT_SUPPORTED with the message "<takes>; a '<dtype>' shape tensor cannot
 * be passed for '<op>'", where `takes` says how the library takes the shape
 * ("numpy takes the shape as an npy_intp list"). */
static inline reshape_status shape_type_check(reshape_op op, reshape_dtype dtype,
                                              const char *takes)
{
    const char *name = reshape_op_name(op);

    if (shape_type_allowed(op, dtype))
        return RESHAPE_OK;
    return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "%s; a '%s' shape tensor cannot be passed for '%s'", takes,
                                reshape_adapter_dtype_name(dtype), name != NULL ? name : "?");
}

#endif /* SHAPE_TYPES_H */
