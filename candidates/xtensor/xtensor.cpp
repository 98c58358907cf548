// xtensor.cpp - the ABI over xtensor's reshape (Debian 12's libxtensor-dev
// 0.24): an xarray_adaptor over the caller's buffer is reshaped with
// xstrided_container::reshape and a signed shape, which is where xtensor
// solves a -1 and checks the element count; its shape() is the output.
// The elements then move by xtensor's own assignment into an adaptor over
// dst (strided when dst is); a strided src is read through
// xt::reshape_view, which walks it in row-major order.  Depends on the
// adapter kit (include/reshape_adapter.h) and xtensor's headers.
//
// What xtensor carries: any element type (the adapter moves elements as
// unsigned integers of their width, so bytes stay bytes; sub-byte types have
// no C++ type); any rank; a -1 of its own; no copying zero (a 0 is a dim of
// 0).  C++ exceptions never cross into the harness: each entry point
// catches them.  README.md lists what answers NOT_SUPPORTED.
#include <cstdio>
#include <cstring>
#include <utility>
#include <exception>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xstrided_view.hpp>

#include "reshape_adapter.h"

#include "../shape_types.h"

#define XT_TEXT2(x) #x
#define XT_TEXT(x) XT_TEXT2(x)
#define XTENSOR_VERSION_TEXT XT_TEXT(XTENSOR_VERSION_MAJOR) "." \
    XT_TEXT(XTENSOR_VERSION_MINOR) "." XT_TEXT(XTENSOR_VERSION_PATCH)

