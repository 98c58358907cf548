// no_type_list.cpp - xtensor has no list of element types: s8, u8 and s32
// containers reshape like f32 ones, where oneDNN Graph's StaticReshape-1 and
// DynamicReshape-1 list f32, f16 and bf16 only (the scoreboard's
// ACCEPTED_INVALID ... DATA_TYPE for those two operations: what xtensor
// cannot express, not an xtensor defect).  Exit 0: every one reshapes (the
// finding holds); 1: one is refused now.  Against xtensor alone.
#include <cstdint>
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

template <class T>
static bool reshapes(const char *name)
{
    T data[6] = {0, 1, 2, 3, 4, 5};
    shape_type out;
    std::printf("reshape %s dims [2, 3] to [3, 2]; expected by StaticReshape-1: an error "
                "(data type)\n", name);
    try {
        reshape_of(data, {2, 3}, {3, 2}, &out);
    } catch (const std::exception &e) {
        std::printf("observed: %s\n", e.what());
        return false;
    }
    print_dims("observed: dims", out);
    return out == shape_type{3, 2};
}

int main()
{
    std::printf("xtensor %d.%d.%d\n", XTENSOR_VERSION_MAJOR, XTENSOR_VERSION_MINOR,
                XTENSOR_VERSION_PATCH);
    bool held = reshapes<std::int8_t>("s8");
    held = reshapes<std::uint8_t>("u8") && held;
    held = reshapes<std::int32_t>("s32") && held;
    return held ? 0 : 1;
}
