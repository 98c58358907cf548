/*
 * kit_test.c - the adapter kit (include/reshape_adapter*.h): the ABI
 * argument checks of execute and infer_shape, call by call, each through
 * the kit compiled as C and as C++17 (kit_cxx.cpp), which must agree on
 * status and message; the layout flags, extents and overlaps of D12; the
 * helpers (messages, dtype maps, shape lists); kit_table_test.c has a
 * candidate built on it.  Needs no library.  Depends on the kit,
 * Criterion and pthreads.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"

#include "kit_cxx.h"
#include "reshape_adapter.h"

#define P58 ((int64_t)1 << 58)
#define P62 ((int64_t)1 << 62)

static unsigned char buffer[256];
static const int64_t shape_dims[1] = {1}, shape_values[1] = {24};
static const reshape_tensor shape = {RESHAPE_DT_S64, 1, shape_dims, NULL,
                                     (void *)shape_values};
static const reshape_params params = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape};

/* ------------------------------------------------------------ execute */

/* One execute call: src and dst of f32 (dtype 0) or of `dtype`, strides
 * when `*_strided`, both over `buffer` when `in_place`, else src at its
 * start and dst past it; data NULL when `*_null`. */
struct call {
    const char *name;
    reshape_status want;
    const char *says; /* a fragment of the message; NULL for RESHAPE_OK */
    reshape_dtype src_dtype;
    int32_t src_rank;
    int64_t src_dims[3];
    int src_strided;
    int64_t src_strides[3];
    reshape_dtype dst_dtype;
    int32_t dst_rank;
    int64_t dst_dims[3];
    int dst_strided;
    int64_t dst_strides[3];
    int in_place, src_null, dst_null;
};

