// f16_snan_quieted.cpp - OpenVINO 2026.4.1 (wheel build 22982), CPU plugin:
// a one-node Reshape model of f16 [2] compiled for "CPU" with its default
// inference precision (and one thread, one stream) returns the signalling
// NaN 7d55 as the quiet NaN 7f55: the bytes go through a conversion, not a
// copy.  (-0.0, 8000, comes out unchanged.)
// Exit 0: the behaviour is present; 1: it is gone; 77: OpenVINO or its CPU
// plugin unusable.
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>
#include <openvino/runtime/core.hpp>

#include <cstdint>
#include <cstdio>

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    uint16_t src[2] = {0x7d55, 0x8000}, dst[2] = {0, 0};
    try {
        auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::f16, ov::Shape{2});
        auto pattern = ov::op::v0::Constant::create(ov::element::i64, ov::Shape{2}, {1, 2});
        auto node = std::make_shared<ov::op::v1::Reshape>(data, pattern, false);
        auto model = std::make_shared<ov::Model>(ov::OutputVector{node},
                                                 ov::ParameterVector{data});
        ov::Core core;
        auto compiled = core.compile_model(model, "CPU", ov::inference_num_threads(1),
                                           ov::num_streams(1));
        auto request = compiled.create_infer_request();
        request.set_input_tensor(ov::Tensor(ov::element::f16, ov::Shape{2}, src));
        request.set_output_tensor(ov::Tensor(ov::element::f16, ov::Shape{1, 2}, dst));
        request.infer();
        std::printf("inference_precision %s\n",
                    compiled.get_property(ov::hint::inference_precision).to_string().c_str());
    } catch (const std::exception &e) {
        std::printf("OpenVINO's CPU plugin cannot be used: %s\n", e.what());
        return 77;
    }
    std::printf("f16 [2] -> [1,2]: in %04x %04x, out %04x %04x\n", src[0], src[1], dst[0],
                dst[1]);
    return dst[0] == 0x7f55 ? 0 : 1;
}
