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

/* 1 when `dtype` is in the shape-type list of `op`: the ABI header's
 * generated rule (specs/type_rules.yaml, the one source of truth). */
static inline int shape_type_allowed(reshape_op op, reshape_dtype dtype)
{
    return reshape_op_accepts_shape_dtype(op, dtype);
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