static const struct call calls[] = {
    {"dense", RESHAPE_OK, NULL, 0, 3, {2, 3, 4}, 0, {0}, 0, 2, {4, 6}, 0, {0}, 0, 0, 0},
    {"dense in place", RESHAPE_OK, NULL, 0, 3, {2, 3, 4}, 0, {0}, 0, 2, {4, 6}, 0, {0},
     1, 0, 0},
    {"broadcast src", RESHAPE_OK, NULL, 0, 2, {4, 3}, 1, {0, 1}, 0, 1, {12}, 0, {0}, 0, 0, 0},
    {"size-1 src dim, stride 2^58", RESHAPE_OK, NULL, 0, 2, {1, 4}, 1, {P58, 1}, 0, 1, {4},
     0, {0}, 0, 0, 0},
    {"size-1 dst dim, stride 2^62", RESHAPE_OK, NULL, 0, 1, {4}, 0, {0}, 0, 2, {1, 4}, 1,
     {P62, 1}, 0, 0, 0},
    {"empty src, any strides", RESHAPE_OK, NULL, 0, 2, {0, 3}, 1, {P62, P62}, 0, 1, {0}, 1,
     {P62}, 0, 0, 0},
    {"empty, data NULL", RESHAPE_OK, NULL, 0, 2, {0, 3}, 0, {0}, 0, 1, {0}, 0, {0}, 0, 1, 1},
    {"interleaved dst, no overlap", RESHAPE_OK, NULL, 0, 1, {6}, 0, {0}, 0, 2, {3, 2}, 1,
     {2, 3}, 0, 0, 0},
    {"dst stride 0", RESHAPE_E_INVALID_ARGUMENT, "two elements of 'dst' share an offset", 0,
     1, {8}, 0, {0}, 0, 2, {4, 2}, 1, {0, 1}, 0, 0, 0},
    {"dst equal strides", RESHAPE_E_INVALID_ARGUMENT, "share an offset", 0, 1, {4}, 0, {0},
     0, 2, {2, 2}, 1, {1, 1}, 0, 0, 0},
    {"dst overlapping at (2,0) and (0,1)", RESHAPE_E_INVALID_ARGUMENT, "share an offset", 0,
     1, {6}, 0, {0}, 0, 2, {3, 2}, 1, {2, 4}, 0, 0, 0},
    {"negative src stride", RESHAPE_E_INVALID_ARGUMENT, "stride 0 of 'src' is negative", 0,
     2, {2, 3}, 1, {-1, 1}, 0, 1, {6}, 0, {0}, 0, 0, 0},
    {"negative dst dim", RESHAPE_E_INVALID_ARGUMENT, "dim 1 of 'dst' is negative", 0, 1,
     {6}, 0, {0}, 0, 2, {6, -1}, 0, {0}, 0, 0, 0},
    {"src rank 33", RESHAPE_E_INVALID_ARGUMENT, "rank 33 of 'src' is outside 0..32", 0, 33,
     {1, 1, 1}, 0, {0}, 0, 1, {1}, 0, {0}, 0, 0, 0},
    {"unknown dst dtype", RESHAPE_E_INVALID_ARGUMENT, "unknown dtype 99 of 'dst'", 0, 1,
     {6}, 0, {0}, (reshape_dtype)99, 1, {6}, 0, {0}, 0, 0, 0},
    {"in place, strided src", RESHAPE_E_INVALID_ARGUMENT, "in-place call with strides on "
     "'src'", 0, 2, {4, 3}, 1, {0, 1}, 0, 1, {12}, 0, {0}, 1, 0, 0},
    {"src data NULL", RESHAPE_E_INVALID_ARGUMENT, "data of 'src' is NULL", 0, 1, {6}, 0,
     {0}, 0, 1, {6}, 0, {0}, 0, 1, 0},
    {"src volume 2^64", RESHAPE_E_INVALID_ARGUMENT, "the volume of 'src' leaves int64", 0,
     2, {(int64_t)1 << 32, (int64_t)1 << 32}, 0, {0}, 0, 1, {1}, 0, {0}, 0, 0, 0},
    {"f32 of 2^61 elements", RESHAPE_E_INVALID_ARGUMENT, "'src' reaches past 2^63 bits", 0,
     1, {(int64_t)1 << 61}, 0, {0}, 0, 1, {1}, 0, {0}, 0, 0, 0},
    {"u1 of 2^63 - 8 elements", RESHAPE_OK, NULL, RESHAPE_DT_U1, 1, {INT64_MAX - 7}, 0,
     {0}, RESHAPE_DT_U1, 1, {1}, 0, {0}, 0, 0, 0},
    {"u1 of 2^63 - 7 elements", RESHAPE_E_INVALID_ARGUMENT, "'src' reaches past", RESHAPE_DT_U1,
     1, {INT64_MAX - 6}, 0, {0}, RESHAPE_DT_U1, 1, {1}, 0, {0}, 0, 0, 0},
    {"dst strided past 2^63 bits", RESHAPE_E_INVALID_ARGUMENT, "'dst' reaches past", 0, 1,
     {2}, 0, {0}, 0, 2, {2, 1}, 1, {P62, 1}, 0, 0, 0},
};
#define CALL_COUNT (sizeof calls / sizeof calls[0])

/* The parameter is an index into `calls` (a row of RowTest, in one
 * process: tests/common/rows.h). */
ParameterizedTestParameters(kit, execute_checks)
{
    static size_t index[CALL_COUNT];
    for (size_t i = 0; i < CALL_COUNT; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, CALL_COUNT);
}

RowTest(size_t *i, kit, execute_checks)
{
    const struct call *c = &calls[*i];
    reshape_tensor src = {c->src_dtype ? c->src_dtype : RESHAPE_DT_F32, c->src_rank,
                          c->src_dims, c->src_strided ? c->src_strides : NULL,
                          c->src_null ? NULL : buffer};
    reshape_tensor dst = {c->dst_dtype ? c->dst_dtype : RESHAPE_DT_F32, c->dst_rank,
                          c->dst_dims, c->dst_strided ? c->dst_strides : NULL,
                          c->dst_null ? NULL : c->in_place ? buffer : buffer + 128};
    int64_t many[33];
    char cxx_why[512];

    if (c->src_rank > 3) {
        for (int i = 0; i < 33; i++)
            many[i] = 1;
        src.dims = many;
    }
    reshape_status st = reshape_adapter_check_execute(&params, &src, &dst);
    const char *why = reshape_adapter_last_error();
    cr_assert_eq(st, c->want, "%s: %s (%s)", c->name, reshape_status_name(st),
                 why != NULL ? why : "no message");
    if (c->says != NULL)
        cr_expect(why != NULL && strstr(why, c->says) != NULL, "%s: message '%s'", c->name,
                  why != NULL ? why : "(none)");
    else
        cr_expect_null(why, "%s: a message on success", c->name);
    reshape_status cxx = kit_cxx_check_execute(&params, &src, &dst, cxx_why, sizeof cxx_why);
    cr_expect_eq(cxx, st, "%s: C++ gives %s", c->name, reshape_status_name(cxx));
    cr_expect_str_eq(cxx_why, why != NULL ? why : "", "%s: C++ message", c->name);
}

