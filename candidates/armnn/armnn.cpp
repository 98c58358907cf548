// armnn.cpp - the ABI over Arm NN 20.08's Reshape layer on its CpuRef
// backend (Debian 12's libarmnn-dev and libarmnn-cpuref-backend22): per
// call a network Input -> Reshape -> Output, optimized for CpuRef and
// loaded into one runtime; LoadNetwork validates the layer's workload,
// infer_shape reads the output it was given back, execute runs it with
// EnqueueWorkload on the caller's buffers.  The target shape comes from
// parser_shape.cpp, as Arm NN's parsers compute it.  Depends on the
// adapter kit (include/reshape_adapter.h), parser_shape.h and Arm NN's
// public headers.
//
// What Arm NN carries: dense tensors (no strides), 0 to 5 dims of unsigned
// int, DataType Float32, Float16, BFloat16, Signed32, QAsymmU8 (u8),
// QAsymmS8 (s8), QSymmS16 (s16) and Boolean, quantized ones with scale 1 and
// offset 0 (the bytes are the integers).  CpuRef's Reshape refuses Boolean;
// supports() asks it.  Arm NN throws; every entry point catches.  One mutex
// serialises calls into the runtime.  README.md has the status mapping.
#include <climits>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include <armnn/ArmNN.hpp>
#include <armnn/BackendHelper.hpp>
#include <armnn/Utils.hpp>
#include <armnn/Version.hpp>

#include "reshape_adapter.h"

#include "../shape_types.h"
#include "armnn_version.h" // ARMNN_PACKAGE_VERSION, asked of dpkg at build time
#include "parser_shape.h"

namespace {

const reshape_adapter_type armnn_types[] = {
    {RESHAPE_DT_F32, (int)armnn::DataType::Float32},
    {RESHAPE_DT_F16, (int)armnn::DataType::Float16},
    {RESHAPE_DT_BF16, (int)armnn::DataType::BFloat16},
    {RESHAPE_DT_S32, (int)armnn::DataType::Signed32},
    {RESHAPE_DT_U8, (int)armnn::DataType::QAsymmU8},
    {RESHAPE_DT_S8, (int)armnn::DataType::QAsymmS8},
    {RESHAPE_DT_S16, (int)armnn::DataType::QSymmS16},
    {RESHAPE_DT_BOOLEAN, (int)armnn::DataType::Boolean},
};

#define DENSE "Arm NN tensors are dense"
const armnn::BackendId CPU_REF("CpuRef");

// The Arm NN DataType of `dtype` into *type, or NOT_SUPPORTED.
reshape_status type_of(reshape_dtype dtype, armnn::DataType *type)
{
    int t;
    reshape_status st = reshape_adapter_map_dtype(armnn_types, RESHAPE_ADAPTER_COUNT(armnn_types),
                                                  dtype, "Arm NN has no DataType", &t);
    *type = (armnn::DataType)t;
    return st;
}

// The runtime, made on first use with Arm NN's logging off (it would write
// to stdout); `runtime_error` says why there is none.
std::once_flag runtime_once;
armnn::IRuntime *runtime;
std::string runtime_error;
std::mutex runtime_lock;

void make_runtime()
{
    try {
        armnn::ConfigureLogging(false, false, armnn::LogSeverity::Fatal);
        runtime = armnn::IRuntime::CreateRaw(armnn::IRuntime::CreationOptions());
        for (const armnn::BackendId &b : runtime->GetDeviceSpec().GetSupportedBackends())
            if (b == CPU_REF)
                return;
        runtime_error = "the Arm NN runtime found no CpuRef backend "
                        "(libarmnn-cpuref-backend22 installs it)";
    } catch (const std::exception &e) {
        runtime_error = std::string("the Arm NN runtime did not start: ") + e.what();
    }
}

reshape_status ready()
{
    std::call_once(runtime_once, make_runtime);
    if (!runtime_error.empty())
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "%s", runtime_error.c_str());
    return RESHAPE_OK;
}

// Arm NN's messages and the rule each names; the first match wins, other
// refusals of the input are INVALID_ARGUMENT (the nearest status that
// claims no spec rule).
const struct {
    const char *text;
    reshape_status status;
} messages[] = {
    {"input & output must have the same number of elements", RESHAPE_E_VOLUME_MISMATCH},
    {"is not supported on any preferred backend", RESHAPE_E_NOT_SUPPORTED},
};

reshape_status map_message(const std::string &text, reshape_status otherwise)
{
    reshape_status st = otherwise;
    for (const auto &m : messages)
        if (text.find(m.text) != std::string::npos) {
            st = m.status;
            break;
        }
    return reshape_adapter_fail(st, "Arm NN refused the reshape: %s", text.c_str());
}

