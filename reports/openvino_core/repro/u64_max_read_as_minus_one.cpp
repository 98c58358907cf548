// u64_max_read_as_minus_one.cpp - OpenVINO 2026.4.1 (wheel build 22982):
// ov::op::v1::Reshape's shape inference reads a u64 pattern value above
// INT64_MAX as int64, so 18446744073709551615 is -1 and is solved as the
// inferred dim: f32 [2,3] with pattern u64 [1, 18446744073709551615] gives
// [1,6] instead of a refusal.
// Exit 0: the behaviour is present; 1: it is gone; 77: OpenVINO unusable.
#include <openvino/core/except.hpp>
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>

#include <cstdint>
#include <cstdio>

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::f32, ov::Shape{2, 3});
    std::vector<uint64_t> pattern{1, UINT64_MAX};
    auto constant = ov::op::v0::Constant::create(ov::element::u64, ov::Shape{2}, pattern);
    try {
        auto node = std::make_shared<ov::op::v1::Reshape>(data, constant, false);
        ov::PartialShape shape = node->get_output_partial_shape(0);
        std::printf("input f32 [2,3], pattern u64 [1, 18446744073709551615] (bytes ff x8), "
                    "special_zero false: output shape %s\n", shape.to_string().c_str());
        return shape == ov::PartialShape{1, 6} ? 0 : 1;
    } catch (const ov::Exception &e) {
        std::printf("refused: %s\n", e.what());
        return 1;
    }
}