/* ------------------------------------------------------------ params */

Test(kit, params_rules_hold_for_execute_and_infer)
{
    const int64_t dims[1] = {4}, two[2] = {2, 2}, one = 1, many = 33;
    reshape_tensor src = {RESHAPE_DT_F32, 1, dims, NULL, buffer};
    reshape_tensor dst = {RESHAPE_DT_F32, 1, dims, NULL, buffer + 128};
    reshape_tensor strided = {RESHAPE_DT_S64, 1, &one, &one, (void *)shape_values};
    reshape_tensor long_shape = {RESHAPE_DT_S64, 1, &many, NULL, buffer};
    reshape_tensor no_data = {RESHAPE_DT_S64, 1, &one, NULL, NULL};
    reshape_tensor shape2 = {RESHAPE_DT_S64, 2, two, NULL, buffer};
    const struct {
        reshape_params p;
        int null_params;
        const char *says;
    } bad[] = {
        {{RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape}, 1, "'params' is NULL"},
        {{(reshape_op)9, 0, &shape}, 0, "unknown op 9"},
        {{RESHAPE_OP_OPENVINO_RESHAPE_1, 2, &shape}, 0, "special_zero 2 is neither 0 nor 1"},
        {{RESHAPE_OP_OPENVINO_RESHAPE_1, 0, NULL}, 0, "'shape' is NULL"},
        {{RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &strided}, 0, "'shape' has strides"},
        {{RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &long_shape}, 0, "holds more than 32 values"},
        {{RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &no_data}, 0, "data of 'shape' is NULL"},
    };
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];
    char why[512];

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const reshape_params *p = bad[i].null_params ? NULL : &bad[i].p;
        cr_expect_eq(reshape_adapter_check_execute(p, &src, &dst), RESHAPE_E_INVALID_ARGUMENT);
        cr_expect(strstr(reshape_adapter_last_error(), bad[i].says) != NULL, "%s: '%s'",
                  bad[i].says, reshape_adapter_last_error());
        cr_expect_eq(reshape_adapter_check_infer(p, &src, &rank, out),
                     RESHAPE_E_INVALID_ARGUMENT, "%s", bad[i].says);
        cr_expect_eq(kit_cxx_check_infer(p, &src, why, sizeof why),
                     RESHAPE_E_INVALID_ARGUMENT);
        cr_expect(strstr(why, bad[i].says) != NULL, "C++ infer: %s", why);
    }
    /* A rank-2 shape tensor is the library's to refuse (SHAPE_NOT_1D). */
    reshape_params p2 = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape2};
    cr_expect_eq(reshape_adapter_check_infer(&p2, &src, &rank, out), RESHAPE_OK);
    cr_expect_eq(reshape_adapter_check_execute(&params, &src, NULL),
                 RESHAPE_E_INVALID_ARGUMENT);
    cr_expect_str_eq(reshape_adapter_last_error(), "'dst' is NULL");
}