// The network loaded last, kept for the next call on the same input and
// target (the repeat and perf variants make one call thousands of times;
// loading costs 0.27 ms a call on a busy 2-core host, running alone a
// fraction of it).  One at most, and only while its tensors are small, so
// it holds little memory; guarded by runtime_lock.
struct network {
    bool valid = false;
    armnn::DataType type;
    armnn::TensorShape in, target;
    armnn::NetworkId id = 0;
} last;

const unsigned int KEEP_MAX_BYTES = 16u << 20;

void forget_last()
{
    if (last.valid)
        runtime->UnloadNetwork(last.id);
    last.valid = false;
}

// Builds, optimizes and loads Input -> Reshape(target) -> Output for
// `src`'s dtype and dims, or finds it loaded, into `last`.  RESHAPE_OK or
// the mapped refusal (then `last` is empty).
reshape_status load(const reshape_params *params, const reshape_tensor *src)
{
    armnn::DataType type;
    armnn::TensorShape in;
    std::string why;
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count;
    reshape_status st;

    if ((st = type_of(src->dtype, &type)) != RESHAPE_OK ||
        (st = reshape_adapter_shape_list(params, RESHAPE_ADAPTER_COPY_ZERO, values, &count)) !=
            RESHAPE_OK)
        return st;
    if ((st = input_shape(src->rank, src->dims, &in, &why)) != RESHAPE_OK)
        return reshape_adapter_fail(st, "%s", why.c_str());
    parser_result target = parser_shape(in, values, count, params->special_zero);
    if (target.status != RESHAPE_OK)
        return reshape_adapter_fail(target.status, "%s", target.why.c_str());
    if (last.valid && last.type == type && last.in == in && last.target == target.shape)
        return RESHAPE_OK;
    forget_last();

    armnn::INetworkPtr net = armnn::INetwork::Create();
    armnn::ReshapeDescriptor descriptor(target.shape);
    armnn::IConnectableLayer *input = net->AddInputLayer(0);
    armnn::IConnectableLayer *reshape = net->AddReshapeLayer(descriptor, "reshape");
    armnn::IConnectableLayer *output = net->AddOutputLayer(0);
    input->GetOutputSlot(0).Connect(reshape->GetInputSlot(0));
    reshape->GetOutputSlot(0).Connect(output->GetInputSlot(0));
    input->GetOutputSlot(0).SetTensorInfo(armnn::TensorInfo(in, type, 1.0f, 0));
    reshape->GetOutputSlot(0).SetTensorInfo(armnn::TensorInfo(target.shape, type, 1.0f, 0));

    std::vector<std::string> notes;
    armnn::IOptimizedNetworkPtr optimized =
        armnn::Optimize(*net, {CPU_REF}, runtime->GetDeviceSpec(), armnn::OptimizerOptions(),
                        armnn::Optional<std::vector<std::string> &>(notes));
    if (!optimized) {
        std::string all;
        for (const std::string &n : notes)
            all += (all.empty() ? "" : "; ") + n.substr(0, n.find('\n'));
        return map_message("Optimize: " + all, RESHAPE_E_INVALID_ARGUMENT);
    }
    if (runtime->LoadNetwork(last.id, std::move(optimized), why) != armnn::Status::Success)
        return map_message("LoadNetwork: " + why, RESHAPE_E_INVALID_ARGUMENT);
    last.valid = true;
    last.type = type;
    last.in = in;
    last.target = target.shape;
    return RESHAPE_OK;
}

// After a call: a network whose tensors are large is not kept.
void keep_if_small()
{
    if (last.valid &&
        runtime->GetInputTensorInfo(last.id, 0).GetNumBytes() > KEEP_MAX_BYTES)
        forget_last();
}

// The dims of the output of `last` (a scalar: rank 0).
void output_dims(int32_t *rank, int64_t *dims)
{
    armnn::TensorShape out = runtime->GetOutputTensorInfo(last.id, 0).GetShape();
    *rank = out.GetDimensionality() == armnn::Dimensionality::Scalar
                ? 0 : (int32_t)out.GetNumDimensions();
    for (int32_t i = 0; i < *rank; i++)
        dims[i] = out[(unsigned int)i];
}

