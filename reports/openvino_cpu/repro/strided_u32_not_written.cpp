// strided_u32_not_written.cpp - OpenVINO 2026.4.1 (wheel build 22982), CPU
// plugin: a one-node Reshape of u32 [3,5] to [5,3] (pattern i64 [5,3],
// special_zero false) compiled for "CPU" (one thread, one stream), on a
// fresh compiled model each time.  With the input a strided ov::Tensor
// (rows of 6 elements: byte strides {24,4}) and a dense output, and with a
// dense input and a strided output (rows of 4: byte strides {16,4}):
// InferRequest::infer writes no element where it belongs: it returns
// without an error and leaves the output as it was (filled with ee
// before), or the process dies of SIGSEGV inside the plugin, or later
// (the heap is corrupted: which of the two, run to run, varies).  Each call
// runs in a child process of its own (forked before OpenVINO is loaded).
// The same two calls on f32 write every element where it belongs.
// Exit 0: the behaviour is present; 1: it is gone; 77: the plugin unusable.
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>
#include <openvino/runtime/core.hpp>

#include <cstdint>
#include <cstdio>
#include <csignal>
#include <cstring>

#include <sys/wait.h>
#include <unistd.h>

// The model of `type` [3,5] -> [5,3], compiled afresh.
static ov::CompiledModel compiled(ov::Core &core, ov::element::Type type)
{
    auto data = std::make_shared<ov::op::v0::Parameter>(type, ov::Shape{3, 5});
    auto node = std::make_shared<ov::op::v1::Reshape>(
        data, ov::op::v0::Constant::create(ov::element::i64, ov::Shape{2}, {5, 3}), false);
    auto model = std::make_shared<ov::Model>(ov::OutputVector{node}, ov::ParameterVector{data});
    return core.compile_model(model, "CPU", ov::inference_num_threads(1), ov::num_streams(1));
}

// A strided input into a dense output: how many of the 15 elements are
// right, and how many changed at all.
static void strided_input(ov::Core &core, ov::element::Type type, int *right, int *changed)
{
    alignas(64) uint32_t src[18], dst[15];
    for (uint32_t i = 0; i < 18; i++)
        src[i] = 0x40000000u + i;   // as f32: 2.0 and a little more
    std::memset(dst, 0xee, sizeof dst);
    auto request = compiled(core, type).create_infer_request();
    request.set_input_tensor(ov::Tensor(type, ov::Shape{3, 5}, src, ov::Strides{24, 4}));
    request.set_output_tensor(ov::Tensor(type, ov::Shape{5, 3}, dst));
    request.infer();
    *right = *changed = 0;
    for (int i = 0; i < 15; i++) {
        *right += dst[i] == src[(i / 5) * 6 + i % 5];
        *changed += dst[i] != 0xeeeeeeeeu;
    }
    std::printf("%s [3,5] -> [5,3], strided input (byte strides {24,4}), dense output: %d of "
                "15 elements right, %d changed\n", type.get_type_name().c_str(), *right,
                *changed);
}

// A dense input into a strided output: how many of the 15 are right.
static int strided_output(ov::Core &core, ov::element::Type type)
{
    alignas(64) uint32_t src[15], dst[20];
    for (uint32_t i = 0; i < 15; i++)
        src[i] = 0x40000000u + 0x100 + i;
    std::memset(dst, 0xee, sizeof dst);
    auto request = compiled(core, type).create_infer_request();
    request.set_input_tensor(ov::Tensor(type, ov::Shape{3, 5}, src));
    request.set_output_tensor(ov::Tensor(type, ov::Shape{5, 3}, dst, ov::Strides{16, 4}));
    request.infer();
    int right = 0;
    for (int i = 0; i < 15; i++)
        right += dst[(i / 3) * 4 + i % 3] == src[i];
    std::printf("%s [3,5] -> [5,3], dense input, strided output (byte strides {16,4}): %d of "
                "15 elements right\n", type.get_type_name().c_str(), right);
    return right;
}

// Runs one call in a child: 0 the elements were right, 1 none written, 2
// other, 3 OpenVINO threw; a signal number + 100 when it died of one.
static int in_child(ov::element::Type type, bool input)
{
    pid_t child = fork();
    if (child == 0) {
        try {
            ov::Core core;
            if (input) {
                int right, changed;
                strided_input(core, type, &right, &changed);
                _exit(right == 15 ? 0 : changed == 0 ? 1 : 2);
            }
            int right = strided_output(core, type);
            _exit(right == 15 ? 0 : 2);
        } catch (const std::exception &e) {
            std::printf("OpenVINO threw: %s\n", e.what());
            _exit(3);
        }
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child)
        return 3;
    if (WIFSIGNALED(status)) {
        std::printf("%s, strided %s: the process died of signal %d\n",
                    type.get_type_name().c_str(), input ? "input" : "output", WTERMSIG(status));
        return 100 + WTERMSIG(status);
    }
    return WEXITSTATUS(status);
}

int main()
{
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    int f32_in = in_child(ov::element::f32, true), f32_out = in_child(ov::element::f32, false);
    int u32_in = in_child(ov::element::u32, true), u32_out = in_child(ov::element::u32, false);
    if (f32_in == 3 || u32_in == 3)
        return 77;
    bool control = f32_in == 0 && f32_out == 0;
    bool held = u32_in != 0 && u32_out != 0;
    std::printf("f32 right both ways: %s; u32 wrong both ways (unwritten or a crash): %s\n",
                control ? "yes" : "no", held ? "yes" : "no");
    return control && held ? 0 : 1;
}
