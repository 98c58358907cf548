// num_elements_wraps.cpp - Arm NN 20.08 (ARMNN_VERSION 22.0.0):
// TensorShape::GetNumElements() is an unsigned int product that wraps:
// [3037000499, 3037000499] counts 2661407785 (the square modulo 2^32), so a
// -1 solved against it gives [2661407785] (the scoreboard's FAIL: wrong
// shape); [2147483648, 2147483648, 2] (2^63 elements) counts 0 (its
// ACCEPTED_INVALID ... OVERFLOW).  Exit 0: both still wrap so (the finding
// holds); 1: otherwise now (an exception is exit 134: fails too).  Against
// libarmnn alone.
#include <armnn/ArmNN.hpp>
#include <armnn/Utils.hpp>

#include <cstdio>
#include <string>
#include <vector>

static void print_shape(const char *what, const armnn::TensorShape &s)
{
    std::printf("%s [", what);
    for (unsigned int i = 0; i < s.GetNumDimensions(); i++)
        std::printf("%s%u", i ? ", " : "", s[i]);
    std::printf("] (GetNumElements %u)\n", s.GetNumElements());
}

int main()
{
    std::printf("Arm NN %s\n", ARMNN_VERSION);
    armnn::TensorShape a({3037000499u, 3037000499u}), b({2147483648u, 2147483648u, 2});
    std::printf("expected: 9223372030926249001 elements\n");
    print_shape("observed:", a);
    std::printf("expected: 9223372036854775808 elements\n");
    print_shape("observed:", b);
    return a.GetNumElements() == 2661407785u && b.GetNumElements() == 0 ? 0 : 1;
}
