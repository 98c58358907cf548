/*
 * base_test.c - the broken candidates' base kernel on its own, linked
 * directly (no harness): every rule of DECISIONS.md gives its status, and
 * the copy is bit-exact for dense, strided, in-place and sub-byte tensors.
 * A broken candidate only proves something if this kernel is right.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"
#include <string.h>

#include "broken.h"

/* ------------------------------------------------------ shape inference */

/* No pointers: Criterion hands each row to a fresh process. */
struct infer_row {
    char what[40];
    reshape_dtype dtype;
    reshape_op op;
    int special_zero;
    reshape_dtype shape_dtype;
    int32_t rank;
    int64_t dims[6];
    int32_t len;
    int64_t values[6];
    reshape_status status;
    int32_t out_rank;
    int64_t out[6];
};

#define OV RESHAPE_OP_OPENVINO_RESHAPE_1
#define ST RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1
#define DY RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1
#define NX RESHAPE_OP_ONNX_RESHAPE_14
#define F32 RESHAPE_DT_F32
#define S64 RESHAPE_DT_S64
#define BIG (INT64_C(1) << 40)

static const struct infer_row infer_rows[] = {
    {"example 1 empty", F32, OV, 0, S64, 4, {2, 5, 5, 0}, 2, {0, 4},
     RESHAPE_OK, 2, {0, 4}},
    {"example 2", F32, OV, 1, S64, 4, {2, 5, 5, 24}, 3, {0, -1, 4},
     RESHAPE_OK, 3, {2, 150, 4}},
    {"example 3", F32, OV, 1, S64, 3, {2, 2, 3}, 4, {0, 0, 1, -1},
     RESHAPE_OK, 4, {2, 2, 1, 3}},
    {"example 4", F32, OV, 1, S64, 3, {3, 1, 1}, 2, {-1, 0},
     RESHAPE_OK, 2, {3, 1}},
    {"scalar to [1]", F32, NX, 0, S64, 0, {0}, 1, {1}, RESHAPE_OK, 1, {1}},
    {"scalar to []", F32, NX, 0, S64, 0, {0}, 0, {0}, RESHAPE_OK, 0, {0}},
    {"[6] to [-1]", F32, DY, 0, RESHAPE_DT_S32, 1, {6}, 1, {-1},
     RESHAPE_OK, 1, {6}},
    {"u8 255 is 255", F32, OV, 0, RESHAPE_DT_U8, 1, {255}, 1, {255},
     RESHAPE_OK, 1, {255}},
    {"copying 0 is left aligned", F32, OV, 1, S64, 3, {2, 3, 4}, 2, {0, 12},
     RESHAPE_OK, 2, {2, 12}},
    {"empty with huge dims", F32, OV, 0, S64, 3, {BIG, 0, BIG}, 2, {0, 5},
     RESHAPE_OK, 2, {0, 5}},
    {"two -1", F32, OV, 0, S64, 1, {6}, 2, {-1, -1},
     RESHAPE_E_MULTIPLE_MINUS_ONE, 0, {0}},
    {"-2", F32, ST, 0, S64, 1, {6}, 2, {-2, 3},
     RESHAPE_E_BELOW_MINUS_ONE, 0, {0}},
    {"0 at index == rank", F32, OV, 1, S64, 2, {2, 3}, 3, {0, 0, 0},
     RESHAPE_E_ZERO_OUT_OF_RANGE, 0, {0}},
    {"literal 0 and -1", F32, ST, 0, S64, 1, {6}, 2, {0, -1},
     RESHAPE_E_ZERO_AND_MINUS_ONE, 0, {0}},
    {"7 into 2 x -1", F32, OV, 0, S64, 1, {7}, 2, {2, -1},
     RESHAPE_E_NOT_DIVISIBLE, 0, {0}},
    {"volume 6 to 8", F32, OV, 0, S64, 2, {2, 3}, 1, {8},
     RESHAPE_E_VOLUME_MISMATCH, 0, {0}},
    {"s32 data for oneDNN", RESHAPE_DT_S32, ST, 0, S64, 1, {6}, 1, {6},
     RESHAPE_E_DATA_TYPE, 0, {0}},
    {"s64 shape for DynamicReshape", F32, DY, 0, S64, 1, {6}, 1, {6},
     RESHAPE_E_SHAPE_TYPE, 0, {0}},
    {"u64 max", F32, OV, 0, RESHAPE_DT_U64, 1, {6}, 1, {-1},
     RESHAPE_E_OVERFLOW, 0, {0}},
    {"product past int64", F32, OV, 0, S64, 2, {BIG, BIG}, 1, {-1},
     RESHAPE_E_OVERFLOW, 0, {0}},
};

