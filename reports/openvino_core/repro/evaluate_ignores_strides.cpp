// evaluate_ignores_strides.cpp - OpenVINO 2026.4.1 (wheel build 22982):
// ov::op::v1::Reshape::evaluate copies its input's data() into its output's
// data() as one dense block of the output's byte size, whatever strides the
// ov::Tensors carry.  f32 [2,3] = 1..6 in rows of 4 (byte strides {16,4}:
// the gap after each row holds -1 and -2) reshaped to [6] gives
// 1 2 3 -1 4 5 (the gap read as an element, 6 left out); and f32 [6] = 1..6
// into a [2,3] output in rows of 4 (gaps holding -9) writes 1 2 3 4 over the
// first row and its gap and 5 6 over the second row's first two elements,
// its third left -9.
// Exit 0: the behaviour is present; 1: it is gone; 77: OpenVINO unusable.
#include <openvino/core/except.hpp>
#include <openvino/core/version.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/reshape.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>

static void print(const char *what, const float *v, int n)
{
    std::printf("%s:", what);
    for (int i = 0; i < n; i++)
        std::printf(" %g", v[i]);
    std::printf("\n");
}

int main()
{
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    bool src_ignored, dst_ignored;
    try {
        // A strided input: [2,3] in rows of 4 floats.
        auto data = std::make_shared<ov::op::v0::Parameter>(ov::element::f32, ov::Shape{2, 3});
        std::vector<int64_t> six{6};
        auto node = std::make_shared<ov::op::v1::Reshape>(
            data, ov::op::v0::Constant::create(ov::element::i64, ov::Shape{1}, six), false);
        float src[8] = {1, 2, 3, -1, 4, 5, 6, -2}, dst[6] = {0, 0, 0, 0, 0, 0};
        ov::TensorVector in{ov::Tensor(ov::element::f32, ov::Shape{2, 3}, src,
                                       ov::Strides{16, 4}),
                            ov::Tensor(ov::element::i64, ov::Shape{1}, six.data())};
        ov::TensorVector out{ov::Tensor(ov::element::f32, ov::Shape{6}, dst)};
        bool ok = node->evaluate(out, in);
        std::printf("evaluate, f32 [2,3] byte strides {16,4} -> [6]: returned %d\n", ok);
        print("  src buffer (8 floats, gaps -1 -2)", src, 8);
        print("  dst (expected 1 2 3 4 5 6)", dst, 6);
        const float dense_block[6] = {1, 2, 3, -1, 4, 5};
        src_ignored = ok && std::memcmp(dst, dense_block, sizeof dst) == 0;

        // A strided output: [6] into [2,3] in rows of 4 floats.
        auto data2 = std::make_shared<ov::op::v0::Parameter>(ov::element::f32, ov::Shape{6});
        std::vector<int64_t> two_three{2, 3};
        auto node2 = std::make_shared<ov::op::v1::Reshape>(
            data2, ov::op::v0::Constant::create(ov::element::i64, ov::Shape{2}, two_three),
            false);
        float src2[6] = {1, 2, 3, 4, 5, 6}, dst2[8] = {-9, -9, -9, -9, -9, -9, -9, -9};
        ov::TensorVector in2{ov::Tensor(ov::element::f32, ov::Shape{6}, src2),
                             ov::Tensor(ov::element::i64, ov::Shape{2}, two_three.data())};
        ov::TensorVector out2{ov::Tensor(ov::element::f32, ov::Shape{2, 3}, dst2,
                                         ov::Strides{16, 4})};
        ok = node2->evaluate(out2, in2);
        std::printf("evaluate, f32 [6] -> [2,3] byte strides {16,4}: returned %d\n", ok);
        print("  dst buffer (expected 1 2 3 -9 4 5 6 -9)", dst2, 8);
        const float written[8] = {1, 2, 3, 4, 5, 6, -9, -9};
        dst_ignored = ok && std::memcmp(dst2, written, sizeof dst2) == 0;
    } catch (const std::exception &e) {
        std::printf("OpenVINO threw: %s\n", e.what());
        return 1;
    }
    std::printf("strided input read as a dense block: %s; strided output written as a dense "
                "block: %s\n", src_ignored ? "yes" : "no", dst_ignored ? "yes" : "no");
    return src_ignored && dst_ignored ? 0 : 1;
}
