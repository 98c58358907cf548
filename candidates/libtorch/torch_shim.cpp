// torch_shim.cpp - at::reshape and Tensor::copy_ behind the C interface of
// torch_shim.h.  Depends on ATen only (libtorch_cpu, libc10).  Exceptions
// never cross into C: every entry point catches std::exception.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/api/include/torch/version.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <vector>

#include "torch_shim.h"

namespace {

at::ScalarType scalar_type(torch_shim_type t)
{
    switch (t) {
    case TORCH_SHIM_F64: return at::kDouble;
    case TORCH_SHIM_F32: return at::kFloat;
    case TORCH_SHIM_F16: return at::kHalf;
    case TORCH_SHIM_BF16: return at::kBFloat16;
    case TORCH_SHIM_S64: return at::kLong;
    case TORCH_SHIM_S32: return at::kInt;
    case TORCH_SHIM_S16: return at::kShort;
    case TORCH_SHIM_S8: return at::kChar;
    case TORCH_SHIM_U8: return at::kByte;
    case TORCH_SHIM_BOOL: return at::kBool;
    }
    return at::kFloat;
}

// One intra-op thread: the harness forks workers and runs its own threads;
// libtorch's OpenMP pool would only add noise (and trouble after fork).
std::once_flag threads_once;

void set_threads()
{
    std::call_once(threads_once, [] { at::set_num_threads(1); });
}

at::Tensor wrap(const torch_shim_tensor *t)
{
    static unsigned char empty_byte;
    void *data = t->data != nullptr ? t->data : &empty_byte;
    at::IntArrayRef dims(t->dims, static_cast<size_t>(t->rank));
    auto options = at::TensorOptions().dtype(scalar_type(t->type));
    if (t->strides == nullptr)
        return at::from_blob(data, dims, options);
    return at::from_blob(data, dims,
                         at::IntArrayRef(t->strides, static_cast<size_t>(t->rank)),
                         options);
}

void write_dims(const at::Tensor &r, int32_t *out_rank, int64_t *out_dims)
{
    *out_rank = static_cast<int32_t>(r.dim());
    for (int64_t i = 0; i < r.dim(); i++)
        out_dims[i] = r.size(i);
}

torch_shim_result threw(const std::exception &e, char *message, size_t size)
{
    // c10::Error's what() carries a backtrace after the first line.
    std::snprintf(message, size, "%s", e.what());
    char *nl = std::strchr(message, '\n');
    if (nl != nullptr)
        *nl = '\0';
    return TORCH_SHIM_THREW;
}

} // namespace

extern "C" torch_shim_result torch_shim_infer(const torch_shim_tensor *src,
                                              const int64_t *shape, int32_t count,
                                              int32_t *out_rank, int64_t *out_dims,
                                              char *message, size_t message_size)
{
    try {
        set_threads();
        static unsigned char one_byte;
        std::vector<int64_t> zeros(static_cast<size_t>(src->rank), 0);
        torch_shim_tensor view = *src;
        view.strides = zeros.data();
        view.data = &one_byte;
        at::Tensor r = at::reshape(wrap(&view),
                                   at::IntArrayRef(shape, static_cast<size_t>(count)));
        write_dims(r, out_rank, out_dims);
        return TORCH_SHIM_OK;
    } catch (const std::exception &e) {
        return threw(e, message, message_size);
    }
}

extern "C" torch_shim_result torch_shim_execute(const torch_shim_tensor *src,
                                                const int64_t *shape, int32_t count,
                                                const torch_shim_tensor *dst,
                                                int32_t *out_rank, int64_t *out_dims,
                                                char *message, size_t message_size)
{
    try {
        set_threads();
        at::Tensor r = at::reshape(wrap(src),
                                   at::IntArrayRef(shape, static_cast<size_t>(count)));
        write_dims(r, out_rank, out_dims);
        if (r.dim() != dst->rank ||
            !r.sizes().equals(at::IntArrayRef(dst->dims, static_cast<size_t>(dst->rank))))
            return TORCH_SHIM_DST_MISMATCH;
        wrap(dst).copy_(r);
        return TORCH_SHIM_OK;
    } catch (const std::exception &e) {
        return threw(e, message, message_size);
    }
}

extern "C" const char *torch_shim_version(void)
{
    return TORCH_VERSION;
}
