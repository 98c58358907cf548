// ov_reshape.hpp - what the OpenVINO adapters share (openvino_core.cpp,
// openvino_cpu.cpp): the element-type map, the mapping of each operation
// onto ov::op::v1::Reshape, the one-node graph, the wrapping of ABI tensors
// as ov::Tensor, and the mapping of OpenVINO's exceptions to ABI statuses.
// Header-only C++17 (each adapter is one translation unit); depends on
// OpenVINO's public headers (the `openvino` wheel) and the adapter kit.
//
// Nothing here computes a shape or judges a shape rule: the dims and every
// accept or refuse come from OpenVINO; this file only says what a case
// cannot be handed to OpenVINO (NOT_SUPPORTED, with the reason).
#ifndef OV_RESHAPE_HPP
#define OV_RESHAPE_HPP

#include <openvino/core/except.hpp>
#include <openvino/core/model.hpp>
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>
#include <openvino/runtime/tensor.hpp>

#include <cstring>
#include <exception>
#include <memory>
#include <string>

#include "reshape_adapter.h"

#include "../shape_types.h"

namespace ovr {

// The ov::element::Type of an ABI dtype; OpenVINO has all eighteen.
inline ov::element::Type element_type(reshape_dtype dtype)
{
    switch (dtype) {
    case RESHAPE_DT_F64: return ov::element::f64;
    case RESHAPE_DT_F32: return ov::element::f32;
    case RESHAPE_DT_F16: return ov::element::f16;
    case RESHAPE_DT_BF16: return ov::element::bf16;
    case RESHAPE_DT_F8E4M3: return ov::element::f8e4m3;
    case RESHAPE_DT_F8E5M2: return ov::element::f8e5m2;
    case RESHAPE_DT_S64: return ov::element::i64;
    case RESHAPE_DT_S32: return ov::element::i32;
    case RESHAPE_DT_S16: return ov::element::i16;
    case RESHAPE_DT_S8: return ov::element::i8;
    case RESHAPE_DT_U64: return ov::element::u64;
    case RESHAPE_DT_U32: return ov::element::u32;
    case RESHAPE_DT_U16: return ov::element::u16;
    case RESHAPE_DT_U8: return ov::element::u8;
    case RESHAPE_DT_S4: return ov::element::i4;
    case RESHAPE_DT_U4: return ov::element::u4;
    case RESHAPE_DT_U1: return ov::element::u1;
    case RESHAPE_DT_BOOLEAN: return ov::element::boolean;
    }
    return ov::element::dynamic;
}

// "2026.4.1-22982-...", the build of the libopenvino.so that is loaded.
inline void version_of(char *text, size_t size)
{
    std::snprintf(text, size, "%s", ov::get_openvino_version().buildNumber);
}

// Which data and shape dtypes an operation is handed to Reshape-1 with.
// Reshape-1's own (openvino_reshape_1) are all: OpenVINO decides.  The
// other texts are run where Reshape-1 expresses them, as OpenVINO's
// frontends build it: Reshape-1 has no oneDNN or ONNX type list, so a dtype
// outside the text's list is not a case of that text here.
inline reshape_status op_types(reshape_op op, reshape_dtype data, reshape_dtype shape)
{
    if (op == RESHAPE_OP_OPENVINO_RESHAPE_1)
        return RESHAPE_OK;
    if (!reshape_op_accepts_data_dtype(op, data))
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                    "Reshape-1 takes any element type; '%s' data is outside "
                                    "the list of '%s', which OpenVINO does not check",
                                    reshape_adapter_dtype_name(data), reshape_op_name(op));
    return shape_type_check(op, shape, "Reshape-1 takes any integer pattern");
}

