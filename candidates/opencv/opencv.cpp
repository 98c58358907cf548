// opencv.cpp - the ABI over OpenCV's cv::Mat::reshape (Debian 12's
// libopencv-core-dev 4.6): a Mat header over the caller's src (its steps
// from src's strides), reshaped with Mat::reshape(0, newndims, newsz),
// which decides the output dims and checks them; the result is copied with
// Mat::copyTo into a Mat header over dst.  Depends on
// candidates/adapter_common.h and opencv2/core.
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

#include "../adapter_common.h"

namespace {

// Mat::reshape documents that it needs a continuous matrix, and refuses
// any other ("The matrix is not continuous...", or StsNotImplemented).
#define NOT_CONTINUOUS "Mat::reshape takes continuous matrices only: a strided src " \
    "cannot be expressed"

// The OpenCV depth of `dtype`, or -1.
int depth_of(reshape_dtype dtype)
{
    switch (dtype) {
    case RESHAPE_DT_U8: return CV_8U;
    case RESHAPE_DT_S8: return CV_8S;
    case RESHAPE_DT_U16: return CV_16U;
    case RESHAPE_DT_S16: return CV_16S;
    case RESHAPE_DT_F16: return CV_16F;
    case RESHAPE_DT_S32: return CV_32S;
    case RESHAPE_DT_F32: return CV_32F;
    case RESHAPE_DT_F64: return CV_64F;
    default: return -1;
    }
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
    return adapter_fail(st, "opencv refused the reshape: %s (code %d) in %s",
                        e.err.c_str(), e.code, e.func.c_str());
}

// A Mat header over `t` (data may be NULL for infer: the header is never
// read).  Returns RESHAPE_OK or NOT_SUPPORTED for what a Mat cannot hold.
reshape_status header(const reshape_tensor *t, cv::Mat *m)
{
    if (t->rank < 2 || t->rank > CV_MAX_DIM)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "a cv::Mat has 2 to %d dims, not %d", CV_MAX_DIM,
                            (int)t->rank);
    std::vector<int> sizes(t->rank);
    std::vector<size_t> steps(t->rank);
    size_t esz = reshape_dtype_bits(t->dtype) / 8;
    for (int32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] > INT_MAX)
            return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "cv::Mat sizes are int: dim %d is %lld", (int)i,
                                (long long)t->dims[i]);
        sizes[i] = (int)t->dims[i];
    }
    if (t->strides != nullptr) {
        if (t->strides[t->rank - 1] != 1)
            return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "a cv::Mat's innermost step is its element size");
        for (int32_t i = 0; i < t->rank; i++)
            steps[i] = (size_t)t->strides[i] * esz;
    }
    // A Mat with no data is "empty" to OpenCV; infer_shape's src has none,
    // so its header points at a byte that is never read.
    static unsigned char no_data;
    *m = cv::Mat(t->rank, sizes.data(), depth_of(t->dtype),
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
    if ((st = adapter_list_shape(params, ADAPTER_LIST_NO_MINUS_ONE |
                                             ADAPTER_LIST_COPY_ZERO,
                                 values, &count)) != RESHAPE_OK)
        return st;
    std::vector<int> newsz(count);
    for (int32_t i = 0; i < count; i++) {
        if (values[i] == 0 && !params->special_zero)
            return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "OpenCV's reshape has no literal 0: a 0 copies "
                                "the source dim (index %d)",
                                (int)i);
        if (values[i] > INT_MAX || values[i] < INT_MIN)
            return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                "OpenCV's sizes are int: %lld at index %d",
                                (long long)values[i], (int)i);
        newsz[i] = (int)values[i];
    }
    if (count < 2 || count > CV_MAX_DIM)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
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
    const unsigned known = RESHAPE_LAYOUT_STRIDED_SRC |
                           RESHAPE_LAYOUT_STRIDED_DST | RESHAPE_LAYOUT_IN_PLACE;
    adapter_clear_error();
    if (reshape_op_name(op) == nullptr || (layout & ~known) != 0)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED, "unknown op %d or layout %u",
                            (int)op, layout);
    if (layout & RESHAPE_LAYOUT_STRIDED_SRC)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED, NOT_CONTINUOUS);
    if (depth_of(data_dtype) < 0)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED, "OpenCV has no depth for '%s'",
                            adapter_dtype_name(data_dtype));
    if (!adapter_shape_dtype_allowed(op, shape_dtype))
        return adapter_refuse_shape_dtype(op, shape_dtype,
                                          "OpenCV takes new sizes as ints");
    return RESHAPE_OK;
}

reshape_status enter(const reshape_params *params, const reshape_tensor *src,
                     const reshape_tensor *dst)
{
    adapter_clear_error();
    reshape_status st = adapter_check_call(params, src, dst);
    if (st != RESHAPE_OK)
        return st;
    if (depth_of(src->dtype) < 0)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED, "OpenCV has no depth for '%s'",
                            reshape_dtype_name(src->dtype));
    if (dst != nullptr && src->strides != nullptr)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED, NOT_CONTINUOUS);
    return RESHAPE_OK;
}

reshape_status cv_infer_shape(const reshape_params *params,
                              const reshape_tensor *src, int32_t *out_rank,
                              int64_t *out_dims)
{
    reshape_status st = enter(params, src, nullptr);
    if (st != RESHAPE_OK)
        return st;
    if (out_rank == nullptr || out_dims == nullptr)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "'out_rank' or 'out_dims' is NULL");
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
        return adapter_fail(RESHAPE_E_INTERNAL, "opencv threw: %s", e.what());
    }
}

reshape_status cv_execute(const reshape_params *params, const reshape_tensor *src,
                          const reshape_tensor *dst)
{
    if (dst == nullptr)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT, "'dst' is NULL");
    reshape_status st = enter(params, src, dst);
    if (st != RESHAPE_OK)
        return st;
    try {
        cv::Mat out, to;
        if ((st = reshape(params, src, &out)) != RESHAPE_OK)
            return st;
        std::vector<int64_t> dims(out.size.p, out.size.p + out.dims);
        if ((st = adapter_check_dst(src, dst, out.dims, dims.data())) != RESHAPE_OK ||
            (st = header(dst, &to)) != RESHAPE_OK)
            return st;
        out.copyTo(to);
        if (to.data != dst->data && out.total() > 0)
            return adapter_fail(RESHAPE_E_INTERNAL,
                                "Mat::copyTo reallocated instead of writing dst");
        return RESHAPE_OK;
    } catch (const cv::Exception &e) {
        return from_cv(e);
    } catch (const std::exception &e) {
        return adapter_fail(RESHAPE_E_INTERNAL, "opencv threw: %s", e.what());
    }
}

const reshape_candidate table = {
    RESHAPE_ABI_VERSION,
    sizeof(reshape_candidate),
    "OpenCV",
    CV_VERSION,
    cv_supports,
    cv_infer_shape,
    cv_execute,
    adapter_last_error,
    nullptr, // limits: none declared
    nullptr, // device: host memory
};

} // namespace

extern "C" RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    return &table;
}
