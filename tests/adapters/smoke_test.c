/*
 * smoke_test.c - dlopens each library adapter in build/candidates/ and runs
 * the five OpenVINO examples (openvino_reshape_1.rst, Examples 1-5) plus
 * three plain reshapes through it, checking shapes, bytes, what is written
 * outside dst, and in-place and strided calls.  Depends on the ABI header,
 * Criterion and libdl.
 *
 * An adapter that was not built (`make candidates` skipped it or was not
 * run) is a skipped test, never a pass.  What each library can express is
 * stated per library below (`expressible`): a configuration it cannot
 * express must answer NOT_SUPPORTED, and one it can must give the
 * example's result.  ADAPTER_DIR overrides build/candidates.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "adapter_load.h"
#include "reshape_candidate.h"

/* ------------------------------------------------------------ examples */

enum { LIMIT_LITERAL = 1, LIMIT_NO_MINUS_ONE = 2 };

struct example {
    const char *name;
    int32_t rank;
    int64_t dims[4];
    int32_t count;
    int64_t values[4];
    int32_t special_zero;
    /* The result: out_rank < 0 means any error status. */
    int32_t out_rank;
    int64_t out_dims[4];
    /* What a library needs to express it: a copying zero, a -1. */
    int needs_copy_zero, needs_minus_one;
};

static const struct example examples[] = {
    {"openvino example 1, empty tensor", 4, {2, 5, 5, 0}, 2, {0, 4}, 0,
     2, {0, 4}, 0, 0},
    {"openvino example 2, copy first, infer second", 4, {2, 5, 5, 24}, 3,
     {0, -1, 4}, 1, 3, {2, 150, 4}, 1, 1},
    {"openvino example 3, copy two, infer fourth", 3, {2, 2, 3}, 4,
     {0, 0, 1, -1}, 1, 4, {2, 2, 1, 3}, 1, 1},
    {"openvino example 4, infer first, copy second", 3, {3, 1, 1}, 2,
     {-1, 0}, 1, 2, {3, 1}, 1, 1},
    {"openvino example 5, copy first, infer second", 3, {3, 1, 1}, 2,
     {0, -1}, 1, 2, {3, 1}, 1, 1},
    {"explicit dims", 3, {2, 3, 4}, 2, {4, 6}, 0, 2, {4, 6}, 0, 0},
    {"one inferred dim", 3, {2, 3, 4}, 2, {-1, 4}, 0, 2, {6, 4}, 0, 1},
    {"volume mismatch", 3, {2, 3, 4}, 2, {5, 5}, 0, -1, {0}, 0, 0},
};
#define EXAMPLE_COUNT (sizeof examples / sizeof examples[0])

/* ------------------------------------------------------------ libraries */

struct library {
    const char *name;
    reshape_op op;       /* the op the smoke test drives it through */
    int copy_zero;       /* it has a copying zero */
    int minus_one;       /* it has an inferred dim */
    int strided;         /* it takes strided src and dst */
};

static const struct library libraries[] = {
    {"xnnpack", RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 0, 0},
    {"onednn", RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, 0, 0, 1},
    {"onednn3", RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, 0, 0, 1},
    {"onnxruntime", RESHAPE_OP_ONNX_RESHAPE_14, 1, 1, 0},
    {"onnx_reference", RESHAPE_OP_ONNX_RESHAPE_14, 1, 1, 1},
    {"onnx_reference_latest", RESHAPE_OP_ONNX_RESHAPE_14, 1, 1, 1},
    {"libtorch", RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 1, 1},
    {"numpy", RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 1, 1},
    {"onednn_graph", RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, 1, 1, 1},
    {"onednn_graph313", RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, 1, 1, 1},
    {"xtensor", RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 1, 1},
    {"eigen", RESHAPE_OP_OPENVINO_RESHAPE_1, 0, 0, 0},
    /* OpenCV takes a strided dst but not a strided src: `strided` is 0. */
    {"opencv", RESHAPE_OP_OPENVINO_RESHAPE_1, 1, 0, 0},
    /* Arm NN resolves -1 and a copying 0 as its parsers do (README.md). */
    {"armnn", RESHAPE_OP_OPENVINO_RESHAPE_1, 1, 1, 0},
};
#define LIBRARY_COUNT (sizeof libraries / sizeof libraries[0])

/*
 * What a library does that differs from the example's result, as measured:
 * each entry is asserted exactly, so it shouts when a new version changes.
 * These are findings about the libraries, not about the adapters.
 */
/* A known status meaning the call dies: the example is not run here and
 * the signal asserted in findings_test.c. */
#define KNOWN_CRASH ((reshape_status)-1)