Test(kit, infer_ignores_strides_and_data_but_needs_outputs)
{
    const int64_t dims[2] = {2, 3}, strides[2] = {-5, -1};
    reshape_tensor src = {RESHAPE_DT_F32, 2, dims, strides, NULL};
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];

    cr_expect_eq(reshape_adapter_check_infer(&params, &src, &rank, out), RESHAPE_OK);
    cr_expect_null(reshape_adapter_last_error());
    cr_expect_eq(reshape_adapter_check_infer(&params, &src, NULL, out),
                 RESHAPE_E_INVALID_ARGUMENT);
    cr_expect_eq(reshape_adapter_check_infer(&params, NULL, &rank, out),
                 RESHAPE_E_INVALID_ARGUMENT);
    cr_expect_str_eq(reshape_adapter_last_error(), "'src' is NULL");
}

Test(kit, dst_must_be_the_inferred_output)
{
    const int64_t dims[2] = {4, 6}, want[2] = {4, 6}, other[2] = {6, 4};
    reshape_tensor src = {RESHAPE_DT_F32, 2, dims, NULL, buffer};
    reshape_tensor dst = {RESHAPE_DT_F32, 2, dims, NULL, buffer + 128};

    cr_expect_eq(reshape_adapter_check_dst(&src, &dst, 2, want), RESHAPE_OK);
    cr_expect_eq(reshape_adapter_check_dst(&src, &dst, 2, other), RESHAPE_E_INVALID_ARGUMENT);
    cr_expect_str_eq(reshape_adapter_last_error(), "dim 0 of 'dst' is 4, the output's is 6");
    cr_expect_eq(reshape_adapter_check_dst(&src, &dst, 1, want), RESHAPE_E_INVALID_ARGUMENT);
    cr_expect_str_eq(reshape_adapter_last_error(), "rank 2 of 'dst' is not the output rank 1");
    dst.dtype = RESHAPE_DT_F16;
    cr_expect_eq(reshape_adapter_check_dst(&src, &dst, 2, want), RESHAPE_E_INVALID_ARGUMENT);
    cr_expect_str_eq(reshape_adapter_last_error(), "dtype 'f16' of 'dst' is not 'f32' of 'src'");
}

/* ------------------------------------------------------------ layouts */

Test(kit, layout_flags_describe_the_call)
{
    const int64_t d43[2] = {4, 3}, d14[2] = {1, 4}, d41[2] = {4, 1}, d12[1] = {12};
    const int64_t bcast[2] = {0, 1}, dense14[2] = {4, 1}, zero14[2] = {0, 1};
    const int64_t odd41[2] = {1, 7};
    reshape_tensor src = {RESHAPE_DT_F32, 2, d43, NULL, buffer};
    reshape_tensor dst = {RESHAPE_DT_F32, 1, d12, NULL, buffer + 128};
    const unsigned strided_src = RESHAPE_LAYOUT_STRIDED_SRC;

    cr_expect_eq(reshape_adapter_layout(&src, &dst), 0u);
    dst.data = buffer;
    cr_expect_eq(reshape_adapter_layout(&src, &dst), RESHAPE_LAYOUT_IN_PLACE);
    dst.data = buffer + 128;
    src.strides = bcast;
    cr_expect_eq(reshape_adapter_layout(&src, &dst), strided_src | RESHAPE_LAYOUT_BROADCAST_SRC);
    cr_expect_eq(kit_cxx_layout(&src, &dst), strided_src | RESHAPE_LAYOUT_BROADCAST_SRC);
    src.dims = d14;
    src.strides = dense14;
    cr_expect_eq(reshape_adapter_layout(&src, &dst), strided_src, "dense strides given");
    src.strides = zero14; /* a 0 on a size-1 dim is no broadcast */
    cr_expect_eq(reshape_adapter_layout(&src, &dst), strided_src | RESHAPE_LAYOUT_SIZE1_STRIDES);
    src.strides = NULL;
    dst.rank = 2;
    dst.dims = d41;
    dst.strides = odd41;
    cr_expect_eq(reshape_adapter_layout(&src, &dst),
                 RESHAPE_LAYOUT_STRIDED_DST | RESHAPE_LAYOUT_SIZE1_STRIDES);
    cr_expect_eq(reshape_adapter_layout(&src, NULL), 0u, "infer_shape has no dst");
}

