/*
 * layouts_test.c - each library adapter in build/candidates/ on the layouts
 * frameworks hand kernels (D12 in include/reshape_candidate.h), through the
 * ABI: a broadcast src (a stride of 0 on a dim of 4, as torch.expand and
 * numpy.broadcast_to make), a size-1 dim carrying a stride of 2^58 in src
 * and in dst (which must never move the address), and an overlapping dst
 * (refused by every adapter with INVALID_ARGUMENT, nothing written).  An
 * adapter that can express a layout must copy it element by element in
 * row-major order; one that cannot must answer NOT_SUPPORTED both in
 * supports() (asked with every flag describing the call, as the harness
 * asks) and in execute, say why in last_error, and write nothing.  The
 * harness's broadcast_src and size1_strides variants judge them over the
 * whole suite; this checks the adapters' plumbing.  Depends on the ABI
 * header, Criterion and adapter_load.h.  ADAPTER_DIR overrides
 * build/candidates.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "adapter_load.h"
#include "reshape_candidate.h"

#define P58 ((int64_t)1 << 58)
#define CANARY 0xA5A5A5A5u

enum layout_test { BROADCAST_SRC, SIZE1_SRC, SIZE1_DST, OVERLAPPING_DST, TEST_COUNT };

static const char *const test_names[TEST_COUNT] = {"broadcast src", "size-1 src stride",
                                                   "size-1 dst stride", "overlapping dst"};

/* Each library, the op it is driven through, and which layouts it claims
 * (1: copies them; 0: NOT_SUPPORTED).  An overlapping dst is refused by
 * all. */
static const struct library {
    const char *name;
    reshape_op op;
    int expresses[3];
} libraries[] = {
    {"onednn", RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, {1, 1, 1}},
    {"onednn3", RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, {1, 1, 1}},
    {"onednn_graph", RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, {1, 1, 1}},
    {"onednn_graph313", RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, {1, 1, 1}},
    {"onnxruntime", RESHAPE_OP_ONNX_RESHAPE_14, {0, 0, 0}},
    {"onnx_reference", RESHAPE_OP_ONNX_RESHAPE_14, {1, 1, 1}},
    {"onnx_reference_latest", RESHAPE_OP_ONNX_RESHAPE_14, {1, 1, 1}},
    {"libtorch", RESHAPE_OP_OPENVINO_RESHAPE_1, {1, 1, 1}},
    {"numpy", RESHAPE_OP_OPENVINO_RESHAPE_1, {1, 1, 1}},
    {"xnnpack", RESHAPE_OP_OPENVINO_RESHAPE_1, {0, 0, 0}},
    {"xtensor", RESHAPE_OP_OPENVINO_RESHAPE_1, {1, 1, 1}},
    {"eigen", RESHAPE_OP_OPENVINO_RESHAPE_1, {0, 0, 0}},
    /* Mat::reshape needs a continuous src; a strided dst is a Mat header. */
    {"opencv", RESHAPE_OP_OPENVINO_RESHAPE_1, {0, 0, 1}},
    {"armnn", RESHAPE_OP_OPENVINO_RESHAPE_1, {0, 0, 0}},
};
#define LIBRARY_COUNT (sizeof libraries / sizeof libraries[0])

/* One call: src and dst f32 over `in` and `out`, the shape `values`. */
struct layout_call {
    int32_t src_rank, dst_rank, count;
    int64_t src_dims[3], src_strides[3], dst_dims[3], dst_strides[3], values[3];
    int src_strided, dst_strided;
    unsigned layout;
    int64_t volume;
};

static const struct layout_call layout_calls[TEST_COUNT] = {
    [BROADCAST_SRC] = {2, 1, 1, {4, 3}, {0, 1}, {12}, {0}, {12}, 1, 0,
                       RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_BROADCAST_SRC, 12},
    [SIZE1_SRC] = {3, 1, 1, {1, 2, 3}, {P58, 3, 1}, {6}, {0}, {6}, 1, 0,
                   RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_SIZE1_STRIDES, 6},
    [SIZE1_DST] = {2, 3, 3, {2, 3}, {0}, {2, 1, 3}, {3, P58, 1}, {2, 1, 3}, 0, 1,
                   RESHAPE_LAYOUT_STRIDED_DST | RESHAPE_LAYOUT_SIZE1_STRIDES, 6},
    [OVERLAPPING_DST] = {1, 2, 2, {12}, {0}, {4, 3}, {0, 1}, {4, 3}, 0, 1,
                         RESHAPE_LAYOUT_STRIDED_DST, 12},
};

/* What a library does other than the table says, as measured: asserted
 * exactly, so it shouts when a new version changes; findings about the
 * libraries, not the adapters.  Ends with a NULL library. */
static const struct known {
    const char *library;
    enum layout_test test;
    reshape_status status;
    const char *why;
} known[] = {
    {NULL, TEST_COUNT, RESHAPE_OK, NULL},
};

