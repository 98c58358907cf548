// parser_shape.cpp - Arm NN 20.08's parsers' target shape (parser_shape.h).
// The arithmetic is theirs, kept as it is (32-bit products that wrap, a
// truncating division); only where their code would stop the process or
// depend on how Arm NN was built does this answer NOT_SUPPORTED instead.
#include <climits>
#include <cstdio>
#include <exception>
#include <vector>

#include <armnn/Exceptions.hpp>
#include <armnn/Types.hpp>

#include "parser_shape.h"

namespace {

std::string text(const char *fmt, long long a, long long b = 0)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return buf;
}

parser_result refuse(reshape_status status, const std::string &why)
{
    return {status, armnn::TensorShape(), why};
}

} // namespace

reshape_status input_shape(int32_t rank, const int64_t *dims, armnn::TensorShape *shape,
                           std::string *why)
{
    if (rank == 0) {
        *shape = armnn::TensorShape(armnn::Dimensionality::Scalar);
        return RESHAPE_OK;
    }
    if (rank > (int32_t)armnn::MaxNumOfTensorDimensions) {
        *why = text("an Arm NN TensorShape has at most %lld dims, not %lld",
                    armnn::MaxNumOfTensorDimensions, rank);
        return RESHAPE_E_NOT_SUPPORTED;
    }
    unsigned int d[armnn::MaxNumOfTensorDimensions];
    for (int32_t i = 0; i < rank; i++) {
        if (dims[i] > UINT_MAX) {
            *why = text("Arm NN dims are unsigned int: dim %lld is %lld", i, dims[i]);
            return RESHAPE_E_NOT_SUPPORTED;
        }
        d[i] = (unsigned int)dims[i];
    }
    *shape = armnn::TensorShape((unsigned int)rank, d);
    return RESHAPE_OK;
}

parser_result parser_shape(const armnn::TensorShape &input, const int64_t *values,
                           int32_t count, int special_zero)
{
    std::vector<int32_t> target;

    if (count == 0)
        return {RESHAPE_OK, armnn::TensorShape(armnn::Dimensionality::Scalar), ""};
    if (count > (int32_t)armnn::MaxNumOfTensorDimensions)
        return refuse(RESHAPE_E_NOT_SUPPORTED,
                      text("an Arm NN TensorShape has at most %lld dims, not %lld",
                           armnn::MaxNumOfTensorDimensions, count));
    for (int32_t i = 0; i < count; i++) {
        if (values[i] < INT32_MIN || values[i] > INT32_MAX)
            return refuse(RESHAPE_E_NOT_SUPPORTED,
                          text("the parsers take int32 shapes: %lld at index %lld", values[i],
                               i));
        int32_t v = (int32_t)values[i];
        // OnnxParser's ComputeReshapeInfo: static_cast<int>(inShape[i]).
        if (v == 0 && special_zero) {
            try {
                v = (int32_t)input[(unsigned int)i];
            } catch (const armnn::Exception &e) {
                return refuse(RESHAPE_E_INVALID_ARGUMENT,
                              std::string("Arm NN refused the copying 0: ") + e.what());
            }
        }
        target.push_back(v);
    }

    // TfLiteParser::OutputShapeOfReshape from here on.
    std::vector<unsigned int> out(target.begin(), target.end());
    int stretch = -1;
    for (int32_t i = 0; i < count; i++)
        if (target[i] == -1) {
            if (stretch >= 0)
                return refuse(RESHAPE_E_MULTIPLE_MINUS_ONE,
                              "At most one component of shape can be -1 "
                              "(TfLiteParser::OutputShapeOfReshape)");
            stretch = i;
        }
    if (stretch >= 0) {
        // std::accumulate(..., -1, std::multiplies<int32_t>()), wrapping.
        uint32_t product = UINT32_MAX;
        for (int32_t v : target)
            product *= (uint32_t)v;
        if (product == 0)
            return refuse(RESHAPE_E_NOT_SUPPORTED,
                          "TfLiteParser::OutputShapeOfReshape would divide the input's element "
                          "count by 0 (a 0 beside the -1, or an int32 product that wraps to "
                          "0): SIGFPE");
        if ((int32_t)product < 0)
            return refuse(RESHAPE_E_NOT_SUPPORTED,
                          text("TfLiteParser::OutputShapeOfReshape would cast the negative "
                               "product %lld to unsigned int (armnn::numeric_cast asserts in "
                               "a debug build, wraps in a release one)",
                               (int32_t)product));
        out[stretch] = input.GetNumElements() / product;
    }
    return {RESHAPE_OK, armnn::TensorShape((unsigned int)count, out.data()), ""};
}