ParameterizedTestParameters(base, infer)
{
    return cr_make_param_array(struct infer_row, infer_rows,
                               sizeof infer_rows / sizeof infer_rows[0]);
}

RowTest(const struct infer_row *row, base, infer)
{
    /* Shape values in the row's dtype; the rows use s64, s32, u8 and u64. */
    unsigned char raw[6 * 8];
    unsigned bits = reshape_dtype_bits(row->shape_dtype);
    for (int32_t i = 0; i < row->len; i++)
        broken_store(raw, i, bits, (uint64_t)row->values[i]);
    int64_t shape_dims[1] = {row->len};
    reshape_tensor shape = {row->shape_dtype, 1, shape_dims, NULL, raw};
    reshape_params params = {row->op, row->special_zero, &shape};
    reshape_tensor src = {row->dtype, row->rank, row->dims, NULL, NULL};
    int32_t out_rank = -1;
    int64_t out[RESHAPE_MAX_RANK];
    reshape_status st = broken_infer(&params, &src, &out_rank, out);
    cr_assert_eq(st, row->status, "%s: status %s, want %s", row->what,
                 reshape_status_name(st), reshape_status_name(row->status));
    if (st != RESHAPE_OK)
        return;
    cr_assert_eq(out_rank, row->out_rank, "%s: rank", row->what);
    for (int32_t i = 0; i < out_rank; i++)
        cr_assert_eq(out[i], row->out[i], "%s: dim %d", row->what, i);
}

Test(base, shape_tensor_not_1d)
{
    int64_t value = 6, dims[2] = {1, 1};
    int64_t six = 6;
    reshape_tensor shape = {RESHAPE_DT_S64, 2, dims, NULL, &value};
    reshape_params params = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape};
    reshape_tensor src = {RESHAPE_DT_F32, 1, &six, NULL, NULL};
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];
    cr_assert_eq(broken_infer(&params, &src, &rank, out),
                 RESHAPE_E_SHAPE_NOT_1D);
    shape.rank = 0;
    cr_assert_eq(broken_infer(&params, &src, &rank, out),
                 RESHAPE_E_SHAPE_NOT_1D);
}

/* -------------------------------------------------------------- the copy */

/* A reshape of `src` (rank 1 shape [-1] flattening it) into `dst`. */
static reshape_status flatten(reshape_tensor *src, reshape_tensor *dst)
{
    static const int64_t minus_one = -1, one = 1;
    reshape_tensor shape = {RESHAPE_DT_S64, 1, &one, NULL, (void *)&minus_one};
    reshape_params params = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape};
    return broken_execute(&params, src, dst);
}

Test(base, dense_copy_is_bit_exact)
{
    /* sNaN, a NaN with payload, -0.0, a subnormal, one. */
    uint32_t in[6] = {0x7F800001u, 0xFFC12345u, 0x80000000u, 0x00000001u,
                      0x3F800000u, 0x7F7FFFFFu};
    uint32_t out[6] = {0};
    int64_t dims[2] = {2, 3}, flat = 6;
    reshape_tensor src = {RESHAPE_DT_F32, 2, dims, NULL, in};
    reshape_tensor dst = {RESHAPE_DT_F32, 1, &flat, NULL, out};
    cr_assert_eq(flatten(&src, &dst), RESHAPE_OK);
    cr_assert_arr_eq(in, out, sizeof in);
}