// The special_zero of the Reshape-1 that expresses `params`, or
// NOT_SUPPORTED.  ONNX Reshape-14: OpenVINO's ONNX frontend
// (src/frontends/onnx/frontend/src/op/reshape.cpp) builds Reshape-1 with
// special_zero true when the shape is an input; allowzero 0 is that.  With
// allowzero 1 and no 0 in the shape special_zero changes nothing; with a 0
// it is not expressed (see README.md).
inline reshape_status special_zero_of(const reshape_params *params, bool *special_zero)
{
    *special_zero = params->special_zero != 0;
    if (params->op != RESHAPE_OP_ONNX_RESHAPE_14 || params->special_zero)
        return RESHAPE_OK;
    int64_t n = 1;
    for (int32_t i = 0; i < params->shape->rank; i++)
        n *= params->shape->dims[i];
    for (int64_t i = 0; i < n; i++) {
        int64_t v;
        if (reshape_adapter_shape_value(params->shape, i, &v) == 0 && v == 0)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                        "allowzero 1 with a 0 in the shape: OpenVINO's ONNX "
                                        "frontend builds Reshape-1 with special_zero true "
                                        "whatever allowzero says");
    }
    return RESHAPE_OK;
}

// The ov::Shape of an ABI tensor's dims (each >= 0: the kit checked).
inline ov::Shape shape_of(const reshape_tensor *t)
{
    ov::Shape s(static_cast<size_t>(t->rank));
    for (int32_t i = 0; i < t->rank; i++)
        s[i] = static_cast<size_t>(t->dims[i]);
    return s;
}

// The shape pattern as a Constant of its own dtype and dims, its bytes as
// they are (OpenVINO packs sub-byte types as the ABI does).
inline std::shared_ptr<ov::op::v0::Constant> pattern_constant(const reshape_tensor *shape)
{
    static const unsigned char none[8] = {0};
    return std::make_shared<ov::op::v0::Constant>(element_type(shape->dtype), shape_of(shape),
                                                  shape->data != nullptr ? shape->data : none);
}

// The one-node graph's Reshape: Parameter(data) and `pattern`.  Throws
// what OpenVINO's validate_and_infer_types throws.
inline std::shared_ptr<ov::op::v1::Reshape> reshape_node(
    const std::shared_ptr<ov::op::v0::Parameter> &data, const ov::Output<ov::Node> &pattern,
    bool special_zero)
{
    return std::make_shared<ov::op::v1::Reshape>(data, pattern, special_zero);
}

// The output dims of a node whose shape inference succeeded; INTERNAL when
// OpenVINO left them dynamic (it returned no static shape).
inline reshape_status output_dims(const ov::PartialShape &shape, int32_t *out_rank,
                                  int64_t *out_dims)
{
    if (!shape.is_static() || shape.size() > RESHAPE_MAX_RANK)
        return reshape_adapter_fail(RESHAPE_E_INTERNAL,
                                    "OpenVINO's shape inference gave the output shape %s, "
                                    "not a static shape of rank at most %d",
                                    shape.to_string().c_str(), RESHAPE_MAX_RANK);
    *out_rank = static_cast<int32_t>(shape.size());
    for (size_t i = 0; i < shape.size(); i++)
        out_dims[i] = shape[i].get_length();
    return RESHAPE_OK;
}

// The explanations OpenVINO's Reshape-1 shape inference gives
// (src/core/shape_inference/include/reshape_shape_inference.hpp,
// src/core/src/op/reshape.cpp) and the rule each checks.  An
// ov::NodeValidationFailure carries no code, only its text, so the text
// is the one signal: the first match wins, anything else is INTERNAL.
struct explanation {
    const char *text;
    reshape_status status;
};
constexpr explanation explanations[] = {
    {"More than one dimension has size of -1", RESHAPE_E_MULTIPLE_MINUS_ONE},
    {"has invalid bounds", RESHAPE_E_BELOW_MINUS_ONE},
    {"'0' dimension is out of range", RESHAPE_E_ZERO_OUT_OF_RANGE},
    {"Cannot infer '-1' dimension with zero-size output", RESHAPE_E_ZERO_AND_MINUS_ONE},
    {"do not evenly divide the input dimensions", RESHAPE_E_NOT_DIVISIBLE},
    {"is incompatible with input shape", RESHAPE_E_VOLUME_MISMATCH},
    {"Pattern shape must have rank 1 or be empty", RESHAPE_E_SHAPE_NOT_1D},
    {"scalar shape pattern should be equal to 1", RESHAPE_E_SHAPE_NOT_1D},
    {"pattern must be an integral number", RESHAPE_E_SHAPE_TYPE},
};

