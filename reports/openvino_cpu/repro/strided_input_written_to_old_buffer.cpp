// strided_input_written_to_old_buffer.cpp - OpenVINO 2026.4.1 (wheel build
// 22982), CPU plugin: an InferRequest whose input tensor is dense has the
// compiled model's graph read that tensor's memory in place (its input
// edge is pointed at the caller's buffer); the graph keeps that pointer
// after the request is gone.  A later InferRequest of the same
// ov::CompiledModel whose input tensor is strided (which the plugin copies
// into the graph's own memory) has that copy written into the first
// request's buffer, memory the caller may have freed or reused.
//
// One model, f32 [2,3] -> Reshape(i64 [6], special_zero false), compiled for
// "CPU" (inference_num_threads(1), num_streams(1)).  A fresh compiled model
// given the strided input (rows of 4 floats: byte strides {16,4}, 11 12 13
// -1 14 15 16 -2) is the control: it writes nothing but its output.  Then a
// request with the dense input `a` (1..6), then `a` filled with -7, then a
// new request with the same strided input: `a` holds 11..16 afterwards.
// This is why openvino_cpu's verdicts on strided runs depended on which
// runs a worker had done before (candidates/openvino/README.md, "Cache").
// Exit 0: the behaviour is present; 1: it is gone; 77: the plugin unusable.
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>
#include <openvino/runtime/core.hpp>

#include <cstdio>
#include <cstring>

static void print(const char *what, const float *v, int n)
{
    std::printf("%s:", what);
    for (int i = 0; i < n; i++)
        std::printf(" %g", v[i]);
    std::printf("\n");
}

static void infer(ov::CompiledModel &compiled, const ov::Tensor &in, float *out)
{
    ov::InferRequest request = compiled.create_infer_request();
    request.set_input_tensor(in);
    request.set_output_tensor(ov::Tensor(ov::element::f32, ov::Shape{6}, out));
    request.infer();
}

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    alignas(64) float a[6] = {1, 2, 3, 4, 5, 6};
    alignas(64) float strided[8] = {11, 12, 13, -1, 14, 15, 16, -2};
    alignas(64) float out[6];
    const float gathered[6] = {11, 12, 13, 14, 15, 16}, sevens[6] = {-7, -7, -7, -7, -7, -7};
    ov::Tensor strided_in(ov::element::f32, ov::Shape{2, 3}, strided, ov::Strides{16, 4});
    bool control_ok, written;
    try {
        auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::f32, ov::Shape{2, 3});
        auto node = std::make_shared<ov::op::v1::Reshape>(
            data, ov::op::v0::Constant::create(ov::element::i64, ov::Shape{1}, {6}), false);
        auto model = std::make_shared<ov::Model>(ov::OutputVector{node},
                                                 ov::ParameterVector{data});
        ov::Core core;
        ov::AnyMap config{ov::inference_num_threads(1), ov::num_streams(1)};

        // The control: a fresh compiled model, the strided input only.
        ov::CompiledModel fresh = core.compile_model(model, "CPU", config);
        std::memcpy(a, sevens, sizeof a);
        std::memset(out, 0, sizeof out);
        infer(fresh, strided_in, out);
        print("fresh model, strided input 11 12 13 (-1) 14 15 16 (-2): output", out, 6);
        print("  buffer a (untouched, -7)", a, 6);
        control_ok = std::memcmp(a, sevens, sizeof a) == 0;

        // The same, after one request with a dense input in `a`.
        ov::CompiledModel compiled = core.compile_model(model, "CPU", config);
        const float iota[6] = {1, 2, 3, 4, 5, 6};
        std::memcpy(a, iota, sizeof a);
        infer(compiled, ov::Tensor(ov::element::f32, ov::Shape{2, 3}, a), out);
        print("request 1, dense input a = 1..6: output", out, 6);
        std::memcpy(a, sevens, sizeof a);
        std::memset(out, 0, sizeof out);
        infer(compiled, strided_in, out);
        print("request 2 (a new InferRequest), strided input: output", out, 6);
        print("  buffer a (request 1's input, refilled with -7 before request 2)", a, 6);
        written = std::memcmp(a, gathered, sizeof a) == 0;
    } catch (const std::exception &e) {
        std::printf("OpenVINO's CPU plugin cannot be used: %s\n", e.what());
        return 77;
    }
    std::printf("the fresh model left a alone: %s; request 2 wrote its input into request 1's "
                "buffer: %s\n", control_ok ? "yes" : "no", written ? "yes" : "no");
    return control_ok && written ? 0 : 1;
}
