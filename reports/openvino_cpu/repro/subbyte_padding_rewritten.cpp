// subbyte_padding_rewritten.cpp - OpenVINO 2026.4.1 (wheel build 22982),
// CPU plugin: a one-node Reshape of u4 [3] (and i4 [3]) to [1,3], dense
// tensors, compiled for "CPU" (one thread, one stream).  The input's 2
// bytes are 21 a3: elements 1 2 3 (low nibble first), and a in the unused
// high nibble of the last byte.  Reshape-1 copies the bytes, and the
// suite's ABI (include/reshape_candidate.h) requires the padding bits of a
// dense sub-byte tensor's last byte to be copied; InferRequest::infer
// writes the elements and leaves those bits as the output buffer held them
// (filled with 55 before): 21 53, not 21 a3.
// Exit 0: the behaviour is present; 1: it is gone; 77: the plugin unusable.
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>
#include <openvino/runtime/core.hpp>

#include <cstdint>
#include <cstdio>

// Returns the output's last byte, or -1 when the plugin threw.
static int run(ov::Core &core, ov::element::Type type)
{
    alignas(64) uint8_t src[2] = {0x21, 0xa3}, dst[2] = {0x55, 0x55};
    try {
        auto data = std::make_shared<ov::op::v0::Parameter>(type, ov::Shape{3});
        auto node = std::make_shared<ov::op::v1::Reshape>(
            data, ov::op::v0::Constant::create(ov::element::i64, ov::Shape{2}, {1, 3}), false);
        auto model = std::make_shared<ov::Model>(ov::OutputVector{node},
                                                 ov::ParameterVector{data});
        auto compiled = core.compile_model(model, "CPU", ov::inference_num_threads(1),
                                           ov::num_streams(1));
        auto request = compiled.create_infer_request();
        request.set_input_tensor(ov::Tensor(type, ov::Shape{3}, src));
        request.set_output_tensor(ov::Tensor(type, ov::Shape{1, 3}, dst));
        request.infer();
    } catch (const std::exception &e) {
        std::printf("%s: OpenVINO threw: %s\n", type.get_type_name().c_str(), e.what());
        return -1;
    }
    std::printf("%s [3] -> [1,3]: in %02x %02x, out %02x %02x (expected %02x %02x)\n",
                type.get_type_name().c_str(), src[0], src[1], dst[0], dst[1], src[0], src[1]);
    return dst[0] == 0x21 ? dst[1] : -2;
}

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    ov::Core core;
    int u4, i4;
    try {
        u4 = run(core, ov::element::u4);
        i4 = run(core, ov::element::i4);
    } catch (const std::exception &e) {
        std::printf("OpenVINO's CPU plugin cannot be used: %s\n", e.what());
        return 77;
    }
    // The element nibble 3 is there and the padding nibble is dst's 5.
    bool u4_holds = u4 == 0x53;
    bool i4_holds = i4 == 0x53;
    std::printf("padding nibble left as dst held it: u4 %s, i4 %s\n", u4_holds ? "yes" : "no",
                i4_holds ? "yes" : "no");
    return u4_holds && i4_holds ? 0 : 1;
}
