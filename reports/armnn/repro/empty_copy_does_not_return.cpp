// empty_copy_does_not_return.cpp - Arm NN 20.08 (ARMNN_VERSION 22.0.0):
// EnqueueWorkload of a CpuRef Reshape of f32 [2147483647, 2147483647,
// 2147483647, 0] (no element) to the same dims does not return:
// armnn::CopyMemGenericWorkload::Execute walks the outer dims of the empty
// tensor.  Run in a child process given 10 s.  Exit 0: still running after
// 10 s (the finding holds); 1: it returns now; 77: no CpuRef backend.
// Against libarmnn alone.
#define _POSIX_C_SOURCE 200809L // fork, waitpid, alarm
#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
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
    const armnn::TensorShape dims({2147483647u, 2147483647u, 2147483647u, 0});
    std::printf("Arm NN %s\n", ARMNN_VERSION);
    if (!load(runtime, armnn::DataType::Float32, dims, dims, &id))
        return 1;
    std::printf("EnqueueWorkload\nexpected: returns (nothing to copy)\n");
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 77;
    if (pid == 0) {
        alarm(10);
        static float src[1], dst[1];
        armnn::InputTensors in{{0, armnn::ConstTensor(runtime->GetInputTensorInfo(id, 0), src)}};
        armnn::OutputTensors out{{0, armnn::Tensor(runtime->GetOutputTensorInfo(id, 0), dst)}};
        bool ok = runtime->EnqueueWorkload(id, in, out) == armnn::Status::Success;
        std::printf("observed: EnqueueWorkload returned (%s)\n", ok ? "Success" : "Failure");
        _exit(0);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return 77;
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
        std::printf("observed: not returned after 10 s\n");
        return 0;
    }
    return 1;
}
