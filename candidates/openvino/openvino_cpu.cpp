// openvino_cpu.cpp - the ABI over OpenVINO's CPU plugin (the `openvino`
// wheel's libopenvino_intel_cpu_plugin.so, which libopenvino.so finds
// beside itself): the one-node model of openvino_core.cpp compiled for
// "CPU" by ov::Core::compile_model and run through an ov::InferRequest, the
// path users of the runtime take.  Two builds of this file:
//   openvino_cpu          the pattern a Constant (the model is static: the
//                         core's shape inference gives the output shape,
//                         the plugin copies);
//   openvino_cpu_pattern  (OV_PATTERN_PARAMETER) the pattern a second
//                         Parameter of its dtype and dims: the output shape
//                         is dynamic and the CPU node infers it at each
//                         infer() (ReshapeShapeInfer).
// The plugin runs with one inference thread and one stream
// (ov::inference_num_threads(1), ov::num_streams(1), as OpenVINO's docs
// say for single-threaded inference) and otherwise its defaults: the
// inference precision it picks is kept and reported (README.md).
// Compiled models are cached per (data dtype and dims, pattern dtype, dims
// and, for openvino_cpu, values, special_zero), up to `cache_limit`.
// No exception leaves an entry point.
#include <openvino/runtime/core.hpp>
#include <openvino/runtime/properties.hpp>

#include <mutex>
#include <unordered_map>

#include "ov_reshape.hpp"

#ifndef OV_PATTERN_PARAMETER
#define OV_PATTERN_PARAMETER 0
#endif
#if OV_PATTERN_PARAMETER
#define OV_CPU_NAME "openvino_cpu_pattern"
#else
#define OV_CPU_NAME "openvino_cpu"
#endif

namespace {

constexpr size_t cache_limit = 4096;
// infer_shape of openvino_cpu_pattern runs the model on zeros of the
// input's size: up to this many bytes.
constexpr size_t zeros_limit = 64u << 20;

ov::Core *core;
std::mutex cache_lock;
std::unordered_map<std::string, ov::CompiledModel> *cache;

ov::AnyMap plugin_config()
{
    return ov::AnyMap{ov::inference_num_threads(1), ov::num_streams(1)};
}

// Loads the CPU plugin and compiles and runs one model, so that what the
// plugin starts (its threads) is there when the harness has loaded the
// candidate, not left behind by a call.  Writes the version.
void start(char *version, size_t size)
{
    ovr::version_of(version, size);
    try {
        core = new ov::Core();
        cache = new std::unordered_map<std::string, ov::CompiledModel>();
        auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::f32, ov::Shape{2, 3});
        auto pattern = ov::op::v0::Constant::create(ov::element::i64, ov::Shape{1}, {6});
        auto node = ovr::reshape_node(data, pattern, false);
        auto model = std::make_shared<ov::Model>(ov::OutputVector{node},
                                                 ov::ParameterVector{data});
        auto request = core->compile_model(model, "CPU", plugin_config()).create_infer_request();
        request.infer();
    } catch (...) {
        // The first call reports it: compile_model throws again there.
    }
}

reshape_status cpu_supports(reshape_op op, reshape_dtype data_dtype, reshape_dtype shape_dtype,
                            unsigned layout)
{
    reshape_status st;
    if ((st = reshape_adapter_check_layout(op, layout, ovr::tensor_layouts, "ov::Tensor")) !=
            RESHAPE_OK ||
        (st = ovr::strides_expressible(data_dtype, layout)) != RESHAPE_OK)
        return st;
    if (OV_PATTERN_PARAMETER && op == RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                    "StaticReshape's shape is an attribute, not a tensor: "
                                    "openvino_cpu runs it as a Constant");
    return ovr::op_types(op, data_dtype, shape_dtype);
}

// The cache's key of a call's model.
std::string model_key(const reshape_tensor *src, const reshape_tensor *shape, bool special_zero)
{
    std::string key;
    auto put = [&key](const void *p, size_t n) { key.append(static_cast<const char *>(p), n); };
    put(&src->dtype, sizeof src->dtype);
    put(&src->rank, sizeof src->rank);
    put(src->dims, sizeof(int64_t) * static_cast<size_t>(src->rank));
    put(&shape->dtype, sizeof shape->dtype);
    put(&shape->rank, sizeof shape->rank);
    put(shape->dims, sizeof(int64_t) * static_cast<size_t>(shape->rank));
    put(&special_zero, sizeof special_zero);
    if (!OV_PATTERN_PARAMETER) {
        ov::Tensor values = ovr::host_tensor(shape);
        put(values.data(), values.get_byte_size());
    }
    return key;
}

