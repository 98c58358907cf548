// parser_shape.h - the target shape of a Reshape as Arm NN 20.08's own
// parsers compute it, for armnn.cpp: Arm NN's Reshape layer takes a fully
// given TensorShape (unsigned int dims), and its parsers resolve a -1 and a
// copying 0 before they build one (README.md, "-1 and 0").  Depends on
// Arm NN's Tensor.hpp and the ABI header.
#ifndef ARMNN_PARSER_SHAPE_H
#define ARMNN_PARSER_SHAPE_H

#include <cstdint>
#include <string>

#include <armnn/Tensor.hpp>

#include "reshape_candidate.h"

// What parser_shape gives: RESHAPE_OK and `shape`, or a status and `why`.
struct parser_result {
    reshape_status status;
    armnn::TensorShape shape;
    std::string why;
};

// The input dims as an Arm NN TensorShape into *shape (rank 0: a scalar).
// RESHAPE_OK, or NOT_SUPPORTED with *why: a rank above
// armnn::MaxNumOfTensorDimensions or a dim above UINT32_MAX.
reshape_status input_shape(int32_t rank, const int64_t *dims, armnn::TensorShape *shape,
                           std::string *why);

// The target shape for `input` from `values` (`count` of them) and
// `special_zero`:
//   - each value must fit int32 (TfLite's new_shape is std::vector<int32_t>;
//     the ONNX parser's CHECKED_INT32 refuses more), else NOT_SUPPORTED;
//   - with special_zero, a 0 at index i becomes input dim i, read with
//     TensorShape::operator[] as OnnxParser's ComputeReshapeInfo does (its
//     InvalidArgumentException past the input's rank is INVALID_ARGUMENT);
//     without it a 0 stays 0 (TfLite has no copying zero);
//   - then TfLiteParser::OutputShapeOfReshape: a second -1 is its
//     ParseException (MULTIPLE_MINUS_ONE); the product of the values, in
//     int32 from -1, becomes the unsigned divisor of the input's 32-bit
//     element count (NOT_SUPPORTED where it is 0 or negative: the parser
//     divides by zero or casts a negative value); every other value is
//     converted to unsigned int as the parser does;
//   - no values: a scalar (Dimensionality::Scalar).
// More than armnn::MaxNumOfTensorDimensions values is NOT_SUPPORTED.
parser_result parser_shape(const armnn::TensorShape &input, const int64_t *values,
                           int32_t count, int special_zero);

#endif // ARMNN_PARSER_SHAPE_H
