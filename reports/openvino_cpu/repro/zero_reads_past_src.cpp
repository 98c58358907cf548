// zero_reads_past_src.cpp - OpenVINO 2026.4.1 (wheel build 22982), CPU
// plugin: the core's shape inference of ov::op::v1::Reshape waives the
// volume check beside a copied 0 (reports/openvino_core/repro/
// zero_skips_volume_check.cpp), so f32 [2,3] with the pattern i64 [0,3,6]
// (special_zero true) compiles as [2,3,6]: 36 elements from 6.  The CPU
// plugin's InferRequest::infer then fills the 36-element output from the
// caller's 6-element input buffer and the 30 floats after it (here 101..130
// in the same array; in the harness a guard page after src: SIGSEGV).
// Exit 0: the behaviour is present; 1: it is gone; 77: the plugin unusable.
#include <openvino/core/except.hpp>
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>
#include <openvino/runtime/core.hpp>

#include <cstdio>
#include <cstring>

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    alignas(64) float buffer[36], out[36];
    for (int i = 0; i < 36; i++)
        buffer[i] = i < 6 ? static_cast<float>(i + 1) : static_cast<float>(95 + i);
    std::memset(out, 0, sizeof out);
    ov::Shape shape;
    try {
        auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::f32, ov::Shape{2, 3});
        auto node = std::make_shared<ov::op::v1::Reshape>(
            data, ov::op::v0::Constant::create(ov::element::i64, ov::Shape{3}, {0, 3, 6}), true);
        shape = node->get_output_shape(0);
        std::printf("input f32 [2,3] = 1..6, pattern i64 [0,3,6], special_zero true: output "
                    "shape %s\n", ov::PartialShape(shape).to_string().c_str());
        auto model = std::make_shared<ov::Model>(ov::OutputVector{node},
                                                 ov::ParameterVector{data});
        ov::Core core;
        auto compiled = core.compile_model(model, "CPU", ov::inference_num_threads(1),
                                           ov::num_streams(1));
        auto request = compiled.create_infer_request();
        request.set_input_tensor(ov::Tensor(ov::element::f32, ov::Shape{2, 3}, buffer));
        request.set_output_tensor(ov::Tensor(ov::element::f32, shape, out));
        request.infer();
    } catch (const ov::Exception &e) {
        std::printf("refused: %s\n", e.what());
        return 1;
    }
    std::printf("output (36 floats; the input holds 6, the 30 floats after it 101..130):");
    int past = 0;
    for (int i = 0; i < 36; i++) {
        std::printf(" %g", out[i]);
        past += i >= 6 && out[i] == buffer[i];
    }
    std::printf("\n%d of the 30 output elements past the input's 6 are the floats after the "
                "input buffer\n", past);
    return shape == ov::Shape{2, 3, 6} && past == 30 ? 0 : 1;
}