// The compiled model of a call, from the cache or made now: the node's
// shape inference (OpenVINO's, as the model is built) and compile_model.
reshape_status compiled(const reshape_params *params, const reshape_tensor *src,
                        ov::CompiledModel *out)
{
    reshape_status st;
    bool special_zero;
    if ((st = ovr::op_types(params->op, src->dtype, params->shape->dtype)) != RESHAPE_OK ||
        (st = ovr::special_zero_of(params, &special_zero)) != RESHAPE_OK)
        return st;
    if (core == nullptr)
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "ov::Core could not be made");
    std::string key = model_key(src, params->shape, special_zero);
    {
        std::lock_guard<std::mutex> hold(cache_lock);
        auto it = cache->find(key);
        if (it != cache->end()) {
            *out = it->second;
            return RESHAPE_OK;
        }
    }
    std::shared_ptr<ov::Model> model;
    try {
        auto data = std::make_shared<ov::op::v0::Parameter>(ovr::element_type(src->dtype),
                                                            ovr::shape_of(src));
        ov::ParameterVector inputs{data};
        std::shared_ptr<ov::Node> pattern = ovr::pattern_constant(params->shape);
        if (OV_PATTERN_PARAMETER) {
            auto p = std::make_shared<ov::op::v0::Parameter>(
                ovr::element_type(params->shape->dtype), ovr::shape_of(params->shape));
            inputs.push_back(p);
            pattern = p;
        }
        auto node = ovr::reshape_node(data, pattern, special_zero);
        model = std::make_shared<ov::Model>(ov::OutputVector{node}, inputs);
    } catch (const std::exception &e) {
        return ovr::threw("shape inference (Reshape's constructor)", e.what());
    }
    try {
        *out = core->compile_model(model, "CPU", plugin_config());
    } catch (const std::exception &e) {
        // The plugin says a type has no implementation only in its text
        // ("CPU plugin: Input image format u1 is not supported yet").
        if (std::strstr(e.what(), "is not supported") != nullptr) {
            ovr::threw("compile_model", e.what());
            char text[512];
            std::snprintf(text, sizeof text, "%s", reshape_adapter_last_error());
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "%s", text);
        }
        return ovr::threw("compile_model", e.what());
    }
    std::lock_guard<std::mutex> hold(cache_lock);
    if (cache->size() >= cache_limit)
        cache->clear();
    cache->emplace(key, *out);
    return RESHAPE_OK;
}

// Runs `model` on `in` into `out` (empty: the plugin's own output).
// Returns RESHAPE_OK with the output's shape in *shape, or what it threw.
reshape_status run(ov::CompiledModel &model, const ov::TensorVector &in,
                   const ov::TensorVector &out, ov::Shape *shape)
{
    try {
        ov::InferRequest request = model.create_infer_request();
        for (size_t i = 0; i < in.size(); i++)
            request.set_input_tensor(i, in[i]);
        if (!out.empty())
            request.set_output_tensor(out[0]);
        request.infer();
        *shape = request.get_output_tensor().get_shape();
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        return ovr::threw("InferRequest::infer", e.what());
    }
}

// The output dims: the compiled model's (openvino_cpu), or those of a run
// on zeros (openvino_cpu_pattern, whose output shape is dynamic).
reshape_status cpu_dims(ov::CompiledModel &model, const reshape_params *params,
                        const reshape_tensor *src, int32_t *rank, int64_t *dims)
{
    if (!OV_PATTERN_PARAMETER) {
        try {
            return ovr::output_dims(model.output(0).get_partial_shape(), rank, dims);
        } catch (const std::exception &e) {
            return ovr::threw("CompiledModel::output", e.what());
        }
    }
    reshape_status st;
    ov::Shape shape;
    ov::TensorVector in;
    try {
        ov::Tensor zeros(ovr::element_type(src->dtype), ovr::shape_of(src));
        if (zeros.get_byte_size() > zeros_limit)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                        "infer_shape runs the model on zeros; the input "
                                        "holds over %zu bytes", zeros_limit);
        std::memset(zeros.data(), 0, zeros.get_byte_size());
        in = ov::TensorVector{zeros, ovr::host_tensor(params->shape)};
    } catch (const std::exception &e) {
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "ov::Tensor of the input: %s",
                                    e.what());
    }
    if ((st = run(model, in, {}, &shape)) != RESHAPE_OK)
        return st;
    return ovr::output_dims(ov::PartialShape(shape), rank, dims);
}

reshape_status cpu_infer_shape(const reshape_params *params, const reshape_tensor *src,
                               int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    ov::CompiledModel model;
    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK ||
        (st = compiled(params, src, &model)) != RESHAPE_OK)
        return st;
    return cpu_dims(model, params, src, out_rank, out_dims);
}

reshape_status cpu_execute(const reshape_params *params, const reshape_tensor *src,
                           const reshape_tensor *dst)
{
    reshape_status st;
    ov::CompiledModel model;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    ov::TensorVector in, out;
    ov::Shape shape;
    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = ovr::strides_expressible(src->dtype, ovr::strided(src, dst))) != RESHAPE_OK ||
        (st = compiled(params, src, &model)) != RESHAPE_OK ||
        (st = cpu_dims(model, params, src, &rank, dims)) != RESHAPE_OK ||
        (st = reshape_adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK ||
        (st = ovr::host_tensors(src, OV_PATTERN_PARAMETER ? params->shape : nullptr, dst, &in,
                                &out)) != RESHAPE_OK)
        return st;
    return run(model, in, out, &shape);
}

} // namespace

RESHAPE_ADAPTER_DEFINE_LOADED(OV_CPU_NAME, start, cpu_supports, cpu_infer_shape, cpu_execute,
                              nullptr)
