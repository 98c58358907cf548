// eigen.cpp - the ABI over Eigen's Tensor module (Debian 12's libeigen3-dev
// 3.4): a row-major TensorMap over the caller's src, reshaped with
// TensorBase::reshape to the target dims, assigned into a row-major
// TensorMap over dst.  Depends on the adapter kit (include/reshape_adapter.h)
// and Eigen's unsupported/Eigen/CXX11/Tensor.
//
// What Eigen's reshape carries: new dims, as they are.  It has no -1 and no
// copying zero, and no shape inference: the output dims are the dims asked
// for.  Its one check, that the element counts agree, is an eigen_assert in
// the reshape's evaluator; Eigen lets a program define eigen_assert, and
// here a failed assertion throws, so that it reaches the harness as a status
// with Eigen's asserted expression as the message instead of aborting.
// A tensor's rank is a template argument: the adapter instantiates ranks 0
// to EIGEN_ADAPTER_MAX_RANK on both sides.  Elements move as unsigned
// integers of their width, so bytes stay bytes.  README.md lists what
// answers NOT_SUPPORTED.
#include <array>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <utility>

namespace {
// What a failed eigen_assert throws.
struct eigen_assertion : std::logic_error {
    using std::logic_error::logic_error;
};
} // namespace

#define eigen_assert(x)                                                        \
    do {                                                                       \
        if (!(x))                                                              \
            throw eigen_assertion("eigen_assert(" #x ") failed");              \
    } while (false)

#include <unsupported/Eigen/CXX11/Tensor>

#include "reshape_adapter.h"

#include "../shape_types.h"

#define EIGEN_TEXT2(x) #x
#define EIGEN_TEXT(x) EIGEN_TEXT2(x)
#define EIGEN_VERSION_TEXT EIGEN_TEXT(EIGEN_WORLD_VERSION) "." \
    EIGEN_TEXT(EIGEN_MAJOR_VERSION) "." EIGEN_TEXT(EIGEN_MINOR_VERSION)

namespace {

constexpr int EIGEN_ADAPTER_MAX_RANK = 4;
constexpr int RANKS = EIGEN_ADAPTER_MAX_RANK + 1;

// One reshape from rank IN to rank OUT on elements T: src to dst, or with
// dst NULL only the evaluator (where Eigen checks) and the dims it reports.
using reshape_fn = void (*)(const int64_t *in_dims, const int64_t *out_dims,
                            const void *src, void *dst, int64_t *result);

template <class T, int IN, int OUT>
void reshape_one(const int64_t *in_dims, const int64_t *out_dims,
                 const void *src, void *dst, int64_t *result)
{
    Eigen::DSizes<Eigen::Index, IN> a;
    Eigen::DSizes<Eigen::Index, OUT> b;
    for (int i = 0; i < IN; i++)
        a[i] = in_dims[i];
    for (int i = 0; i < OUT; i++)
        b[i] = out_dims[i];
    Eigen::TensorMap<Eigen::Tensor<const T, IN, Eigen::RowMajor>> in(
        static_cast<const T *>(src), a);
    auto expr = in.reshape(b);
    if (dst == nullptr) {
        Eigen::TensorEvaluator<const decltype(expr), Eigen::DefaultDevice> ev(
            expr, Eigen::DefaultDevice());
        for (int i = 0; i < OUT; i++)
            result[i] = ev.dimensions()[i];
        return;
    }
    Eigen::TensorMap<Eigen::Tensor<T, OUT, Eigen::RowMajor>> out(static_cast<T *>(dst),
                                                                b);
    out = expr;
}

template <class T, int IN, int... OUT>
constexpr std::array<reshape_fn, RANKS> row(std::integer_sequence<int, OUT...>)
{
    return {{&reshape_one<T, IN, OUT>...}};
}

template <class T, int... IN>
constexpr std::array<std::array<reshape_fn, RANKS>, RANKS>
grid(std::integer_sequence<int, IN...>)
{
    return {{row<T, IN>(std::make_integer_sequence<int, RANKS>())...}};
}

template <class T>
constexpr auto grid_of = grid<T>(std::make_integer_sequence<int, RANKS>());

reshape_fn pick(reshape_dtype dtype, int32_t in_rank, int32_t out_rank)
{
    switch (reshape_dtype_bits(dtype)) {
    case 8: return grid_of<uint8_t>[in_rank][out_rank];
    case 16: return grid_of<uint16_t>[in_rank][out_rank];
    case 32: return grid_of<uint32_t>[in_rank][out_rank];
    default: return grid_of<uint64_t>[in_rank][out_rank];
    }
}

#define DENSE "an Eigen TensorMap is dense"

// Elements move as unsigned integers of their width: sub-byte types have
// no C++ type.
#define WHOLE_BYTES "Eigen tensors hold C++ objects"

reshape_status eigen_supports(reshape_op op, reshape_dtype data_dtype,
                              reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st = reshape_adapter_check_layout(op, layout, RESHAPE_LAYOUT_IN_PLACE,
                                                     DENSE);
    if (st != RESHAPE_OK ||
        (st = reshape_adapter_whole_bytes(data_dtype, WHOLE_BYTES)) != RESHAPE_OK)
        return st;
    return shape_type_check(op, shape_dtype, "Eigen takes new dims as integers");
}

// What both calls check after the ABI (the layout for execute, `dst` not
// NULL), then the target dims into `values`/*count.
reshape_status enter(const reshape_params *params, const reshape_tensor *src,
                     const reshape_tensor *dst, int64_t *values, int32_t *count)
{
    reshape_status st = reshape_adapter_whole_bytes(src->dtype, WHOLE_BYTES);
    if (st != RESHAPE_OK)
        return st;
    if (dst != nullptr &&
        (st = reshape_adapter_check_layout(params->op, reshape_adapter_layout(src, dst),
                                           RESHAPE_LAYOUT_IN_PLACE, DENSE)) != RESHAPE_OK)
        return st;
    if ((st = reshape_adapter_shape_list(params, RESHAPE_ADAPTER_NO_MINUS_ONE, values,
                                         count)) != RESHAPE_OK)
        return st;
    if (src->rank > EIGEN_ADAPTER_MAX_RANK || *count > EIGEN_ADAPTER_MAX_RANK)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "an Eigen tensor's rank is a template argument; "
                            "the adapter instantiates ranks 0 to %d",
                            EIGEN_ADAPTER_MAX_RANK);
    return RESHAPE_OK;
}

reshape_status eigen_infer_shape(const reshape_params *params,
                                 const reshape_tensor *src, int32_t *out_rank,
                                 int64_t *out_dims)
{
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count;
    reshape_status st = reshape_adapter_check_infer(params, src, out_rank, out_dims);
    if (st != RESHAPE_OK || (st = enter(params, src, nullptr, values, &count)) != RESHAPE_OK)
        return st;
    try {
        pick(src->dtype, src->rank, count)(src->dims, values, nullptr, nullptr,
                                           out_dims);
        *out_rank = count;
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "Eigen refused the reshape: %s", e.what());
    }
}

reshape_status eigen_execute(const reshape_params *params,
                             const reshape_tensor *src, const reshape_tensor *dst)
{
    int64_t values[RESHAPE_MAX_RANK], dims[RESHAPE_MAX_RANK];
    int32_t count;
    reshape_status st = reshape_adapter_check_execute(params, src, dst);
    if (st != RESHAPE_OK || (st = enter(params, src, dst, values, &count)) != RESHAPE_OK)
        return st;
    try {
        reshape_fn fn = pick(src->dtype, src->rank, count);
        fn(src->dims, values, nullptr, nullptr, dims);
        if ((st = reshape_adapter_check_dst(src, dst, count, dims)) != RESHAPE_OK)
            return st;
        fn(src->dims, values, src->data, dst->data, dims);
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        return reshape_adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "Eigen refused the reshape: %s", e.what());
    }
}

} // namespace

RESHAPE_ADAPTER_DEFINE("Eigen Tensor", EIGEN_VERSION_TEXT,
                       eigen_supports, eigen_infer_shape, eigen_execute,
                       nullptr)