reshape_status an_supports(reshape_op op, reshape_dtype data_dtype, reshape_dtype shape_dtype,
                           unsigned layout)
{
    armnn::DataType type;
    reshape_status st = reshape_adapter_check_layout(op, layout, RESHAPE_LAYOUT_IN_PLACE, DENSE);
    if (st != RESHAPE_OK || (st = type_of(data_dtype, &type)) != RESHAPE_OK ||
        (st = shape_type_check(op, shape_dtype,
                               "Arm NN takes the target as a TensorShape")) != RESHAPE_OK ||
        (st = ready()) != RESHAPE_OK)
        return st;
    try {
        std::string why;
        armnn::TensorInfo info(armnn::TensorShape({1}), type, 1.0f, 0);
        armnn::ReshapeDescriptor descriptor(armnn::TensorShape({1}));
        if (armnn::GetILayerSupportByBackendId(CPU_REF)->IsReshapeSupported(
                info, info, descriptor, armnn::Optional<std::string &>(why)))
            return RESHAPE_OK;
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "CpuRef: %s",
                                    why.substr(0, why.find('\n')).c_str());
    } catch (const std::exception &e) {
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "Arm NN threw: %s", e.what());
    }
}

reshape_status an_infer_shape(const reshape_params *params, const reshape_tensor *src,
                              int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st = reshape_adapter_check_infer(params, src, out_rank, out_dims);
    if (st != RESHAPE_OK || (st = ready()) != RESHAPE_OK)
        return st;
    std::lock_guard<std::mutex> hold(runtime_lock);
    try {
        if ((st = load(params, src)) == RESHAPE_OK)
            output_dims(out_rank, out_dims);
        keep_if_small();
        return st;
    } catch (const std::exception &e) {
        return map_message(e.what(), RESHAPE_E_INVALID_ARGUMENT);
    }
}

reshape_status an_execute(const reshape_params *params, const reshape_tensor *src,
                          const reshape_tensor *dst)
{
    static unsigned char empty_byte; // Arm NN's tensors want memory, even empty
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    reshape_status st = reshape_adapter_check_execute(params, src, dst);
    if (st != RESHAPE_OK ||
        (st = reshape_adapter_check_layout(params->op, reshape_adapter_layout(src, dst),
                                           RESHAPE_LAYOUT_IN_PLACE, DENSE)) != RESHAPE_OK ||
        (st = ready()) != RESHAPE_OK)
        return st;
    std::lock_guard<std::mutex> hold(runtime_lock);
    try {
        if ((st = load(params, src)) != RESHAPE_OK)
            return st;
        output_dims(&rank, dims);
        if ((st = reshape_adapter_check_dst(src, dst, rank, dims)) == RESHAPE_OK) {
            armnn::InputTensors in{
                {0, armnn::ConstTensor(runtime->GetInputTensorInfo(last.id, 0),
                                       src->data != nullptr ? src->data : &empty_byte)}};
            armnn::OutputTensors out{
                {0, armnn::Tensor(runtime->GetOutputTensorInfo(last.id, 0),
                                  dst->data != nullptr ? dst->data : &empty_byte)}};
            if (runtime->EnqueueWorkload(last.id, in, out) != armnn::Status::Success)
                st = reshape_adapter_fail(RESHAPE_E_INTERNAL, "EnqueueWorkload failed");
        }
        keep_if_small();
        return st;
    } catch (const std::exception &e) {
        return map_message(e.what(), RESHAPE_E_INVALID_ARGUMENT);
    }
}

// What Arm NN can hold, declared for the harness: 5 dims of unsigned int,
// an element count of unsigned int (TensorShape::GetNumElements), the
// DataTypes CpuRef's Reshape takes, dense tensors.
const reshape_limits limits = {
    sizeof(reshape_limits),
    (int32_t)armnn::MaxNumOfTensorDimensions,
    (int64_t)UINT_MAX,
    (int64_t)UINT_MAX,
    0,
    (1u << RESHAPE_DT_F32) | (1u << RESHAPE_DT_F16) | (1u << RESHAPE_DT_BF16) |
        (1u << RESHAPE_DT_S32) | (1u << RESHAPE_DT_U8) | (1u << RESHAPE_DT_S8) |
        (1u << RESHAPE_DT_S16),
    RESHAPE_LAYOUT_IN_PLACE,
};

// Starts the runtime as the harness loads the candidate (20 ms and more:
// it dlopens the CpuRef backend), so no request's time budget pays for it,
// and writes the Debian package's version ("20.08-12"; the library calls
// itself ARMNN_VERSION 22.0.0, its soname).
void start(char *version, size_t size)
{
    std::call_once(runtime_once, make_runtime);
    std::snprintf(version, size, "%s (ARMNN_VERSION %s)", ARMNN_PACKAGE_VERSION, ARMNN_VERSION);
}

} // namespace

RESHAPE_ADAPTER_DEFINE_LOADED("Arm NN Reshape (CpuRef)", start,
                              an_supports, an_infer_shape, an_execute, &limits)