namespace {

using signed_shape = std::vector<std::ptrdiff_t>;
using shape_type = std::vector<std::size_t>;

// Adaptors take any strides, 0 and huge ones included (README.md).
const unsigned HANDLED = RESHAPE_ADAPTER_ANY_STRIDES;

// xtensor's messages, first match wins; the rest is INTERNAL.
struct message_status {
    const char *text;
    reshape_status status;
};
const message_status message_map[] = {
    {"Negative axis size cannot be inferred", RESHAPE_E_NOT_DIVISIBLE},
    {"incorrect number of elements", RESHAPE_E_VOLUME_MISMATCH},
};

reshape_status from_exception(const std::exception &e)
{
    reshape_status st = RESHAPE_E_INTERNAL;
    for (const message_status &m : message_map)
        if (std::strstr(e.what(), m.text) != nullptr) {
            st = m.status;
            break;
        }
    return reshape_adapter_fail(st, "xtensor refused the reshape: %s", e.what());
}

// An adaptor over `t` as element type T: its dims, and its strides, or
// row-major ones when it is dense (one adaptor type for both).  xtensor
// sizes an adaptor's buffer by its element count whatever the strides
// (a larger size is refused: "xbuffer_storage not resizable").
template <class T>
auto adaptor(const reshape_tensor *t)
{
    shape_type dims(t->dims, t->dims + t->rank), strides(dims.size());
    std::size_t count = 1;
    for (int32_t i = t->rank - 1; i >= 0; i--) {
        strides[i] = t->strides != nullptr ? (std::size_t)t->strides[i] : count;
        count *= dims[i];
    }
    return xt::adapt(static_cast<T *>(t->data), count, xt::no_ownership(), dims,
                     std::move(strides));
}

// The shape of `params` as xtensor takes it: signed, -1 passed on; a zero
// under special_zero has no meaning in xtensor (NOT_SUPPORTED).
reshape_status read_shape(const reshape_params *params, signed_shape *shape)
{
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count;
    reshape_status st = reshape_adapter_shape_list(params, 0, values, &count);
    if (st == RESHAPE_OK)
        shape->assign(values, values + count);
    return st;
}

// xtensor's reshape of a dense adaptor over `src` (data unused) into *out.
reshape_status infer(const reshape_params *params, const reshape_tensor *src,
                     shape_type *out)
{
    signed_shape shape;
    reshape_status st = read_shape(params, &shape);
    if (st != RESHAPE_OK)
        return st;
    reshape_tensor dense = *src;
    dense.strides = nullptr;
    auto a = adaptor<unsigned char>(&dense);
    // Row-major named: an adaptor with strides has a dynamic layout, and
    // reshape's signed-shape path keeps a dynamic layout, computing no
    // strides for it (its unsigned path falls back to row-major).
    a.reshape(shape, xt::layout_type::row_major);
    out->assign(a.shape().begin(), a.shape().end());
    return RESHAPE_OK;
}

template <class T>
void copy(const reshape_params *params, const reshape_tensor *src,
          const reshape_tensor *dst, const shape_type &out)
{
    auto s = adaptor<T>(src);
    auto d = adaptor<T>(dst);
    if (src->strides == nullptr) {
        signed_shape shape;
        read_shape(params, &shape);
        s.reshape(shape, xt::layout_type::row_major);
        xt::noalias(d) = s;
    } else {
        xt::noalias(d) = xt::reshape_view(s, out);
    }
}

// Elements move as unsigned integers of their width: sub-byte types have
// no C++ type.
#define WHOLE_BYTES "xtensor holds C++ objects"

reshape_status xt_supports(reshape_op op, reshape_dtype data_dtype,
                           reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st = reshape_adapter_check_layout(op, layout, HANDLED, "xtensor");
    if (st != RESHAPE_OK ||
        (st = reshape_adapter_whole_bytes(data_dtype, WHOLE_BYTES)) != RESHAPE_OK)
        return st;
    return shape_type_check(op, shape_dtype, "xtensor takes the shape as a list of integers");
}

reshape_status xt_infer_shape(const reshape_params *params,
                              const reshape_tensor *src, int32_t *out_rank,
                              int64_t *out_dims)
{
    reshape_status st = reshape_adapter_check_infer(params, src, out_rank, out_dims);
    if (st != RESHAPE_OK ||
        (st = reshape_adapter_whole_bytes(src->dtype, WHOLE_BYTES)) != RESHAPE_OK)
        return st;
    try {
        shape_type out;
        if ((st = infer(params, src, &out)) != RESHAPE_OK)
            return st;
        if (out.size() > RESHAPE_MAX_RANK)
            return reshape_adapter_fail(RESHAPE_E_INTERNAL, "xtensor gave %zu dims",
                                out.size());
        *out_rank = (int32_t)out.size();
        for (std::size_t i = 0; i < out.size(); i++)
            out_dims[i] = (int64_t)out[i];
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        return from_exception(e);
    }
}

reshape_status xt_execute(const reshape_params *params, const reshape_tensor *src,
                          const reshape_tensor *dst)
{
    reshape_status st = reshape_adapter_check_execute(params, src, dst);
    if (st != RESHAPE_OK ||
        (st = reshape_adapter_whole_bytes(src->dtype, WHOLE_BYTES)) != RESHAPE_OK)
        return st;
    try {
        shape_type out;
        if ((st = infer(params, src, &out)) != RESHAPE_OK)
            return st;
        std::vector<int64_t> dims(out.begin(), out.end());
        if ((st = reshape_adapter_check_dst(src, dst, (int32_t)dims.size(), dims.data())) !=
            RESHAPE_OK)
            return st;
        switch (reshape_dtype_bits(src->dtype)) {
        case 8: copy<uint8_t>(params, src, dst, out); break;
        case 16: copy<uint16_t>(params, src, dst, out); break;
        case 32: copy<uint32_t>(params, src, dst, out); break;
        default: copy<uint64_t>(params, src, dst, out); break;
        }
        return RESHAPE_OK;
    } catch (const std::exception &e) {
        return from_exception(e);
    }
}

} // namespace

RESHAPE_ADAPTER_DEFINE("xtensor", XTENSOR_VERSION_TEXT,
                       xt_supports, xt_infer_shape, xt_execute,
                       nullptr)
