// kit_cxx.cpp - the adapter kit compiled as C++17 with -Wall -Wextra
// -Werror (kit_cxx.h).  Built without exceptions or RTTI, so the test
// binary links with the C compiler and no C++ runtime.
#include <cstdio>

#include "reshape_adapter.h"

#include "kit_cxx.h"

namespace {

void copy_why(char *why, size_t size)
{
    const char *m = reshape_adapter_last_error();
    std::snprintf(why, size, "%s", m != nullptr ? m : "");
}

} // namespace

extern "C" reshape_status kit_cxx_check_execute(const reshape_params *params,
                                                const reshape_tensor *src,
                                                const reshape_tensor *dst, char *why,
                                                size_t size)
{
    reshape_status st = reshape_adapter_check_execute(params, src, dst);
    copy_why(why, size);
    return st;
}

extern "C" reshape_status kit_cxx_check_infer(const reshape_params *params,
                                              const reshape_tensor *src, char *why,
                                              size_t size)
{
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    reshape_status st = reshape_adapter_check_infer(params, src, &rank, dims);
    copy_why(why, size);
    return st;
}

extern "C" unsigned kit_cxx_layout(const reshape_tensor *src, const reshape_tensor *dst)
{
    return reshape_adapter_layout(src, dst);
}