Test(kit, extent_counts_what_moves_the_address)
{
    const int64_t d23[2] = {2, 3}, s23[2] = {10, 1}, d14[2] = {1, 4}, s14[2] = {P62, 1};
    const int64_t d03[2] = {0, 3}, huge[2] = {INT64_MAX, INT64_MAX};
    reshape_tensor t = {RESHAPE_DT_F32, 2, d23, NULL, NULL};
    int64_t e;

    cr_expect(reshape_adapter_extent(&t, &e) == 0 && e == 6, "dense [2,3]: %lld", (long long)e);
    t.strides = s23;
    cr_expect(reshape_adapter_extent(&t, &e) == 0 && e == 13, "padded: %lld", (long long)e);
    t.dims = d14;
    t.strides = s14;
    cr_expect(reshape_adapter_extent(&t, &e) == 0 && e == 4, "size-1: %lld", (long long)e);
    t.dims = d03;
    t.strides = huge;
    cr_expect(reshape_adapter_extent(&t, &e) == 0 && e == 0, "empty: %lld", (long long)e);
    t.dims = d23;
    cr_expect_eq(reshape_adapter_extent(&t, &e), -1, "an extent past int64");
    t.rank = 0;
    cr_expect(reshape_adapter_extent(&t, &e) == 0 && e == 1, "scalar: %lld", (long long)e);
}

Test(kit, overlaps_decided_exactly)
{
    const int64_t d32[2] = {3, 2}, d22[2] = {2, 2}, d2x[3] = {2, 3, 5};
    const int64_t ok32[2] = {2, 3}, bad32[2] = {2, 4}, bad22[2] = {1, 1};
    const int64_t perm[3] = {1, 10, 2}, padded[3] = {40, 1, 2};
    reshape_tensor t = {RESHAPE_DT_U8, 2, d32, ok32, buffer};

    cr_expect_eq(reshape_adapter_overlaps(&t), 0, "offsets 0 3 2 5 4 7");
    t.strides = bad32;
    cr_expect_eq(reshape_adapter_overlaps(&t), 1, "(2,0) and (0,1) both at 4");
    t.dims = d22;
    t.strides = bad22;
    cr_expect_eq(reshape_adapter_overlaps(&t), 1);
    t.rank = 3;
    t.dims = d2x;
    t.strides = perm;
    cr_expect_eq(reshape_adapter_overlaps(&t), 0, "a permuted dense view");
    t.strides = padded;
    cr_expect_eq(reshape_adapter_overlaps(&t), 1, "(2,0) and (0,1) meet at stride 1 and 2");
    t.strides = NULL;
    cr_expect_eq(reshape_adapter_overlaps(&t), 0, "dense");
}

Test(kit, check_layout_names_what_cannot_be_expressed)
{
    const unsigned asked = RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_BROADCAST_SRC |
                           RESHAPE_LAYOUT_SIZE1_STRIDES | 64u;

    cr_expect_eq(reshape_adapter_check_layout(RESHAPE_OP_ONNX_RESHAPE_14, asked,
                                              RESHAPE_LAYOUT_STRIDED_SRC, "x is dense"),
                 RESHAPE_E_NOT_SUPPORTED);
    cr_expect_str_eq(reshape_adapter_last_error(),
                     "x is dense: layout broadcast_src|size1_strides|0x40 cannot be expressed");
    cr_expect_eq(reshape_adapter_check_layout(RESHAPE_OP_ONNX_RESHAPE_14, asked, ~0u, "x"),
                 RESHAPE_OK);
    cr_expect_null(reshape_adapter_last_error());
    cr_expect_eq(reshape_adapter_check_layout((reshape_op)0, 0, 0, "x"), RESHAPE_E_NOT_SUPPORTED);
    cr_expect_str_eq(reshape_adapter_last_error(), "unknown op 0");
}

/* ------------------------------------------------------------ helpers */

