// int64_max_volume_refused.cpp - OpenVINO 2026.4.1 (wheel build 22982):
// ov::op::v1::Reshape's shape inference (shape_infer, reshape_shape_
// inference.hpp) refuses shapes whose volume is INT64_MAX = 7*7*73*127*337*
// 92737*649657, a volume Reshape-1 allows: OpenVINO's ov::Dimension takes
// INT64_MAX as "unbounded", so the product cannot be told from a dynamic
// dim.  u8 [7,7,73,127,337,92737,649657] with pattern i64 [-1]
// (special_zero false) throws "Non-'-1' output dimensions do not evenly
// divide the input dimensions" (expected [9223372036854775807]); u8
// [9223372036854775807] with the factors as the pattern throws "Requested
// output shape ... is incompatible with input shape" (expected the factors).
// Only the node is built: no tensor of that size is made.
// Exit 0: the behaviour is present; 1: it is gone; 77: OpenVINO unusable.
#include <openvino/core/except.hpp>
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

// Builds the node; prints what it gave; returns whether it threw.
static bool refused(const ov::Shape &input, const std::vector<int64_t> &pattern)
{
    auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::u8, input);
    auto constant = ov::op::v0::Constant::create(ov::element::i64, ov::Shape{pattern.size()},
                                                 pattern);
    std::printf("input u8 %s, pattern i64 %s, special_zero false: ",
                ov::PartialShape(input).to_string().c_str(),
                ov::PartialShape(ov::Shape(pattern.begin(), pattern.end())).to_string().c_str());
    try {
        auto node = std::make_shared<ov::op::v1::Reshape>(data, constant, false);
        std::printf("output shape %s\n", node->get_output_partial_shape(0).to_string().c_str());
        return false;
    } catch (const ov::Exception &e) {
        std::string text(e.what());
        size_t end = text.find_last_not_of("\n ");
        size_t start = text.rfind('\n', end);
        std::printf("refused: %s\n", text.substr(start + 1, end - start).c_str());
        return true;
    }
}

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    const ov::Shape factors{7, 7, 73, 127, 337, 92737, 649657};
    bool a = refused(factors, {-1});
    bool b = refused(ov::Shape{9223372036854775807ull},
                     {7, 7, 73, 127, 337, 92737, 649657});
    return a && b ? 0 : 1;
}
