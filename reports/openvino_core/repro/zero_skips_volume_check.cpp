// zero_skips_volume_check.cpp - OpenVINO 2026.4.1 (wheel build 22982):
// ov::op::v1::Reshape's shape inference (shape_infer in
// reshape_shape_inference.hpp) skips the volume check when the pattern has
// a 0 and special_zero is true, so f32 [2,3] with pattern i64 [0] is
// accepted as [2]; Reshape::evaluate then copies the input's 6 elements
// (24 bytes) into the 2-element (8-byte) output.
// Exit 0: the behaviour is present; 1: it is gone; 77: OpenVINO unusable.
#include <openvino/core/except.hpp>
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>

#include <cstdio>
#include <cstring>

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::f32, ov::Shape{2, 3});
    std::vector<int64_t> pattern{0};
    auto constant = ov::op::v0::Constant::create(ov::element::i64, ov::Shape{1}, pattern);
    std::shared_ptr<ov::op::v1::Reshape> node;
    try {
        node = std::make_shared<ov::op::v1::Reshape>(data, constant, true);
    } catch (const ov::Exception &e) {
        std::printf("input f32 [2,3], pattern i64 [0], special_zero true: refused: %s\n",
                    e.what());
        return 1;
    }
    ov::Shape out_shape = node->get_output_shape(0);
    std::printf("input f32 [2,3], pattern i64 [0], special_zero true: output shape %s\n",
                ov::PartialShape(out_shape).to_string().c_str());
    float src[6] = {1, 2, 3, 4, 5, 6};
    unsigned char buffer[24];
    std::memset(buffer, 0xab, sizeof buffer);   // dst is the first 8 bytes
    ov::TensorVector in{ov::Tensor(ov::element::f32, ov::Shape{2, 3}, src),
                        ov::Tensor(ov::element::i64, ov::Shape{1}, pattern.data())};
    ov::TensorVector out{ov::Tensor(ov::element::f32, out_shape, buffer)};
    bool ok = node->evaluate(out, in);
    std::printf("evaluate returned %d; output %zu bytes; the 24 bytes from the output's start:",
                ok, out[0].get_byte_size());
    for (unsigned char b : buffer)
        std::printf(" %02x", b);
    std::printf("\n");
    int past = 0;
    for (size_t i = 8; i < sizeof buffer; i++)
        past += buffer[i] != 0xab;
    std::printf("%d of the 16 bytes past the output's end were written\n", past);
    return out_shape == ov::Shape{2} && past > 0 ? 0 : 1;
}
