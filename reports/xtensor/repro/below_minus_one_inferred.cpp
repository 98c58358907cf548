// below_minus_one_inferred.cpp - xtensor 0.24.3's xstrided_container::reshape
// takes every negative value of a signed shape as the dim to infer (its
// XTENSOR_ASSERT(dim == -1) is compiled out unless XTENSOR_ENABLE_ASSERT):
// u8 [2, 3] with [-2, 3] gives [1, 3], half the elements, where every
// reshape spec here refuses a value below -1.  Exit 0: [1, 3] still (the
// finding holds); 1: refused or another shape now.  Against xtensor alone.
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xtensor_config.hpp>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <vector>

using signed_shape = std::vector<std::ptrdiff_t>;
using shape_type = std::vector<std::size_t>;

static void print_dims(const char *what, const shape_type &d)
{
    std::printf("%s [", what);
    for (std::size_t i = 0; i < d.size(); i++)
        std::printf("%s%zu", i ? ", " : "", d[i]);
    std::printf("]\n");
}

// xstrided_container::reshape of an adaptor with `dims` over `data` (row-major,
// its element count the product of the dims, as xtensor counts it) to the
// signed `shape`; the new dims into *out.  Throws what xtensor throws.
template <class T>
static void reshape_of(T *data, const shape_type &dims, const signed_shape &shape,
                       shape_type *out)
{
    std::size_t count = 1;
    for (std::size_t d : dims)
        count *= d;
    auto a = xt::adapt(data, count, xt::no_ownership(), dims);
    a.reshape(shape, xt::layout_type::row_major);
    out->assign(a.shape().begin(), a.shape().end());
}

int main()
{
    unsigned char data[6] = {0};
    shape_type out;
    std::printf("xtensor %d.%d.%d\n", XTENSOR_VERSION_MAJOR, XTENSOR_VERSION_MINOR,
                XTENSOR_VERSION_PATCH);
    std::printf("reshape u8 dims [2, 3] to [-2, 3]\nexpected: an error (below -1)\n");
    try {
        reshape_of(data, {2, 3}, {-2, 3}, &out);
    } catch (const std::exception &e) {
        std::printf("observed: %s\n", e.what());
        return 1;
    }
    print_dims("observed: dims", out);
    return out == shape_type{1, 3} ? 0 : 1;
}
