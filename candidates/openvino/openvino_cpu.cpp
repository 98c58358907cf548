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
// and, for openvino_cpu, values, special_zero), up to `cache_limit`; each
// entry also holds an InferRequest over tensors of its own (the "anchor"),
// run before each strided call (README.md, "Anchor": the plugin's graph
// keeps pointing at the buffers of the last request that it read in place).
// Models with an input or output over `compile_limit` bytes are refused
// before compile_model.
// No exception leaves an entry point.
#include <openvino/runtime/core.hpp>
#include <openvino/runtime/properties.hpp>

#include <algorithm>
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
// The bytes the anchors of the cache's entries may hold together (then the
// cache is cleared).
constexpr size_t anchor_bytes_limit = 512u << 20;
// infer_shape of openvino_cpu_pattern runs the model on zeros of the
// input's size: up to this many bytes.
constexpr size_t zeros_limit = 64u << 20;
// compile_model of a static model allocates its input (and output) in the
// plugin's own memory: an input of 8 GiB took over 10 s on the 2-core VM,
// and an output of 6 GiB was allocated in one run and "Failed to allocate"
// in the next (README.md, "Limits").  Models with a tensor over this many
// bytes are not compiled.
constexpr uint64_t compile_limit = 1ull << 30;

// A compiled model and its anchor: an InferRequest over tensors the entry
// owns (the plugin's own for openvino_cpu; zeros of the input's shape and
// the last call's pattern for openvino_cpu_pattern, whose anchor run is also
// infer_shape's run on zeros), made at the first call that needs it.
// Running it before a call points the graph's edges into the anchor's
// tensors, so that what the call's request does not read in place (a
// strided tensor, copied) is never written through a pointer an earlier
// call's request left in the graph (into that call's buffer, by then the
// caller's other memory or freed).  `lock` keeps the anchor run and the
// call together when threads share the entry.
struct entry {
    ov::CompiledModel model;
    ov::InferRequest anchor;
    ov::Tensor zeros, pattern; // the anchor's input memory, its pattern
    std::shared_ptr<std::mutex> lock = std::make_shared<std::mutex>();
};

ov::Core *core;
std::mutex cache_lock;
std::unordered_map<std::string, std::shared_ptr<entry>> *cache;
size_t anchor_bytes;

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
        cache = new std::unordered_map<std::string, std::shared_ptr<entry>>();
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

// The bytes of a dense tensor of `dtype` and `t`'s dims, or UINT64_MAX when
// they leave 64 bits.
uint64_t dense_bytes(reshape_dtype dtype, const reshape_tensor *t)
{
    int64_t count;
    size_t bytes;
    if (reshape_adapter_volume(t, &count) != 0 ||
        reshape_adapter_payload_bytes(dtype, count, &bytes) != 0)
        return UINT64_MAX;
    return bytes;
}

// The cache entry of a call, from the cache or made now: the node's shape
// inference (OpenVINO's, as the model is built) and compile_model.
reshape_status compiled(const reshape_params *params, const reshape_tensor *src,
                        std::shared_ptr<entry> *out)
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
    uint64_t out_bytes = 0;
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
        // The output's bytes where shape inference gave a static shape (a
        // copied 0 lets it outgrow the input: finding 1).
        const ov::PartialShape &shape = node->get_output_partial_shape(0);
        if (shape.is_static()) {
            uint64_t n = 1;
            for (const auto &d : shape)
                if (__builtin_mul_overflow(n, static_cast<uint64_t>(d.get_length()), &n))
                    n = UINT64_MAX / 64;
            out_bytes = n > UINT64_MAX / 64 ? UINT64_MAX
                                             : (n * reshape_dtype_bits(src->dtype) + 7) / 8;
        }
    } catch (const std::exception &e) {
        return ovr::threw("shape inference (Reshape's constructor)", e.what());
    }
    // After shape inference, so that a shape it refuses is refused as it says.
    uint64_t bytes = std::max(dense_bytes(src->dtype, src), out_bytes);
    if (bytes > compile_limit)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                    "the model's input or output holds %s bytes; compile_model "
                                    "allocates a static model's tensors in the CPU plugin's own "
                                    "memory, and this adapter compiles models of at most %llu "
                                    "bytes a tensor (1 GiB)",
                                    bytes == UINT64_MAX ? "over 2^64"
                                                        : std::to_string(bytes).c_str(),
                                    static_cast<unsigned long long>(compile_limit));
    auto made = std::make_shared<entry>();
    try {
        made->model = core->compile_model(model, "CPU", plugin_config());
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
    if (cache->size() >= cache_limit || anchor_bytes > anchor_bytes_limit) {
        cache->clear();
        anchor_bytes = 0;
    }
    *out = cache->emplace(key, made).first->second;
    return RESHAPE_OK;
}

