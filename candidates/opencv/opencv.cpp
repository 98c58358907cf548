// opencv.cpp - the ABI over OpenCV's cv::Mat::reshape (Debian 12's
// libopencv-core-dev 4.6): a Mat header over the caller's src (its steps
// from src's strides), reshaped with Mat::reshape(0, newndims, newsz),
// which decides the output dims and checks them; the result is copied with
// Mat::copyTo into a Mat header over dst.  Depends on the adapter kit
// (include/reshape_adapter.h) and opencv2/core.
//
// What cv::Mat carries: 2 to CV_MAX_DIM dims (a Mat has no rank 0 or 1);
// dims and sizes as int; element depths 8U 8S 16U 16S 16F 32S 32F 64F;
// steps in bytes with the innermost one the element size.  Its reshape's 0
// always copies the source dim (there is no literal 0 target dim) and it has
// no -1.  OpenCV throws cv::Exception, caught at every entry point.
// README.md lists what answers NOT_SUPPORTED and how codes map.
#include <climits>
#include <cstring>
#include <exception>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/core/types_c.h> // CV_MAX_DIM

#include "reshape_adapter.h"

#include "../shape_types.h"

namespace {

// Mat::reshape documents that it needs a continuous matrix, and refuses
// any other ("The matrix is not continuous...", or StsNotImplemented): no
// strided src, so no broadcast src either.  A dst is a Mat header with
// steps, so it may be strided.
const unsigned HANDLED = RESHAPE_LAYOUT_STRIDED_DST | RESHAPE_LAYOUT_IN_PLACE |
                         RESHAPE_LAYOUT_SIZE1_STRIDES;
#define NOT_CONTINUOUS "Mat::reshape takes continuous matrices only"

// The OpenCV depth of each dtype it has.
const reshape_adapter_type depths[] = {
    {RESHAPE_DT_U8, CV_8U},   {RESHAPE_DT_S8, CV_8S},   {RESHAPE_DT_U16, CV_16U},
    {RESHAPE_DT_S16, CV_16S}, {RESHAPE_DT_F16, CV_16F}, {RESHAPE_DT_S32, CV_32S},
    {RESHAPE_DT_F32, CV_32F}, {RESHAPE_DT_F64, CV_64F},
};

// The OpenCV depth of `dtype` into *depth, or NOT_SUPPORTED.
reshape_status depth_of(reshape_dtype dtype, int *depth)
{
    return reshape_adapter_map_dtype(depths, RESHAPE_ADAPTER_COUNT(depths), dtype,
                                     "OpenCV has no depth", depth);
}

// cv::Error codes: "not implemented" is NOT_SUPPORTED, the rest of OpenCV's
// refusals of an input INVALID_ARGUMENT (no code names a spec rule), memory
// INTERNAL.
reshape_status from_cv(const cv::Exception &e)
{
    reshape_status st = RESHAPE_E_INVALID_ARGUMENT;
    if (e.code == cv::Error::StsNotImplemented)
        st = RESHAPE_E_NOT_SUPPORTED;
    else if (e.code == cv::Error::StsNoMem)
        st = RESHAPE_E_INTERNAL;
    return reshape_adapter_fail(st, "opencv refused the reshape: %s (code %d) in %s",
                        e.err.c_str(), e.code, e.func.c_str());
}

// A Mat header over `t` (data may be NULL for infer: the header is never
// read).  Returns RESHAPE_OK or NOT_SUPPORTED for what a Mat cannot hold.
reshape_status header(const reshape_tensor *t, cv::Mat *m)
{
    if (t->rank < 2 || t->rank > CV_MAX_DIM)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "a cv::Mat has 2 to %d dims, not %d", CV_MAX_DIM,
                            (int)t->rank);
    std::vector<int> sizes(t->rank);
    std::vector<size_t> steps(t->rank);
    size_t esz = reshape_dtype_bits(t->dtype) / 8;
    for (int32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] > INT_MAX)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "cv::Mat sizes are int: dim %d is %lld", (int)i,
                                (long long)t->dims[i]);
        sizes[i] = (int)t->dims[i];
    }
    if (t->strides != nullptr) {
        if (t->strides[t->rank - 1] != 1)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                        "a cv::Mat's innermost step is its element size");
        for (int32_t i = 0; i < t->rank; i++)
            if (__builtin_mul_overflow((size_t)t->strides[i], esz, &steps[i]))
                return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                            "cv::Mat steps are size_t bytes: stride %d "
                                            "does not fit", (int)i);
    }
    // A Mat with no data is "empty" to OpenCV; infer_shape's src has none,
    // so its header points at a byte that is never read.
    static unsigned char no_data;
    int depth;
    reshape_status st = depth_of(t->dtype, &depth);
    if (st != RESHAPE_OK)
        return st;
    *m = cv::Mat(t->rank, sizes.data(), depth,
                 t->data != nullptr ? t->data : &no_data,
                 t->strides != nullptr ? steps.data() : nullptr);
    return RESHAPE_OK;
}