Test(kit, dtype_maps_and_payloads)
{
    static const reshape_adapter_type map[] = {{RESHAPE_DT_F32, 7}, {RESHAPE_DT_U8, 3}};
    int type = -1;
    size_t bytes = 0;

    cr_expect_eq(reshape_adapter_map_dtype(map, RESHAPE_ADAPTER_COUNT(map), RESHAPE_DT_U8,
                                           "lib has no type", &type), RESHAPE_OK);
    cr_expect_eq(type, 3);
    cr_expect_eq(reshape_adapter_map_dtype(map, 2, RESHAPE_DT_BF16, "lib has no type", &type),
                 RESHAPE_E_NOT_SUPPORTED);
    cr_expect_str_eq(reshape_adapter_last_error(), "lib has no type for 'bf16'");
    cr_expect(reshape_adapter_payload_bytes(RESHAPE_DT_U1, 9, &bytes) == 0 && bytes == 2);
    cr_expect(reshape_adapter_payload_bytes(RESHAPE_DT_U4, 3, &bytes) == 0 && bytes == 2);
    cr_expect_eq(reshape_adapter_payload_bytes(RESHAPE_DT_F64, INT64_MAX, &bytes), -1);
    cr_expect_str_eq(reshape_adapter_dtype_name((reshape_dtype)77), "?");
}

Test(kit, shape_lists_refuse_only_what_the_library_cannot_take)
{
    const int64_t n3 = 3, s64[3] = {0, -1, 4};
    const uint64_t u64[1] = {(uint64_t)INT64_MAX + 1};
    const int64_t n1 = 1;
    reshape_tensor sh = {RESHAPE_DT_S64, 1, &n3, NULL, (void *)s64};
    reshape_params p = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &sh};
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count = 0;

    cr_expect_eq(reshape_adapter_shape_list(&p, 0, values, &count), RESHAPE_OK);
    cr_expect(count == 3 && values[0] == 0 && values[1] == -1 && values[2] == 4);
    p.special_zero = 1;
    cr_expect_eq(reshape_adapter_shape_list(&p, 0, values, &count), RESHAPE_E_NOT_SUPPORTED);
    cr_expect_str_eq(reshape_adapter_last_error(),
                     "the library has no copying zero (special_zero true, 0 at index 0)");
    cr_expect_eq(reshape_adapter_shape_list(&p, RESHAPE_ADAPTER_COPY_ZERO, values, &count),
                 RESHAPE_OK);
    cr_expect_eq(reshape_adapter_shape_list(&p, RESHAPE_ADAPTER_COPY_ZERO |
                                                RESHAPE_ADAPTER_NO_MINUS_ONE, values, &count),
                 RESHAPE_E_NOT_SUPPORTED);
    cr_expect_str_eq(reshape_adapter_last_error(), "the library has no inferred dim (-1 at index 1)");
    sh = (reshape_tensor){RESHAPE_DT_U64, 1, &n1, NULL, (void *)u64};
    cr_expect_eq(reshape_adapter_shape_list(&p, 0, values, &count), RESHAPE_E_NOT_SUPPORTED);
    sh.rank = 0;
    cr_expect_eq(reshape_adapter_shape_list(&p, 0, values, &count), RESHAPE_E_NOT_SUPPORTED);
    cr_expect_str_eq(reshape_adapter_last_error(),
                     "the library takes the shape as a list; a rank-0 shape tensor cannot be "
                     "passed");
}

static void *fail_in_thread(void *arg)
{
    (void)arg;
    reshape_adapter_fail(RESHAPE_E_INTERNAL, "from thread %d", 2);
    return (void *)reshape_adapter_last_error();
}

Test(kit, messages_are_per_thread_and_printf_style)
{
    pthread_t t;
    void *theirs;

    cr_expect_eq(reshape_adapter_fail(RESHAPE_E_INTERNAL, "'%s' said %d", "lib", 7),
                 RESHAPE_E_INTERNAL);
    cr_assert_eq(pthread_create(&t, NULL, fail_in_thread, NULL), 0);
    pthread_join(t, &theirs);
    cr_expect_str_eq(reshape_adapter_last_error(), "'lib' said 7");
    cr_expect_neq(theirs, (void *)reshape_adapter_last_error(), "one buffer per thread");
    reshape_adapter_clear_error();
    cr_expect_null(reshape_adapter_last_error());
}

