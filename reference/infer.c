/*
 * infer.c - shape inference, the rules of reference/DECISIONS.md ("The rules,
 * in the order the reference checks them") from 1 to 11, in that order; the
 * first rule that fails gives the status.  Each check quotes the sentence it
 * implements.  Depends on args.c, rules.c, values.c, volume.c, error.c.
 *
 * Spec files are in specs/; "OV" below is openvino_reshape_1.rst,
 * "static" onednn_static_reshape_1.md, "dynamic" onednn_dynamic_reshape_1.md,
 * "ONNX" onnx_reshape_14.md.
 */
#include <inttypes.h>
#include <stddef.h>

#include "reference.h"

/* Marks "no -1 in the shape" in an index variable. */
#define NO_INDEX (-1)

reshape_status reshape_ref_infer(const reshape_params *params,
                                 const reshape_tensor *src, int32_t *out_rank,
                                 int64_t *out_dims, int64_t *volume)
{
    const reshape_tensor *shape;
    reshape_status st;
    int64_t dims[RESHAPE_MAX_RANK];
    int32_t rank;
    int32_t minus_one = NO_INDEX;
    int64_t in_volume, known;

    /* Rule 1, caller misuse: NULLs, ranges, negative dims, a shape tensor
     * with more than RESHAPE_MAX_RANK values or with strides. */
    if (out_rank == NULL || out_dims == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "'%s' is NULL",
                                out_rank == NULL ? "out_rank" : "out_dims");
    st = reshape_ref_check_params(params, src);
    if (st != RESHAPE_OK)
        return st;
    shape = params->shape;

    /* Rule 2.  OV, Types: "T: any numeric type."  static, Types: "T:
     * f32,f16,bf16".  dynamic, Types: "T1: f32,f16,bf16".  (D5) */
    if (!reshape_ref_data_dtype_allowed(params->op, src->dtype))
        return reshape_ref_fail(RESHAPE_E_DATA_TYPE,
                                "data type '%s' is not allowed by '%s' (%s)",
                                reshape_dtype_name(src->dtype),
                                reshape_op_name(params->op),
                                reshape_ref_data_dtype_list(params->op));

    /* Rule 3.  OV, Types: "T_SHAPE: any supported integer type."  static,
     * Attributes, shape: "Type: s64[]".  dynamic, Types: "T2: s32".  ONNX:
     * "shape (1-D tensor of int64)".  (D7) */
    if (!reshape_ref_shape_dtype_allowed(params->op, shape->dtype))
        return reshape_ref_fail(RESHAPE_E_SHAPE_TYPE,
                                "shape type '%s' is not allowed by '%s' (%s)",
                                reshape_dtype_name(shape->dtype),
                                reshape_op_name(params->op),
                                reshape_ref_shape_dtype_list(params->op));

    /* Rule 4.  OV, Inputs: "shape 1D tensor of type T_SHAPE describing
     * output shape."  (D3: for every operation.) */
    if (shape->rank != 1)
        return reshape_ref_fail(RESHAPE_E_SHAPE_NOT_1D,
                                "shape tensor has rank %" PRId32 ", not 1",
                                shape->rank);
    rank = (int32_t)shape->dims[0]; /* <= RESHAPE_MAX_RANK by rule 1 */

    /* Rule 5.  OV, Detailed description: "The values in the shape could be
     * -1, 0 and any positive integer number."  static, Attributes, shape:
     * "s64 values where value is no less than -1".  An unsigned value above
     * INT64_MAX is positive but fits no dim (D4). */
    for (int32_t i = 0; i < rank; i++) {
        st = reshape_ref_shape_value(shape->dtype, shape->data, i, &dims[i]);
        if (st == RESHAPE_E_OVERFLOW)
            return reshape_ref_fail(st,
                                    "shape value at index %" PRId32
                                    " is above INT64_MAX", i);
        if (st != RESHAPE_OK)
            return reshape_ref_fail(st, "cannot read shape type '%s'",
                                    reshape_dtype_name(shape->dtype));
        if (dims[i] < -1)
            return reshape_ref_fail(RESHAPE_E_BELOW_MINUS_ONE,
                                    "shape value %" PRId64 " at index %" PRId32
                                    " is below -1", dims[i], i);
    }

    /* Rule 6.  OV, Detailed description: "Not more than one -1 can be used
     * in a reshape operation."  static: "No more than one -1 can be used in
     * a StaticReshape operation." */
    for (int32_t i = 0; i < rank; i++) {
        if (dims[i] != -1)
            continue;
        if (minus_one != NO_INDEX)
            return reshape_ref_fail(RESHAPE_E_MULTIPLE_MINUS_ONE,
                                    "more than one -1 in shape, at index %"
                                    PRId32 " and %" PRId32, minus_one, i);
        minus_one = i;
    }

    /* Rule 7.  OV, Detailed description: "If special_zero is set to true
     * index of 0 cannot be larger than the rank of the input tensor." (D2:
     * index i needs i < rank.)  OV, Attributes, special_zero: "all zeros in
     * shape implies the copying of corresponding dimensions from data.shape
     * into the output shape (left aligned)." (D9) */
    if (params->special_zero)
        for (int32_t i = 0; i < rank; i++) {
            if (dims[i] != 0)
                continue;
            if (i >= src->rank)
                return reshape_ref_fail(RESHAPE_E_ZERO_OUT_OF_RANGE,
                                        "copying 0 at index %" PRId32
                                        " has no input dim (input rank %"
                                        PRId32 ")", i, src->rank);
            dims[i] = src->dims[i];
        }

    /* Rule 8.  OV, Short description: "volume is the product of
     * dimensions."  A 0 dim gives 0 first; a product beyond int64 is
     * OVERFLOW (D8). */
    if (reshape_ref_volume(src->rank, src->dims, &in_volume) != RESHAPE_OK)
        return reshape_ref_fail(RESHAPE_E_OVERFLOW,
                                "volume of the input dims does not fit int64");

    /* Rule 9.  The product of the output dims other than the -1, by the
     * same rule: counting the -1 as 1 leaves both the zero test and the
     * product unchanged. */
    if (minus_one != NO_INDEX)
        dims[minus_one] = 1;
    st = reshape_ref_volume(rank, dims, &known);
    if (minus_one != NO_INDEX)
        dims[minus_one] = -1;
    if (st != RESHAPE_OK)
        return reshape_ref_fail(RESHAPE_E_OVERFLOW,
                                "product of the output dims does not fit "
                                "int64");

    if (minus_one != NO_INDEX) {
        /* Rule 10.  static, Attributes, special_zero: "shape should not
         * contain both 0 and -1 since the target shape cannot be inferred in
         * such a case."  (D1: whenever the known product is 0.) */
        if (known == 0)
            return reshape_ref_fail(RESHAPE_E_ZERO_AND_MINUS_ONE,
                                    "-1 at index %" PRId32 " cannot be "
                                    "inferred next to a 0 dim", minus_one);
        /* OV, Detailed description: "-1 means that this dimension is
         * calculated to keep the overall elements count the same as in the
         * input tensor." */
        if (in_volume % known != 0)
            return reshape_ref_fail(RESHAPE_E_NOT_DIVISIBLE,
                                    "input volume %" PRId64 " is not "
                                    "divisible by %" PRId64 ", the product of "
                                    "the other output dims", in_volume, known);
        dims[minus_one] = in_volume / known;
    } else if (known != in_volume) {
        /* Rule 11.  OV, Short description: "Input tensor volume is equal to
         * output tensor volume, where volume is the product of dimensions." */
        return reshape_ref_fail(RESHAPE_E_VOLUME_MISMATCH,
                                "output volume %" PRId64 " differs from input "
                                "volume %" PRId64, known, in_volume);
    }

    *out_rank = rank;
    for (int32_t i = 0; i < rank; i++)
        out_dims[i] = dims[i];
    if (volume != NULL)
        *volume = in_volume;
    return RESHAPE_OK;
}
