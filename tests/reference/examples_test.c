/*
 * examples_test.c - the worked examples of the OpenVINO texts: the five of
 * openvino_reshape_1.rst and the two of openvino_reshape_1_short.md, each
 * through infer_shape and through execute (the bytes come out unchanged).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"

#include "support.h"

#define S64 RESHAPE_DT_S64
#define F32 RESHAPE_DT_F32

static struct infer_row examples[] = {
    {"openvino_reshape_1.rst, Example 1: reshape empty tensor",
     OV, 0, F32, 4, {2, 5, 5, 0}, S64, 2, {0, 4}, GIVES(2, 0, 4)},
    {"openvino_reshape_1.rst, Example 2: preserve first dim, calculate "
     "second and fix value for third dim",
     OV, 1, F32, 4, {2, 5, 5, 24}, S64, 3, {0, -1, 4}, GIVES(3, 2, 150, 4)},
    {"openvino_reshape_1.rst, Example 3: preserve first two dims, fix value "
     "for third dim and calculate fourth",
     OV, 1, F32, 3, {2, 2, 3}, S64, 4, {0, 0, 1, -1}, GIVES(4, 2, 2, 1, 3)},
    {"openvino_reshape_1.rst, Example 4: calculate first dim and preserve "
     "second dim",
     OV, 1, F32, 3, {3, 1, 1}, S64, 2, {-1, 0}, GIVES(2, 3, 1)},
    {"openvino_reshape_1.rst, Example 5: preserve first dim and calculate "
     "second dim",
     OV, 1, F32, 3, {3, 1, 1}, S64, 2, {0, -1}, GIVES(2, 3, 1)},
    /* The older text's comment says "3 elements: 0, 4" for a 2-element
     * shape tensor (DECISIONS.md D6): the two values are used. */
    {"openvino_reshape_1_short.md, first example (erratum: 2 values)",
     OV, 0, F32, 4, {2, 5, 5, 0}, S64, 2, {0, 4}, GIVES(2, 0, 4)},
    {"openvino_reshape_1_short.md, second example",
     OV, 1, F32, 4, {2, 5, 5, 24}, S64, 3, {0, -1, 4}, GIVES(3, 2, 150, 4)},
};

ParameterizedTestParameters(examples, infer_shape)
{
    return cr_make_param_array(struct infer_row, examples,
                               sizeof examples / sizeof examples[0]);
}

RowTest(struct infer_row *row, examples, infer_shape)
{
    check_infer_row(row);
}

ParameterizedTestParameters(examples, execute)
{
    return cr_make_param_array(struct infer_row, examples,
                               sizeof examples / sizeof examples[0]);
}

RowTest(struct infer_row *row, examples, execute)
{
    check_execute_row(row);
}