Test(base, strided_src_and_dst)
{
    /* src: the transpose of a row-major 3x2 f16 matrix, as a [2,3] view. */
    uint16_t in[6] = {10, 11, 12, 13, 14, 15};
    int64_t src_dims[2] = {2, 3}, src_strides[2] = {1, 2};
    /* dst: [6] with stride 2; odd slots are gaps holding 0xEEEE. */
    uint16_t out[12];
    for (int i = 0; i < 12; i++)
        out[i] = 0xEEEE;
    int64_t flat = 6, dst_stride = 2;
    reshape_tensor src = {RESHAPE_DT_F16, 2, src_dims, src_strides, in};
    reshape_tensor dst = {RESHAPE_DT_F16, 1, &flat, &dst_stride, out};
    cr_assert_eq(flatten(&src, &dst), RESHAPE_OK);
    static const uint16_t want[6] = {10, 12, 14, 11, 13, 15};
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(out[2 * i], want[i], "element %d", i);
        cr_assert_eq(out[2 * i + 1], 0xEEEE, "gap %d", i);
    }
}

Test(base, in_place)
{
    uint8_t buf[6] = {1, 2, 3, 4, 5, 6};
    int64_t dims[2] = {3, 2}, flat = 6;
    reshape_tensor src = {RESHAPE_DT_BOOLEAN, 2, dims, NULL, buf};
    reshape_tensor dst = {RESHAPE_DT_BOOLEAN, 1, &flat, NULL, buf};
    cr_assert_eq(flatten(&src, &dst), RESHAPE_OK);
    static const uint8_t want[6] = {1, 2, 3, 4, 5, 6};
    cr_assert_arr_eq(buf, want, sizeof want);
}

Test(base, u4_padding_copied)
{
    /* 5 u4 elements: 3 bytes, the high nibble of the last is padding. */
    uint8_t in[3] = {0x21, 0x43, 0xA5}, out[3] = {0, 0, 0};
    int64_t dims[1] = {5};
    reshape_tensor src = {RESHAPE_DT_U4, 1, dims, NULL, in};
    reshape_tensor dst = {RESHAPE_DT_U4, 1, dims, NULL, out};
    cr_assert_eq(flatten(&src, &dst), RESHAPE_OK);
    cr_assert_arr_eq(in, out, sizeof in);
}

Test(base, u1_order_and_padding)
{
    /* 11 u1 elements, first in bit 7; the low 5 bits of byte 1 are padding. */
    uint8_t in[2] = {0x96, 0xBF}, out[2] = {0, 0};
    int64_t dims[2] = {1, 11}, flat = 11;
    reshape_tensor src = {RESHAPE_DT_U1, 2, dims, NULL, in};
    reshape_tensor dst = {RESHAPE_DT_U1, 1, &flat, NULL, out};
    cr_assert_eq(flatten(&src, &dst), RESHAPE_OK);
    cr_assert_arr_eq(in, out, sizeof in);
    cr_assert_eq(broken_load(in, 0, 1), 1);
    cr_assert_eq(broken_load(in, 1, 1), 0);
    cr_assert_eq(broken_load(in, 10, 1), 1);
}

Test(base, dst_that_does_not_fit_is_refused_untouched)
{
    float in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {9, 9, 9, 9, 9, 9};
    int64_t dims[2] = {2, 3}, short_flat = 5;
    reshape_tensor src = {RESHAPE_DT_F32, 2, dims, NULL, in};
    reshape_tensor dst = {RESHAPE_DT_F32, 1, &short_flat, NULL, out};
    cr_assert_eq(flatten(&src, &dst), RESHAPE_E_INVALID_ARGUMENT);
    dst.dims = (int64_t[]){6};
    dst.dtype = RESHAPE_DT_S32;
    cr_assert_eq(flatten(&src, &dst), RESHAPE_E_INVALID_ARGUMENT);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(out[i], 9.0f);
}

Test(base, table)
{
    const reshape_candidate *c = reshape_candidate_v1();
    cr_assert_eq(c->abi_version, RESHAPE_ABI_VERSION);
    cr_assert_eq(c->struct_size, sizeof(reshape_candidate));
    cr_assert_str_eq(c->name, "base");
    cr_assert_eq(reshape_broken_defect_v1(), &broken_defect);
    cr_assert_str_eq(broken_defect.expect, "PASS");
    cr_assert_eq(c->supports(RESHAPE_OP_ONNX_RESHAPE_14, RESHAPE_DT_U1,
                             RESHAPE_DT_S64, RESHAPE_LAYOUT_STRIDED_SRC),
                 RESHAPE_OK);
    cr_assert_eq(c->supports(RESHAPE_OP_ONNX_RESHAPE_14, 99, RESHAPE_DT_S64, 0),
                 RESHAPE_E_NOT_SUPPORTED);
}
