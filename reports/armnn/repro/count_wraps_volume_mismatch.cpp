// count_wraps_volume_mismatch.cpp - Arm NN 20.08 (ARMNN_VERSION 22.0.0):
// the Reshape layer's check (ReshapeQueueDescriptor::Validate, and the
// layer's shape validation) compares TensorInfo::GetNumElements(), an
// unsigned int: f32 [4] with the target [4, 1073741825] (2^32 + 4 elements,
// counted 4) optimises and loads on CpuRef, where every reshape spec here
// refuses the volume mismatch.  Exit 0: still loads (the finding holds); 1:
// refused now; 77: no CpuRef backend.  Against libarmnn alone.
#include <cstdlib>
#include <armnn/ArmNN.hpp>
#include <armnn/Utils.hpp>

#include <cstdio>
#include <string>
#include <vector>

static void print_shape(const char *what, const armnn::TensorShape &s)
{
    std::printf("%s [", what);
    for (unsigned int i = 0; i < s.GetNumDimensions(); i++)
        std::printf("%s%u", i ? ", " : "", s[i]);
    std::printf("] (GetNumElements %u)\n", s.GetNumElements());
}

// Input -> Reshape(target) -> Output of `type`, optimised for CpuRef and
// loaded into `runtime` as the adapter does (candidates/armnn/armnn.cpp);
// true when LoadNetwork succeeds, its id into *id.  Prints what it sees.
static bool load(armnn::IRuntime *runtime, armnn::DataType type, const armnn::TensorShape &in,
                 const armnn::TensorShape &target, armnn::NetworkId *id)
{
    print_shape("input", in);
    print_shape("Reshape target", target);
    try {
        armnn::INetworkPtr net = armnn::INetwork::Create();
        armnn::IConnectableLayer *input = net->AddInputLayer(0);
        armnn::IConnectableLayer *reshape =
            net->AddReshapeLayer(armnn::ReshapeDescriptor(target), "reshape");
        armnn::IConnectableLayer *output = net->AddOutputLayer(0);
        input->GetOutputSlot(0).Connect(reshape->GetInputSlot(0));
        reshape->GetOutputSlot(0).Connect(output->GetInputSlot(0));
        input->GetOutputSlot(0).SetTensorInfo(armnn::TensorInfo(in, type, 1.0f, 0));
        reshape->GetOutputSlot(0).SetTensorInfo(armnn::TensorInfo(target, type, 1.0f, 0));
        std::vector<std::string> notes;
        armnn::IOptimizedNetworkPtr opt =
            armnn::Optimize(*net, {armnn::BackendId("CpuRef")}, runtime->GetDeviceSpec(),
                            armnn::OptimizerOptions(),
                            armnn::Optional<std::vector<std::string> &>(notes));
        if (!opt) {
            std::printf("observed: Optimize refused it: %s\n",
                        notes.empty() ? "" : notes[0].c_str());
            return false;
        }
        std::string why;
        if (runtime->LoadNetwork(*id, std::move(opt), why) != armnn::Status::Success) {
            std::printf("observed: LoadNetwork refused it: %s\n", why.c_str());
            return false;
        }
    } catch (const std::exception &e) {
        std::printf("observed: Arm NN threw: %s\n", e.what());
        return false;
    }
    print_shape("observed: loaded; output", runtime->GetOutputTensorInfo(*id, 0).GetShape());
    return true;
}

static armnn::IRuntime *make_runtime()
{
    armnn::ConfigureLogging(false, false, armnn::LogSeverity::Fatal);
    armnn::IRuntime *r = armnn::IRuntime::CreateRaw(armnn::IRuntime::CreationOptions());
    for (const armnn::BackendId &b : r->GetDeviceSpec().GetSupportedBackends())
        if (b == armnn::BackendId("CpuRef"))
            return r;
    std::printf("no CpuRef backend (libarmnn-cpuref-backend22)\n");
    std::exit(77);
}

int main()
{
    armnn::IRuntime *runtime = make_runtime();
    armnn::NetworkId id = 0;
    std::printf("Arm NN %s\nexpected: refused (4 elements to 4294967300)\n", ARMNN_VERSION);
    return load(runtime, armnn::DataType::Float32, {4}, {4, 1073741825}, &id) ? 0 : 1;
}
