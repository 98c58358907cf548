// bool_copy_normalises.cpp - libtorch's Tensor::copy_ of a bool tensor
// writes 0 or 1, not the byte it read: a bool tensor (at::kBool, one byte
// an element) over the bytes 00 01 02 7f 80 ff, reshaped with at::reshape
// from [2, 3] to [3, 2] and copied into another with copy_, comes out as
// 00 01 01 01 01 01; a reshape copies bytes (ONNX Reshape-14, OpenVINO
// Reshape-1: the data is not changed).  In place (the destination another
// tensor over the source's own bytes) the same.  Exit 0: both still normalise (the finding holds); 1:
// the bytes come through now.  Against ATen alone (libtorch_cpu, libc10).
#include <ATen/ATen.h>
#include <torch/csrc/api/include/torch/version.h>

#include <cstdio>
#include <cstring>

static void print(const char *what, const unsigned char *b)
{
    std::printf("%s", what);
    for (int i = 0; i < 6; i++)
        std::printf(" %02x", b[i]);
    std::printf("\n");
}

int main()
{
    unsigned char src_bytes[6] = {0x00, 0x01, 0x02, 0x7f, 0x80, 0xff};
    unsigned char dst_bytes[6] = {0};
    const unsigned char normalised[6] = {0x00, 0x01, 0x01, 0x01, 0x01, 0x01};
    std::printf("libtorch %s\n", TORCH_VERSION);
    print("input bool [2, 3] bytes:", src_bytes);
    at::Tensor src = at::from_blob(src_bytes, {2, 3}, at::kBool);
    at::Tensor dst = at::from_blob(dst_bytes, {3, 2}, at::kBool);
    dst.copy_(at::reshape(src, {3, 2}));
    print("expected dst [3, 2] bytes:", src_bytes);
    print("observed dst [3, 2] bytes:", dst_bytes);
    at::Tensor same = at::from_blob(src_bytes, {3, 2}, at::kBool);
    same.copy_(at::reshape(src, {3, 2}));
    print("observed in place (dst over the src bytes):", src_bytes);
    return std::memcmp(dst_bytes, normalised, 6) == 0 &&
                   std::memcmp(src_bytes, normalised, 6) == 0
               ? 0
               : 1;
}