// OpenCV's reshape of `src` to the shape of `params` into *out.  Ints only;
// a 0 means "copy" to OpenCV whatever special_zero says, and -1 is not a
// value it takes: both are NOT_SUPPORTED where the operation means
// otherwise.
reshape_status reshape(const reshape_params *params, const reshape_tensor *src,
                       cv::Mat *out)
{
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count;
    reshape_status st;
    if ((st = reshape_adapter_shape_list(params, RESHAPE_ADAPTER_NO_MINUS_ONE |
                                                     RESHAPE_ADAPTER_COPY_ZERO,
                                         values, &count)) != RESHAPE_OK)
        return st;
    std::vector<int> newsz(count);
    for (int32_t i = 0; i < count; i++) {
        if (values[i] == 0 && !params->special_zero)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "OpenCV's reshape has no literal 0: a 0 copies "
                                "the source dim (index %d)",
                                (int)i);
        if (values[i] > INT_MAX || values[i] < INT_MIN)
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "OpenCV's sizes are int: %lld at index %d",
                                (long long)values[i], (int)i);
        newsz[i] = (int)values[i];
    }
    if (count < 2 || count > CV_MAX_DIM)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "a cv::Mat has 2 to %d dims, not %d", CV_MAX_DIM,
                            (int)count);
    cv::Mat m;
    if ((st = header(src, &m)) != RESHAPE_OK)
        return st;
    *out = m.reshape(0, count, newsz.data());
    return RESHAPE_OK;
}

reshape_status cv_supports(reshape_op op, reshape_dtype data_dtype,
                           reshape_dtype shape_dtype, unsigned layout)
{
    int depth;
    reshape_status st;
    if ((st = reshape_adapter_check_layout(op, layout, HANDLED, NOT_CONTINUOUS)) !=
            RESHAPE_OK ||
        (st = depth_of(data_dtype, &depth)) != RESHAPE_OK)
        return st;
    return shape_type_check(op, shape_dtype, "OpenCV takes new sizes as ints");
}

// What both entry points check after the ABI: the depth, and for execute
// (`dst` not NULL) the layout.
reshape_status enter(const reshape_params *params, const reshape_tensor *src,
                     const reshape_tensor *dst)
{
    int depth;
    reshape_status st = depth_of(src->dtype, &depth);
    if (st != RESHAPE_OK || dst == nullptr)
        return st;
    return reshape_adapter_check_layout(params->op, reshape_adapter_layout(src, dst), HANDLED,
                                        NOT_CONTINUOUS);
}

reshape_status cv_infer_shape(const reshape_params *params,
                              const reshape_tensor *src, int32_t *out_rank,
                              int64_t *out_dims)
{
    reshape_status st = reshape_adapter_check_infer(params, src, out_rank, out_dims);
    if (st != RESHAPE_OK || (st = enter(params, src, nullptr)) != RESHAPE_OK)
        return st;
    try {
        reshape_tensor dense = *src;
        dense.strides = nullptr;
        cv::Mat out;
        if ((st = reshape(params, &dense, &out)) != RESHAPE_OK)
            return st;
        *out_rank = out.dims;
        for (int i = 0; i < out.dims; i++)
            out_dims[i] = out.size[i];
        return RESHAPE_OK;
    } catch (const cv::Exception &e) {
        return from_cv(e);
    } catch (const std::exception &e) {
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "opencv threw: %s", e.what());
    }
}

reshape_status cv_execute(const reshape_params *params, const reshape_tensor *src,
                          const reshape_tensor *dst)
{
    reshape_status st = reshape_adapter_check_execute(params, src, dst);
    if (st != RESHAPE_OK || (st = enter(params, src, dst)) != RESHAPE_OK)
        return st;
    try {
        cv::Mat out, to;
        if ((st = reshape(params, src, &out)) != RESHAPE_OK)
            return st;
        std::vector<int64_t> dims(out.size.p, out.size.p + out.dims);
        if ((st = reshape_adapter_check_dst(src, dst, out.dims, dims.data())) != RESHAPE_OK ||
            (st = header(dst, &to)) != RESHAPE_OK)
            return st;
        out.copyTo(to);
        if (to.data != dst->data && out.total() > 0)
            return reshape_adapter_fail(RESHAPE_E_INTERNAL,
                                "Mat::copyTo reallocated instead of writing dst");
        return RESHAPE_OK;
    } catch (const cv::Exception &e) {
        return from_cv(e);
    } catch (const std::exception &e) {
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "opencv threw: %s", e.what());
    }
}

} // namespace

RESHAPE_ADAPTER_DEFINE("OpenCV", CV_VERSION,
                       cv_supports, cv_infer_shape, cv_execute,
                       nullptr)
