// negative_dims_pass.cpp - Eigen 3.4.0's TensorBase::reshape takes new dims
// as they are, in the signed Eigen::Index, and its one check (an
// eigen_assert in the reshape's evaluator) compares the element counts
// only: u8 [2, 3] to [-2, -3] (product 6) and u8 [0] to [0, -2] (product 0)
// pass, where every reshape spec here refuses a value below -1.  Built with
// Eigen's assertions on.  Exit 0: both still pass with those dims (the
// finding holds); 1: other dims now (an abort is exit 134: fails too).
// Against Eigen's headers alone.
#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdint>
#include <cstdio>

// The dims TensorBase::reshape gives a row-major TensorMap of `in` dims over
// `data`, read from the reshape's evaluator, as the adapter does; Eigen's
// eigen_assert (assert, on unless NDEBUG) checks the element counts there.
template <int N>
using Dims = Eigen::DSizes<Eigen::Index, N>;

template <class T, int IN, int OUT>
static Eigen::DSizes<Eigen::Index, OUT> reshape_dims(const T *data,
                                                     Eigen::DSizes<Eigen::Index, IN> in,
                                                     Eigen::DSizes<Eigen::Index, OUT> out)
{
    Eigen::TensorMap<Eigen::Tensor<const T, IN, Eigen::RowMajor>> map(data, in);
    auto expr = map.reshape(out);
    Eigen::TensorEvaluator<const decltype(expr), Eigen::DefaultDevice> ev(
        expr, Eigen::DefaultDevice());
    return ev.dimensions();
}

template <int N>
static void print_dims(const char *what, const Eigen::DSizes<Eigen::Index, N> &d)
{
    std::printf("%s [", what);
    for (int i = 0; i < N; i++)
        std::printf("%s%lld", i ? ", " : "", static_cast<long long>(d[i]));
    std::printf("]\n");
}

int main()
{
    unsigned char data[6] = {0};
    std::printf("Eigen %d.%d.%d\n", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION,
                EIGEN_MINOR_VERSION);
    std::printf("reshape u8 [2, 3] to [-2, -3], expected: an error (below -1)\n");
    auto a = reshape_dims<unsigned char, 2, 2>(data, Dims<2>(2, 3), Dims<2>(-2, -3));
    print_dims("observed: dims", a);
    std::printf("reshape u8 [0] to [0, -2], expected: an error (below -1)\n");
    auto b = reshape_dims<unsigned char, 1, 2>(data, Dims<1>(0), Dims<2>(0, -2));
    print_dims("observed: dims", b);
    return a[0] == -2 && a[1] == -3 && b[0] == 0 && b[1] == -2 ? 0 : 1;
}
