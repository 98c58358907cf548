// no_type_list.cpp - libtorch's at::reshape has no list of element types:
// s8, u8 and s32 tensors reshape like f32 ones, where oneDNN Graph's
// StaticReshape-1 and DynamicReshape-1 list f32, f16 and bf16 only (the
// scoreboard's ACCEPTED_INVALID ... DATA_TYPE for those two operations: what
// libtorch cannot express, not a libtorch defect).  Exit 0: every one
// reshapes (the finding holds); 1: one is refused now.  Against ATen alone.
#include <ATen/ATen.h>
#include <torch/csrc/api/include/torch/version.h>

#include <cstdio>

int main()
{
    const at::ScalarType types[3] = {at::kChar, at::kByte, at::kInt};
    int held = 1;
    std::printf("libtorch %s\n", TORCH_VERSION);
    for (at::ScalarType t : types) {
        std::printf("at::reshape %s dims [2, 3] to [3, 2]; expected by StaticReshape-1: "
                    "an error (data type)\n", c10::toString(t));
        try {
            at::Tensor r = at::reshape(at::arange(6, t).view({2, 3}), {3, 2});
            std::printf("observed: dims [%lld, %lld]\n", static_cast<long long>(r.size(0)),
                        static_cast<long long>(r.size(1)));
            held = held && r.size(0) == 3 && r.size(1) == 2;
        } catch (const std::exception &e) {
            std::printf("observed: an exception\n");
            held = 0;
        }
    }
    return held ? 0 : 1;
}