// Records OpenVINO's message (its first line, where the check and source
// line are, and its last, the explanation) and returns the status of the
// rule it names.  `where` names the call ("shape inference", "evaluate").
inline reshape_status threw(const char *where, const char *what)
{
    std::string text(what != nullptr ? what : "(no message)");
    reshape_status st = RESHAPE_E_INTERNAL;
    for (const explanation &e : explanations)
        if (text.find(e.text) != std::string::npos) {
            st = e.status;
            break;
        }
    // One line: "Check '...' failed at FILE:LINE: ... | explanation".
    std::string first = text.substr(0, text.find('\n'));
    size_t end = text.find_last_not_of("\n ");
    size_t last_start = text.rfind('\n', end == std::string::npos ? 0 : end);
    std::string last = last_start == std::string::npos
                           ? std::string()
                           : text.substr(last_start + 1, end - last_start);
    if (!last.empty() && last != first)
        first += " | " + last;
    return reshape_adapter_fail(st, "OpenVINO %s threw: %s", where, first.c_str());
}

// A host tensor over an ABI tensor's memory: dense, or with the ABI's
// element strides as byte strides (OpenVINO's unit) where the element has
// whole bytes.  A NULL `data` of an empty tensor gets a byte of its own.
// Throws what ov::Tensor's constructor throws.
inline ov::Tensor host_tensor(const reshape_tensor *t)
{
    static unsigned char empty_byte;
    void *data = t->data != nullptr ? t->data : &empty_byte;
    ov::element::Type et = element_type(t->dtype);
    if (t->strides == nullptr)
        return ov::Tensor(et, shape_of(t), data);
    ov::Strides bytes(static_cast<size_t>(t->rank));
    for (int32_t i = 0; i < t->rank; i++)
        bytes[i] = static_cast<size_t>(t->strides[i]) * et.size();
    return ov::Tensor(et, shape_of(t), data, bytes);
}

// The STRIDED_* flags of a call (no overlap listing: strides_expressible
// needs no more).
inline unsigned strided(const reshape_tensor *src, const reshape_tensor *dst)
{
    return (src->strides != nullptr ? RESHAPE_LAYOUT_STRIDED_SRC : 0u) |
           (dst->strides != nullptr ? RESHAPE_LAYOUT_STRIDED_DST : 0u);
}

// The layouts ov::Tensor can wrap: padded row-major strides, in place, and
// (where they keep that order) strides of size-1 dims; a broadcast src (a
// stride below its dense one) it refuses (src/inference/src/dev/
// make_tensor.cpp); other strides are tried and refused at the call.
constexpr unsigned tensor_layouts = RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST |
                                    RESHAPE_LAYOUT_IN_PLACE | RESHAPE_LAYOUT_SIZE1_STRIDES;

// Host tensors over src, the shape and dst into `in` (2) and `out` (1):
// RESHAPE_OK, or NOT_SUPPORTED with OpenVINO's reason when ov::Tensor
// refuses the strides.
inline reshape_status host_tensors(const reshape_tensor *src, const reshape_tensor *shape,
                                   const reshape_tensor *dst, ov::TensorVector *in,
                                   ov::TensorVector *out)
{
    try {
        *in = ov::TensorVector{host_tensor(src)};
        if (shape != nullptr)
            in->push_back(host_tensor(shape));
        *out = ov::TensorVector{host_tensor(dst)};
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        std::string text(e.what());
        size_t nl = text.find_last_not_of("\n ");
        size_t start = text.rfind('\n', nl == std::string::npos ? 0 : nl);
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "ov::Tensor cannot wrap the "
                                    "strides: %s", start == std::string::npos ? text.c_str()
                                    : text.substr(start + 1, nl - start).c_str());
    }
}

// For supports() and execute(): sub-byte elements have no byte strides.
inline reshape_status strides_expressible(reshape_dtype dtype, unsigned layout)
{
    if (reshape_dtype_bits(dtype) >= 8 ||
        !(layout & (RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST)))
        return RESHAPE_OK;
    return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "ov::Tensor takes strides in bytes; '%s' elements are "
                                "smaller than a byte",
                                reshape_adapter_dtype_name(dtype));
}

} // namespace ovr

#endif // OV_RESHAPE_HPP