static const struct known *find_known(const char *library, enum layout_test test)
{
    for (size_t i = 0; known[i].library != NULL; i++)
        if (strcmp(known[i].library, library) == 0 && known[i].test == test)
            return &known[i];
    return NULL;
}

struct layout_param {
    size_t library;
    enum layout_test test;
};

/* One process a library, which runs every layout test: loading a library
 * costs more than its calls (tests/common/rows.h). */
ParameterizedTestParameters(layouts, through_the_abi)
{
    static struct layout_param params[LIBRARY_COUNT];
    for (size_t l = 0; l < LIBRARY_COUNT; l++)
        params[l] = (struct layout_param){l, 0};
    return cr_make_param_array(struct layout_param, params, LIBRARY_COUNT);
}

/* The offset of row-major position k of a tensor of `rank` dims with
 * `strides` (NULL: dense). */
static int64_t offset_of(int32_t rank, const int64_t *dims, const int64_t *strides, int64_t k)
{
    int64_t offset = 0, dense = 1;
    for (int32_t j = rank; j-- > 0;) {
        offset += (k % dims[j]) * (strides != NULL ? strides[j] : dense);
        k /= dims[j];
        dense *= dims[j];
    }
    return offset;
}

static void check_layout(const struct layout_param *lp)
{
    const struct library *lib = &libraries[lp->library];
    const struct layout_call *lc = &layout_calls[lp->test];
    const char *test = test_names[lp->test];
    const reshape_candidate *c = adapter_load(lib->name);
    if (adapter_graph_without_reshape(c, lib->name))
        return;
    uint32_t in[12], out[16];
    const int64_t count = lc->count;

    for (int i = 0; i < 12; i++)
        in[i] = 1000u + (uint32_t)i;
    for (int i = 0; i < 16; i++)
        out[i] = CANARY;
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &count, NULL, (void *)lc->values};
    reshape_params p = {lib->op, 0, &shape};
    reshape_tensor src = {RESHAPE_DT_F32, lc->src_rank, lc->src_dims,
                          lc->src_strided ? lc->src_strides : NULL, in};
    reshape_tensor dst = {RESHAPE_DT_F32, lc->dst_rank, lc->dst_dims,
                          lc->dst_strided ? lc->dst_strides : NULL, out};
    reshape_status sup = c->supports(lib->op, RESHAPE_DT_F32, RESHAPE_DT_S64, lc->layout);
    reshape_status st = c->execute(&p, &src, &dst);
    const struct known *k = find_known(lib->name, lp->test);

    if (k != NULL) {
        cr_assert_eq(st, k->status, "%s, %s: known behaviour changed (%s): got %s (%s)",
                     lib->name, test, k->why, reshape_status_name(st), adapter_why(c));
        return;
    }
    if (lp->test == OVERLAPPING_DST || !lib->expresses[lp->test]) {
        reshape_status want = lp->test == OVERLAPPING_DST ? RESHAPE_E_INVALID_ARGUMENT
                                                          : RESHAPE_E_NOT_SUPPORTED;
        if (lp->test != OVERLAPPING_DST)
            cr_expect_eq(sup, RESHAPE_E_NOT_SUPPORTED, "%s, %s: supports says %s", lib->name,
                         test, reshape_status_name(sup));
        cr_expect_eq(st, want, "%s, %s: execute gave %s (%s)", lib->name, test,
                     reshape_status_name(st), adapter_why(c));
        cr_expect(c->last_error != NULL && c->last_error() != NULL, "%s, %s: no reason given",
                  lib->name, test);
        for (int i = 0; i < 16; i++)
            cr_expect_eq(out[i], CANARY, "%s, %s: wrote word %d on refusal", lib->name, test, i);
        return;
    }
    cr_expect_eq(sup, RESHAPE_OK, "%s, %s: supports says %s (%s)", lib->name, test,
                 reshape_status_name(sup), adapter_why(c));
    cr_assert_eq(st, RESHAPE_OK, "%s, %s: execute gave %s (%s)", lib->name, test,
                 reshape_status_name(st), adapter_why(c));
    int written[16] = {0};
    for (int64_t e = 0; e < lc->volume; e++) {
        int64_t w = offset_of(dst.rank, dst.dims, dst.strides, e);
        written[w] = 1;
        cr_expect_eq(out[w], in[offset_of(src.rank, src.dims, src.strides, e)],
                     "%s, %s: element %d", lib->name, test, (int)e);
    }
    for (int i = 0; i < 16; i++)
        if (!written[i])
            cr_expect_eq(out[i], CANARY, "%s, %s: wrote word %d outside dst", lib->name, test,
                         i);
}

ParameterizedTest(struct layout_param *lp, layouts, through_the_abi)
{
    for (int t = 0; t < TEST_COUNT; t++)
        check_layout(&(struct layout_param){lp->library, (enum layout_test)t});
}