static const struct known {
    const char *library, *example;
    reshape_status infer_status; /* what infer_shape returns */
    const char *why;
} known[] = {
    {"xnnpack", "volume mismatch", RESHAPE_OK,
     "XNNPACK 2022's static reshape compares no volumes: it accepts [5,5] "
     "for 24 elements"},
    {"onednn", "openvino example 1, empty tensor", RESHAPE_E_INVALID_ARGUMENT,
     "dnnl_memory_desc_reshape refuses a zero-volume descriptor"},
    {"onednn3", "openvino example 1, empty tensor", RESHAPE_E_INVALID_ARGUMENT,
     "dnnl_memory_desc_reshape of oneDNN 3.2.0 refuses a zero-volume descriptor too"},
    {"xtensor", "openvino example 1, empty tensor", KNOWN_CRASH,
     "xtensor's reshape divides by the target's product, 0 here: SIGFPE "
     "(findings_test.c asserts it)"},
    {"opencv", "openvino example 1, empty tensor", RESHAPE_E_NOT_SUPPORTED,
     "OpenCV's reshape has no literal 0: its 0 copies the source dim"},
};

static const struct known *find_known(const char *library, const char *example)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].library, library) == 0 &&
            strcmp(known[i].example, example) == 0)
            return &known[i];
    return NULL;
}

/* ------------------------------------------------------------ tensors */

static int64_t volume(int32_t rank, const int64_t *dims)
{
    int64_t n = 1;
    for (int32_t i = 0; i < rank; i++)
        n *= dims[i];
    return n;
}

/* f32 iota: element i holds the bit pattern i. */
static void fill_iota(uint32_t *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        p[i] = (uint32_t)i;
}

#define CANARY 0xA5A5A5A5u

/* ------------------------------------------------------------ parameters */

struct case_param {
    size_t library, example;
};

/* One process a library: loading a library costs more than its examples
 * (tests/common/rows.h). */
ParameterizedTestParameters(adapters, examples)
{
    static struct case_param params[LIBRARY_COUNT];
    for (size_t l = 0; l < LIBRARY_COUNT; l++)
        params[l] = (struct case_param){l, 0};
    return cr_make_param_array(struct case_param, params, LIBRARY_COUNT);
}

/* Fills `p` for example `e` on library `lib`, the shape tensor in `shape`. */
static void make_params(const struct library *lib, const struct example *e,
                        reshape_tensor *shape, int64_t *shape_dims,
                        reshape_params *p)
{
    *shape_dims = e->count;
    *shape = (reshape_tensor){RESHAPE_DT_S64, 1, shape_dims, NULL,
                              (void *)e->values};
    *p = (reshape_params){lib->op, e->special_zero, shape};
}

static int expressible(const struct library *lib, const struct example *e)
{
    return (!e->needs_copy_zero || lib->copy_zero) &&
           (!e->needs_minus_one || lib->minus_one);
}

/*
 * The example's result through infer_shape and a dense out-of-place
 * execute: the inferred dims, every byte of dst equal to src, the canary
 * after dst untouched; NOT_SUPPORTED where the library cannot express it.
 * An example known to kill the process is left out (findings_test.c
 * asserts its signal).
 */
static void check_example(const struct library *lib, const struct example *e)
{
    const reshape_candidate *c = adapter_load(lib->name);
    reshape_tensor shape;
    int64_t shape_dims;
    reshape_params p;
    int32_t out_rank = -1;
    int64_t out_dims[RESHAPE_MAX_RANK];

    if (adapter_graph_without_reshape(c, lib->name))
        return;
    make_params(lib, e, &shape, &shape_dims, &p);
    cr_assert_eq(c->supports(lib->op, RESHAPE_DT_F32, RESHAPE_DT_S64, 0),
                 RESHAPE_OK, "%s: f32 dense not supported: %s", lib->name,
                 adapter_why(c));

    reshape_tensor src = {RESHAPE_DT_F32, e->rank, e->dims, NULL, NULL};
    const struct known *k = find_known(lib->name, e->name);
    if (k != NULL && k->infer_status == KNOWN_CRASH) {
        cr_log_info("%s, %s: not run: %s", lib->name, e->name, k->why);
        return;
    }
    reshape_status st = c->infer_shape(&p, &src, &out_rank, out_dims);
    if (k != NULL) {
        cr_assert_eq(st, k->infer_status,
                     "%s, %s: known behaviour changed (%s): got %s (%s)",
                     lib->name, e->name, k->why, reshape_status_name(st),
                     adapter_why(c));
        return;
    }
    if (!expressible(lib, e)) {
        cr_assert_eq(st, RESHAPE_E_NOT_SUPPORTED,
                     "%s, %s: want NOT_SUPPORTED, got %s (%s)", lib->name,
                     e->name, reshape_status_name(st), adapter_why(c));
        return;
    }
    if (e->out_rank < 0) {
        cr_assert(st != RESHAPE_OK && st != RESHAPE_E_NOT_SUPPORTED,
                  "%s, %s: want an error, got %s", lib->name, e->name,
                  reshape_status_name(st));
        return;
    }
    cr_assert_eq(st, RESHAPE_OK, "%s, %s: infer_shape gave %s (%s)", lib->name,
                 e->name, reshape_status_name(st), adapter_why(c));
    cr_assert_eq(out_rank, e->out_rank, "%s, %s: rank", lib->name, e->name);
    cr_assert_arr_eq(out_dims, e->out_dims, (size_t)out_rank * sizeof(int64_t),
                     "%s, %s: dims", lib->name, e->name);

    int64_t n = volume(e->rank, e->dims);
    uint32_t *in = malloc((size_t)(n + 1) * 4);
    uint32_t *out = malloc((size_t)(n + 1) * 4);
    cr_assert(in != NULL && out != NULL);
    fill_iota(in, n);
    for (int64_t i = 0; i <= n; i++)
        out[i] = CANARY;
    src.data = in;
    reshape_tensor dst = {RESHAPE_DT_F32, e->out_rank, e->out_dims, NULL, out};
    st = c->execute(&p, &src, &dst);
    cr_assert_eq(st, RESHAPE_OK, "%s, %s: execute gave %s (%s)", lib->name,
                 e->name, reshape_status_name(st), adapter_why(c));
    cr_expect_arr_eq(out, in, (size_t)n * 4, "%s, %s: bytes differ", lib->name,
                     e->name);
    cr_expect_eq(out[n], CANARY, "%s, %s: wrote past dst", lib->name, e->name);
    free(in);
    free(out);
}

