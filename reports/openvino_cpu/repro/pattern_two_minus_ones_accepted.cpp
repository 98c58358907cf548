// pattern_two_minus_ones_accepted.cpp - OpenVINO 2026.4.1 (wheel build
// 22982), CPU plugin, the Reshape pattern a Parameter (the output shape is
// dynamic, so the CPU node infers it at infer()): f32 [2,12] with the
// pattern i64 [-1, -1] (two -1, which the core refuses in a Constant: "More
// than one dimension has size of -1") runs without an error and gives the
// output shape [0,0] for 24 elements.
// Exit 0: the behaviour is present; 1: it is gone; 77: the plugin unusable.
#include <openvino/core/version.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>
#include <openvino/runtime/core.hpp>

#include <cstdint>
#include <cstdio>

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    float src[24] = {0};
    int64_t pattern[2] = {-1, -1};
    ov::CompiledModel compiled;
    try {
        auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::f32, ov::Shape{2, 12});
        auto shape = std::make_shared<ov::op::v0::Parameter>(ov::element::i64, ov::Shape{2});
        auto node = std::make_shared<ov::op::v1::Reshape>(data, shape, false);
        auto model = std::make_shared<ov::Model>(ov::OutputVector{node},
                                                 ov::ParameterVector{data, shape});
        ov::Core core;
        compiled = core.compile_model(model, "CPU", ov::inference_num_threads(1),
                                      ov::num_streams(1));
    } catch (const std::exception &e) {
        std::printf("OpenVINO's CPU plugin cannot be used: %s\n", e.what());
        return 77;
    }
    try {
        auto request = compiled.create_infer_request();
        request.set_input_tensor(0, ov::Tensor(ov::element::f32, ov::Shape{2, 12}, src));
        request.set_input_tensor(1, ov::Tensor(ov::element::i64, ov::Shape{2}, pattern));
        request.infer();
        std::printf("f32 [2,12], pattern i64 [-1, -1] (a Parameter), special_zero false: "
                    "output shape %s\n",
                    request.get_output_tensor().get_shape().to_string().c_str());
        return 0;
    } catch (const std::exception &e) {
        std::printf("f32 [2,12], pattern i64 [-1, -1]: refused: %s\n", e.what());
        return 1;
    }
}