// Makes `e`'s anchor if it has none (openvino_cpu_pattern: with zeros of
// src's shape).  Call with e->lock held.
reshape_status make_anchor(entry *e, const reshape_tensor *src, const reshape_tensor *shape)
{
    if (e->anchor)
        return RESHAPE_OK;
    size_t bytes = 0;
    try {
        if (OV_PATTERN_PARAMETER) {
            ov::Tensor zeros(ovr::element_type(src->dtype), ovr::shape_of(src));
            if (zeros.get_byte_size() > zeros_limit)
                return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                            "infer_shape runs the model on zeros; the input "
                                            "holds over %zu bytes", zeros_limit);
            std::memset(zeros.data(), 0, zeros.get_byte_size());
            e->zeros = zeros;
            e->pattern = ov::Tensor(ovr::element_type(shape->dtype), ovr::shape_of(shape));
            bytes = zeros.get_byte_size();
        }
        ov::InferRequest anchor = e->model.create_infer_request();
        if (OV_PATTERN_PARAMETER) {
            anchor.set_input_tensor(0, e->zeros);
            anchor.set_input_tensor(1, e->pattern);
        } else {
            // The input over memory of the output's size where that is
            // larger: a model whose shape inference let the output outgrow
            // the input (a copied 0) reads that far (finding 1).
            ov::Tensor in = anchor.get_input_tensor(), out = anchor.get_output_tensor();
            size_t size = std::max(in.get_byte_size(), out.get_byte_size());
            e->zeros = ov::Tensor(ov::element::u8, ov::Shape{std::max<size_t>(size, 1)});
            std::memset(e->zeros.data(), 0, e->zeros.get_byte_size());
            anchor.set_input_tensor(ov::Tensor(in.get_element_type(), in.get_shape(),
                                               e->zeros.data()));
            bytes = e->zeros.get_byte_size() + out.get_byte_size();
        }
        e->anchor = anchor;
    } catch (const std::exception &ex) {
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "the anchor's tensors: %s",
                                    ex.what());
    }
    std::lock_guard<std::mutex> hold(cache_lock);
    anchor_bytes += bytes;
    return RESHAPE_OK;
}

// Runs `e`'s anchor (with the call's pattern values for
// openvino_cpu_pattern), leaving the graph's edges on its tensors; its
// output shape in *shape (openvino_cpu_pattern's infer_shape).  Call with
// e->lock held, after make_anchor.
reshape_status run_anchor(entry *e, const reshape_tensor *shape, ov::Shape *out)
{
    try {
        if (OV_PATTERN_PARAMETER) {
            std::memset(e->zeros.data(), 0, e->zeros.get_byte_size());
            ov::Tensor values = ovr::host_tensor(shape);
            std::memcpy(e->pattern.data(), values.data(), values.get_byte_size());
        }
        e->anchor.infer();
        *out = e->anchor.get_output_tensor().get_shape();
        return RESHAPE_OK;
    } catch (const std::exception &ex) {
        return ovr::threw("InferRequest::infer", ex.what());
    }
}

// Runs `model` on `in` into `out`, a request of its own.  Returns
// RESHAPE_OK, or what it threw.
reshape_status run(ov::CompiledModel &model, const ov::TensorVector &in,
                   const ov::TensorVector &out)
{
    try {
        ov::InferRequest request = model.create_infer_request();
        for (size_t i = 0; i < in.size(); i++)
            request.set_input_tensor(i, in[i]);
        request.set_output_tensor(out[0]);
        request.infer();
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        return ovr::threw("InferRequest::infer", e.what());
    }
}

// The output dims: the compiled model's (openvino_cpu), or those of the
// anchor's run on zeros (openvino_cpu_pattern, whose output shape is
// dynamic).  Call with e->lock held; runs the anchor (both builds).
reshape_status cpu_dims(entry *e, const reshape_params *params, const reshape_tensor *src,
                        bool anchor, int32_t *rank, int64_t *dims)
{
    reshape_status st;
    ov::Shape shape;
    if ((OV_PATTERN_PARAMETER || anchor) &&
        ((st = make_anchor(e, src, params->shape)) != RESHAPE_OK ||
         (st = run_anchor(e, params->shape, &shape)) != RESHAPE_OK))
        return st;
    if (OV_PATTERN_PARAMETER)
        return ovr::output_dims(ov::PartialShape(shape), rank, dims);
    try {
        return ovr::output_dims(e->model.output(0).get_partial_shape(), rank, dims);
    } catch (const std::exception &ex) {
        return ovr::threw("CompiledModel::output", ex.what());
    }
}

reshape_status cpu_infer_shape(const reshape_params *params, const reshape_tensor *src,
                               int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    std::shared_ptr<entry> e;
    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK ||
        (st = compiled(params, src, &e)) != RESHAPE_OK)
        return st;
    std::lock_guard<std::mutex> hold(*e->lock);
    return cpu_dims(e.get(), params, src, false, out_rank, out_dims);
}

// The call's own request over the caller's tensors, under the entry's
// lock, with the anchor run right before it where it matters: in every call
// of openvino_cpu_pattern (whose dims come from it), and in a call of
// openvino_cpu with a strided src or dst (a dense call has the graph read
// its own tensors in place, whatever an earlier call left).  Run there, and
// not before the checks, so that a call refused by a check runs no infer
// (the plugin's stream thread may still be running when infer returns: the
// harness's "not proven final").
reshape_status cpu_execute(const reshape_params *params, const reshape_tensor *src,
                           const reshape_tensor *dst)
{
    reshape_status st;
    std::shared_ptr<entry> e;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    ov::TensorVector in, out;
    ov::Shape shape;
    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = ovr::strides_expressible(src->dtype, ovr::strided(src, dst))) != RESHAPE_OK ||
        (st = compiled(params, src, &e)) != RESHAPE_OK)
        return st;
    std::lock_guard<std::mutex> hold(*e->lock);
    if ((st = cpu_dims(e.get(), params, src, false, &rank, dims)) != RESHAPE_OK ||
        (st = reshape_adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK ||
        (st = ovr::host_tensors(src, OV_PATTERN_PARAMETER ? params->shape : nullptr, dst, &in,
                                &out)) != RESHAPE_OK)
        return st;
    if (!OV_PATTERN_PARAMETER && ovr::strided(src, dst) != 0 &&
        ((st = make_anchor(e.get(), src, params->shape)) != RESHAPE_OK ||
         (st = run_anchor(e.get(), params->shape, &shape)) != RESHAPE_OK))
        return st;
    return run(e->model, in, out);
}

} // namespace

RESHAPE_ADAPTER_DEFINE_LOADED(OV_CPU_NAME, start, cpu_supports, cpu_infer_shape, cpu_execute,
                              nullptr)
