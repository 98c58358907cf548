// openvino_core.cpp - the ABI over OpenVINO's core (libopenvino.so of the
// `openvino` wheel): one ov::op::v1::Reshape per call, over a Parameter of
// the case's element type and static shape and the pattern as a Constant of
// the case's shape dtype.  infer_shape is the node's own shape inference
// (its constructor runs validate_and_infer_types); execute is
// Reshape::evaluate on host tensors over the caller's memory, the path of
// OpenVINO's constant folding.  No plugin is loaded and no thread started.
// Depends on ov_reshape.hpp (and through it the adapter kit and OpenVINO's
// headers).  No exception leaves an entry point.
#include "ov_reshape.hpp"

namespace {

// The layouts ov::Tensor can wrap, handed to evaluate as they are (sub-byte
// elements: dense only, ovr::strides_expressible).
constexpr unsigned handled = ovr::tensor_layouts;

reshape_status core_supports(reshape_op op, reshape_dtype data_dtype,
                             reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st;
    if ((st = reshape_adapter_check_layout(op, layout, handled, "ov::Tensor")) != RESHAPE_OK)
        return st;
    if ((st = ovr::strides_expressible(data_dtype, layout)) != RESHAPE_OK)
        return st;
    if (ovr::element_type(data_dtype) == ov::element::dynamic ||
        ovr::element_type(shape_dtype) == ov::element::dynamic)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "no OpenVINO element type");
    return ovr::op_types(op, data_dtype, shape_dtype);
}

// The Reshape node of a call: OpenVINO infers its output shape as it is
// made.  Returns RESHAPE_OK with *node set, or what OpenVINO refused.
reshape_status make_node(const reshape_params *params, const reshape_tensor *src,
                         std::shared_ptr<ov::op::v1::Reshape> *node)
{
    reshape_status st;
    bool special_zero;
    if ((st = ovr::op_types(params->op, src->dtype, params->shape->dtype)) != RESHAPE_OK ||
        (st = ovr::special_zero_of(params, &special_zero)) != RESHAPE_OK)
        return st;
    try {
        auto data = std::make_shared<ov::op::v0::Parameter>(ovr::element_type(src->dtype),
                                                            ovr::shape_of(src));
        *node = ovr::reshape_node(data, ovr::pattern_constant(params->shape), special_zero);
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        return ovr::threw("shape inference (Reshape's constructor)", e.what());
    } catch (...) {
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "OpenVINO threw a non-std exception");
    }
}

reshape_status core_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    std::shared_ptr<ov::op::v1::Reshape> node;
    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK ||
        (st = make_node(params, src, &node)) != RESHAPE_OK)
        return st;
    return ovr::output_dims(node->get_output_partial_shape(0), out_rank, out_dims);
}

reshape_status core_execute(const reshape_params *params, const reshape_tensor *src,
                            const reshape_tensor *dst)
{
    reshape_status st;
    std::shared_ptr<ov::op::v1::Reshape> node;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = ovr::strides_expressible(src->dtype, ovr::strided(src, dst))) != RESHAPE_OK ||
        (st = make_node(params, src, &node)) != RESHAPE_OK ||
        (st = ovr::output_dims(node->get_output_partial_shape(0), &rank, dims)) != RESHAPE_OK ||
        (st = reshape_adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK)
        return st;
    ov::TensorVector inputs, outputs;
    if ((st = ovr::host_tensors(src, params->shape, dst, &inputs, &outputs)) != RESHAPE_OK)
        return st;
    try {
        if (!node->evaluate(outputs, inputs))
            return reshape_adapter_fail(RESHAPE_E_INTERNAL,
                                        "ov::op::v1::Reshape::evaluate returned false");
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        return ovr::threw("Reshape::evaluate", e.what());
    } catch (...) {
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "OpenVINO threw a non-std exception");
    }
}

} // namespace

RESHAPE_ADAPTER_DEFINE_LOADED("openvino_core", ovr::version_of, core_supports,
                              core_infer_shape, core_execute, nullptr)