/* Every example on library `cp->library`, in one process. */
ParameterizedTest(struct case_param *cp, adapters, examples)
{
    for (size_t e = 0; e < EXAMPLE_COUNT; e++)
        check_example(&libraries[cp->library], &examples[e]);
}

/* ------------------------------------------------------------ layouts */

/* The layout tests run "explicit dims" ([2,3,4] to [4,6]) on every library. */
static struct case_param layout_params[LIBRARY_COUNT];

static struct criterion_test_params layout_param_array(void)
{
    for (size_t l = 0; l < LIBRARY_COUNT; l++)
        layout_params[l] = (struct case_param){l, 5};
    return cr_make_param_array(struct case_param, layout_params, LIBRARY_COUNT);
}


/* In place: dst->data == src->data; the bytes stay as they were. */
static void check_in_place(const struct case_param *cp)
{
    const struct library *lib = &libraries[cp->library];
    const struct example *e = &examples[cp->example];
    const reshape_candidate *c = adapter_load(lib->name);
    reshape_tensor shape;
    int64_t shape_dims;
    reshape_params p;
    uint32_t buf[24], want[24];

    if (adapter_graph_without_reshape(c, lib->name))
        return;
    make_params(lib, e, &shape, &shape_dims, &p);
    fill_iota(buf, 24);
    fill_iota(want, 24);
    reshape_tensor src = {RESHAPE_DT_F32, e->rank, e->dims, NULL, buf};
    reshape_tensor dst = {RESHAPE_DT_F32, e->out_rank, e->out_dims, NULL, buf};
    cr_assert_eq(c->supports(lib->op, RESHAPE_DT_F32, RESHAPE_DT_S64,
                             RESHAPE_LAYOUT_IN_PLACE),
                 RESHAPE_OK, "%s: in-place not supported: %s", lib->name, adapter_why(c));
    reshape_status st = c->execute(&p, &src, &dst);
    cr_assert_eq(st, RESHAPE_OK, "%s: in-place execute gave %s (%s)", lib->name,
                 reshape_status_name(st), adapter_why(c));
    cr_expect_arr_eq(buf, want, sizeof buf, "%s: in-place changed bytes",
                     lib->name);
}

/* Strided src (dims [2,3,4] inside a [2,3,5] buffer) into a dst whose rows
 * of 6 sit 8 apart: each element lands at its row-major position, the gaps
 * keep their canaries.  Libraries with dense tensors only must say
 * NOT_SUPPORTED, both in `supports` and in the call. */
