// empty_tensor_numel_overflow.cpp - libtorch's at::reshape refuses an empty
// tensor whose other dims multiply past int64: f32 dims [2147483647, 0,
// 2147483647, 2147483647] (no element) to [2147483647, 2147483647,
// 2147483647, 0] throws c10::Error "numel: integer multiplication
// overflow", where the reshape specs give those dims (the volume is 0).
// The tensor is at::from_blob over one byte with all strides 0, as nothing
// is ever read.  Exit 0: still refused (the finding holds); 1: at::reshape
// returns the dims now.  Against ATen alone (libtorch_cpu, libc10).
#include <ATen/ATen.h>
#include <torch/csrc/api/include/torch/version.h>

#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
    const int64_t m = 2147483647;
    std::vector<int64_t> dims = {m, 0, m, m}, shape = {m, m, m, 0}, strides(4, 0);
    static unsigned char byte;
    std::printf("libtorch %s\n", TORCH_VERSION);
    std::printf("at::reshape f32 dims [2147483647, 0, 2147483647, 2147483647] to "
                "[2147483647, 2147483647, 2147483647, 0]\n"
                "expected: dims [2147483647, 2147483647, 2147483647, 0]\n");
    try {
        at::Tensor src = at::from_blob(&byte, dims, strides, at::kFloat);
        at::Tensor r = at::reshape(src, shape);
        std::printf("observed: dims [");
        for (int64_t i = 0; i < r.dim(); i++)
            std::printf("%s%lld", i ? ", " : "", static_cast<long long>(r.size(i)));
        std::printf("]\n");
        return 1;
    } catch (const std::exception &e) {
        const char *nl = std::strchr(e.what(), '\n');
        std::printf("observed: %s: %.*s\n", "c10::Error",
                    nl ? static_cast<int>(nl - e.what()) : 200, e.what());
        return 0;
    }
}
