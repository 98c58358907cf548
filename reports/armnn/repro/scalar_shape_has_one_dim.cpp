// scalar_shape_has_one_dim.cpp - Arm NN 20.08 (ARMNN_VERSION 22.0.0): a
// scalar's TensorShape (TensorShape(Dimensionality::Scalar)) answers
// GetNumDimensions() 1 and operator[](0) 1, so a copying 0 read through it,
// as OnnxParser's ComputeReshapeInfo reads the input dims (the adapter does
// the same, candidates/armnn/parser_shape.cpp), copies a dim the scalar does
// not have: [] with [0] gives [1] where the specs refuse a 0 at an index
// not below the input rank (0).  Exit 0: still one dim of 1 (the finding
// holds); 1: otherwise now (an exception is exit 134: fails too).  Against
// libarmnn alone.
#include <armnn/ArmNN.hpp>
#include <armnn/Utils.hpp>

#include <cstdio>
#include <string>
#include <vector>

[[maybe_unused]] static void print_shape(const char *what, const armnn::TensorShape &s)
{
    std::printf("%s [", what);
    for (unsigned int i = 0; i < s.GetNumDimensions(); i++)
        std::printf("%s%u", i ? ", " : "", s[i]);
    std::printf("] (GetNumElements %u)\n", s.GetNumElements());
}

int main()
{
    std::printf("Arm NN %s\n", ARMNN_VERSION);
    const armnn::TensorShape s(armnn::Dimensionality::Scalar); // const: the non-const [] throws
    std::printf("TensorShape(Dimensionality::Scalar)\nexpected: no dim to copy (rank 0)\n");
    std::printf("observed: GetNumDimensions %u, operator[](0) %u, GetNumElements %u\n",
                s.GetNumDimensions(), s[0], s.GetNumElements());
    return s.GetNumDimensions() == 1 && s[0] == 1 ? 0 : 1;
}