static void check_strided(const struct case_param *cp)
{
    const struct library *lib = &libraries[cp->library];
    const struct example *e = &examples[cp->example];
    const reshape_candidate *c = adapter_load(lib->name);
    reshape_tensor shape;
    int64_t shape_dims;
    reshape_params p;
    uint32_t in[30], out[32];
    const int64_t src_strides[3] = {15, 5, 1}, dst_strides[2] = {8, 1};
    const unsigned layout = RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST;

    if (adapter_graph_without_reshape(c, lib->name))
        return;
    make_params(lib, e, &shape, &shape_dims, &p);
    for (int i = 0; i < 30; i++)
        in[i] = 1000u + (uint32_t)i;
    for (int i = 0; i < 32; i++)
        out[i] = CANARY;
    reshape_tensor src = {RESHAPE_DT_F32, 3, e->dims, src_strides, in};
    reshape_tensor dst = {RESHAPE_DT_F32, 2, e->out_dims, dst_strides, out};
    reshape_status sup = c->supports(lib->op, RESHAPE_DT_F32, RESHAPE_DT_S64,
                                     layout);
    reshape_status st = c->execute(&p, &src, &dst);
    if (!lib->strided) {
        cr_expect_eq(sup, RESHAPE_E_NOT_SUPPORTED, "%s: supports strided",
                     lib->name);
        cr_expect_eq(st, RESHAPE_E_NOT_SUPPORTED, "%s: strided call gave %s",
                     lib->name, reshape_status_name(st));
        for (int i = 0; i < 32; i++)
            cr_expect_eq(out[i], CANARY, "%s: wrote dst on refusal", lib->name);
        return;
    }
    cr_assert_eq(sup, RESHAPE_OK, "%s: strided not supported: %s", lib->name,
                 adapter_why(c));
    cr_assert_eq(st, RESHAPE_OK, "%s: strided execute gave %s (%s)", lib->name,
                 reshape_status_name(st), adapter_why(c));
    for (int k = 0; k < 24; k++) {
        int i = k / 12, j = (k / 4) % 3, l = k % 4;
        uint32_t want = 1000u + (uint32_t)(i * 15 + j * 5 + l);
        cr_expect_eq(out[(k / 6) * 8 + k % 6], want, "%s: element %d", lib->name,
                     k);
    }
    for (int r = 0; r < 4; r++)
        for (int g = 6; g < 8; g++)
            cr_expect_eq(out[r * 8 + g], CANARY, "%s: wrote gap %d", lib->name,
                         r * 8 + g);
}

/* A dst one element short is caller misuse: INVALID_ARGUMENT, nothing written. */
static void check_short_dst(const struct case_param *cp)
{
    const struct library *lib = &libraries[cp->library];
    const struct example *e = &examples[cp->example];
    const reshape_candidate *c = adapter_load(lib->name);
    reshape_tensor shape;
    int64_t shape_dims;
    reshape_params p;
    uint32_t in[24], out[24];
    const int64_t short_dims[2] = {4, 5};

    if (adapter_graph_without_reshape(c, lib->name))
        return;
    make_params(lib, e, &shape, &shape_dims, &p);
    fill_iota(in, 24);
    for (int i = 0; i < 24; i++)
        out[i] = CANARY;
    reshape_tensor src = {RESHAPE_DT_F32, 3, e->dims, NULL, in};
    reshape_tensor dst = {RESHAPE_DT_F32, 2, short_dims, NULL, out};
    reshape_status st = c->execute(&p, &src, &dst);
    cr_expect_eq(st, RESHAPE_E_INVALID_ARGUMENT, "%s: a short dst gave %s (%s)",
                 lib->name, reshape_status_name(st), adapter_why(c));
    for (int i = 0; i < 24; i++)
        cr_expect_eq(out[i], CANARY, "%s: wrote a refused dst", lib->name);
}

/* ------------------------------------------------------------ overruns */

/*
 * XNNPACK 2022 accepts [2,3,4] -> [4,5] (volume 24 into 20) and its copy
 * moves the input's 24 elements: 4 past the end of the destination.  The
 * destination sits in a 32-element buffer so the overrun stays inside it;
 * this asserts the measured behaviour and fails when XNNPACK is fixed.
 */
Test(adapters, xnnpack_writes_input_volume_past_a_smaller_dst)
{
    const reshape_candidate *c = adapter_load("xnnpack");
    const int64_t in_dims[3] = {2, 3, 4}, out_dims[2] = {4, 5}, count = 2;
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)out_dims};
    reshape_params p = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape};
    uint32_t in[24], out[32];

    fill_iota(in, 24);
    for (int i = 0; i < 32; i++)
        out[i] = CANARY;
    reshape_tensor src = {RESHAPE_DT_F32, 3, in_dims, NULL, in};
    reshape_tensor dst = {RESHAPE_DT_F32, 2, out_dims, NULL, out};
    cr_assert_eq(c->execute(&p, &src, &dst), RESHAPE_OK, "%s", adapter_why(c));
    cr_expect_arr_eq(out, in, sizeof in, "the 24 input elements");
    cr_expect_eq(out[24], CANARY, "nothing past the input's volume");
}

/* The three layouts above on library `cp->library`, in one process (loading
 * a library costs more than its calls: tests/common/rows.h). */
ParameterizedTestParameters(adapters, layouts_of_explicit_dims) { return layout_param_array(); }

ParameterizedTest(struct case_param *cp, adapters, layouts_of_explicit_dims)
{
    check_in_place(cp);
    check_strided(cp);
    check_short_dst(cp);
}
