/*
 * supports_test.c - what every library adapter answers in supports() for a
 * shape dtype outside its operation's list (DECISIONS.md D7): a library
 * that takes the shape as a plain list of integers cannot reject a type, so
 * the adapter answers NOT_SUPPORTED and says why in last_error
 * (adapter_refuse_shape_dtype in candidates/adapter_common.c).  Depends on
 * the ABI header, Criterion and adapter_load.h.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "adapter_load.h"
#include "reshape_candidate.h"

/* Each adapter with the words its refusal starts with. */
struct refusal {
    char name[16];
    char takes[48];
};

static struct refusal refusals[] = {
    {"onednn", "onednn takes the shape as dnnl_dims_t"},
    {"onednn3", "onednn takes the shape as dnnl_dims_t"},
    {"onednn_graph", "StaticReshape takes the shape as an s64 list"},
    {"onednn_graph313", "StaticReshape takes the shape as an s64 list"},
    {"libtorch", "libtorch takes the shape as an int64 list"},
    {"numpy", "numpy takes the shape as an npy_intp list"},
    {"xnnpack", "xnnpack takes the shape as a list of size_t"},
    {"xtensor", "xtensor takes the shape as a list of integers"},
    {"eigen", "Eigen takes new dims as integers"},
    {"opencv", "OpenCV takes new sizes as ints"},
    {"armnn", "Arm NN takes the target as a TensorShape"},
};

ParameterizedTestParameters(supports, an_s32_shape_is_refused_for_onnx)
{
    return cr_make_param_array(struct refusal, refusals, sizeof refusals / sizeof refusals[0]);
}

ParameterizedTest(struct refusal *r, supports, an_s32_shape_is_refused_for_onnx)
{
    const reshape_candidate *c = adapter_load(r->name);
    char want[160];

    /* ONNX Reshape-14 lists s64 only (D7); every adapter takes f32 data
     * dense, so the shape dtype is the only reason to refuse. */
    cr_assert_eq(c->supports(RESHAPE_OP_ONNX_RESHAPE_14, RESHAPE_DT_F32, RESHAPE_DT_S32, 0),
                 RESHAPE_E_NOT_SUPPORTED, "%s", r->name);
    snprintf(want, sizeof want, "%s; a 's32' shape tensor cannot be passed for 'onnx_reshape_14'",
             r->takes);
    cr_expect_str_eq(adapter_why(c), want);
    if (adapter_graph_without_reshape(c, r->name))
        return;
    cr_expect_eq(c->supports(RESHAPE_OP_ONNX_RESHAPE_14, RESHAPE_DT_F32, RESHAPE_DT_S64, 0),
                 RESHAPE_OK, "%s: an s64 shape is in the list: %s", r->name, adapter_why(c));
}
