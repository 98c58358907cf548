// volume_wraps.cpp - Eigen 3.4.0's reshape check multiplies the signed
// Eigen::Index dims without an overflow check: u8 [4, 4611686018427387905]
// (2^64 + 4 elements; nothing is read) counts 4 and reshapes to [4], where
// the reshape specs refuse a volume past int64.  Built with Eigen's
// assertions on.  Exit 0: still dims [4] (the finding holds); 1: other dims
// now (an abort is exit 134: fails too).  Against Eigen's headers alone.
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
    static unsigned char byte;
    std::printf("Eigen %d.%d.%d\n", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION,
                EIGEN_MINOR_VERSION);
    std::printf("reshape u8 [4, 4611686018427387905] to [4], expected: an error "
                "(the volume, 2^64 + 4, overflows)\n");
    auto d = reshape_dims<unsigned char, 2, 1>(&byte, Dims<2>(4, INT64_C(4611686018427387905)), Dims<1>(4));
    print_dims("observed: dims", d);
    return d[0] == 4 ? 0 : 1;
}
