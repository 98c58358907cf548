/*
 * d12_test.c - the layouts of reference/DECISIONS.md D12: a broadcast src
 * on every position, size-1 dims with zero, odd and huge strides, empty
 * tensors with any strides, and the overlap test on dst, one test per step
 * of it (a zero stride, nested strides, pigeonhole, enumerated both ways);
 * in place with a broadcast or size-1-strided src.  Expected bytes come
 * from the tests' own index model (support.c), never from the reference.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"

#define HUGE58 (INT64_C(1) << 58)

/* Copies a src of `rank` dims and `strides` over a random buffer of
 * `stored` elements into a dense dst of one flat dim, on the fast and the
 * plain path, for every dtype; the model decides the bytes. */
static void broadcast_copy(int32_t rank, const int64_t *dims, const int64_t *strides,
                           int64_t stored)
{
    int64_t volume = 1;
    for (int32_t i = 0; i < rank; i++)
        volume *= dims[i];
    int64_t flat[1] = {volume};
    for (int k = 0; k < RESHAPE_DT_COUNT; k++)
        for (int plain = 0; plain <= 1; plain++) {
            reshape_dtype dtype = all_dtypes[k];
            size_t sb = payload_bytes(dtype, stored), db = payload_bytes(dtype, volume);
            unsigned char *in = malloc(sb), *out = malloc(db);
            cr_assert(in != NULL && out != NULL);
            fill_random(in, sb, 100 + (uint64_t)k);
            fill_random(out, db, 200 + (uint64_t)k);
            reshape_ref_set_plain(plain);
            reshape_tensor src = strided(dtype, rank, dims, strides, in);
            reshape_tensor dst = tensor(dtype, 1, flat, out);
            check_copy(OV, &src, sb, &dst, db);
            free(in);
            free(out);
        }
}

/* "Each element is read from its own offset, so the values repeat." */
Test(d12, broadcast_leading_dim)
{
    broadcast_copy(DIMS(4, 3), (int64_t[]){0, 1}, 3);
}

Test(d12, broadcast_inner_dim)
{
    broadcast_copy(DIMS(2, 5, 3), (int64_t[]){3, 0, 1}, 6);
}

Test(d12, broadcast_innermost_dim)
{
    broadcast_copy(DIMS(3, 7), (int64_t[]){1, 0}, 3);
}

Test(d12, broadcast_several_dims)
{
    broadcast_copy(DIMS(2, 3, 2, 5), (int64_t[]){0, 2, 0, 0}, 5);
}

Test(d12, broadcast_every_dim_reads_one_element)
{
    broadcast_copy(DIMS(3, 4, 2), (int64_t[]){0, 0, 0}, 1);
}

/* Offsets that coincide without a zero stride: [4, 3] with strides [1, 1]
 * reads elements 0..5 in a sliding window. */
Test(d12, broadcast_by_coinciding_offsets)
{
    broadcast_copy(DIMS(4, 3), (int64_t[]){1, 1}, 6);
}

/* "a dim of size 1 may carry any stride >= 0 ... its stride never moves the
 * address and does not count toward the tensor's extent": [1, 4] with
 * strides [2^58, 1] is a dense [1, 4] for every dtype, u1 included (2^58
 * elements of 64 bits would be 2^64 bits), and so are a zero, an odd and
 * the largest stride, on src and on dst. */
Test(d12, size1_strides_never_move_the_address)
{
    const int64_t odd[] = {HUGE58, 0, 7, INT64_MAX};
    for (size_t s = 0; s < sizeof odd / sizeof *odd; s++)
        for (int k = 0; k < RESHAPE_DT_COUNT; k++) {
            reshape_dtype dtype = all_dtypes[k];
            size_t n = payload_bytes(dtype, 4);
            unsigned char in[32], out[32];
            int64_t sdims[3] = {1, 4, 1}, sstr[3] = {odd[s], 1, odd[s]};
            int64_t ddims[2] = {4, 1}, dstr[2] = {1, odd[s]};
            fill_random(in, sizeof in, 300 + s);
            memset(out, 0xA5, sizeof out);
            reshape_tensor src = strided(dtype, 3, sdims, sstr, in);
            reshape_tensor dst = strided(dtype, 2, ddims, dstr, out);
            check_copy(OV, &src, n, &dst, sizeof out);
        }
}

/* "a tensor with a 0 dim has no element and addresses no memory; its other
 * dims and all its strides (>= 0) are unconstrained": strides far past the
 * 2^63-bit bound, on both tensors, and NULL data. */
Test(d12, empty_tensors_take_any_strides)
{
    int64_t sdims[3] = {5, 0, 3}, sstr[3] = {INT64_MAX, INT64_MAX, 0};
    int64_t ddims[2] = {0, 15}, dstr[2] = {0, INT64_MAX / 2};
    struct shape_buf shape;
    shape_init(&shape, RESHAPE_DT_S64, 2, ddims);
    reshape_params p = params(OV, 0, &shape.t);
    reshape_tensor src = strided(RESHAPE_DT_F64, 3, sdims, sstr, NULL);
    reshape_tensor dst = strided(RESHAPE_DT_F64, 2, ddims, dstr, NULL);
    cr_assert_eq(ref()->execute(&p, &src, &dst), RESHAPE_OK, "%s", ref()->last_error());
}

/* Runs `src` [volume] dense into `dst` and asserts INVALID_ARGUMENT with
 * dst's `bytes` untouched. */
static void refused(reshape_dtype dtype, reshape_tensor *src, reshape_tensor *dst, size_t bytes)
{
    unsigned char *before = malloc(bytes);
    cr_assert(before != NULL);
    memcpy(before, dst->data, bytes);
    struct shape_buf shape;
    shape_init(&shape, RESHAPE_DT_S64, dst->rank, dst->dims);
    reshape_params p = params(OV, 0, &shape.t);
    reshape_status st = ref()->execute(&p, src, dst);
    cr_assert_eq(st, RESHAPE_E_INVALID_ARGUMENT, "%s: got %s", reshape_dtype_name(dtype),
                 reshape_status_name(st));
    assert_bytes_eq(dst->data, before, bytes);
    free(before);
}

/* A dst of `rank` dims and `strides` from a dense src: refused when
 * `overlap`, else copied as the model says; for every dtype. */
static void dst_layout(int32_t rank, const int64_t *dims, const int64_t *strides, int overlap)
{
    int64_t volume = 1, last = 0;
    for (int32_t i = 0; i < rank; i++) {
        volume *= dims[i];
        last += (dims[i] - 1) * strides[i];
    }
    int64_t flat[1] = {volume};
    for (int k = 0; k < RESHAPE_DT_COUNT; k++) {
        reshape_dtype dtype = all_dtypes[k];
        size_t sb = payload_bytes(dtype, volume), db = payload_bytes(dtype, last + 1);
        unsigned char *in = malloc(sb), *out = malloc(db);
        cr_assert(in != NULL && out != NULL);
        fill_random(in, sb, 400 + (uint64_t)k);
        memset(out, 0xA5, db);
        reshape_tensor src = tensor(dtype, 1, flat, in);
        reshape_tensor dst = strided(dtype, rank, dims, strides, out);
        if (overlap)
            refused(dtype, &src, &dst, db);
        else
            check_copy(OV, &src, sb, &dst, db);
        free(in);
        free(out);
    }
}

/* Step 2: "a stride of 0 on a dim of 4". */
Test(d12, dst_with_a_zero_stride_on_a_dim_above_1_is_refused)
{
    dst_layout(DIMS(4), (int64_t[]){0}, 1);
    dst_layout(DIMS(2, 3, 2), (int64_t[]){6, 0, 1}, 1);
}

/* Step 1: a zero stride on a dim of 1 separates nothing. */
Test(d12, dst_with_a_zero_stride_on_a_dim_of_1_is_written)
{
    dst_layout(DIMS(3, 1, 2), (int64_t[]){2, 0, 1}, 0);
}

/* Step 3: nested strides in any order (permuted and padded) never overlap. */
Test(d12, dst_with_nested_strides_is_written)
{
    dst_layout(DIMS(3, 4), (int64_t[]){1, 3}, 0);
    dst_layout(DIMS(2, 3, 2), (int64_t[]){1, 5, 2}, 0);
}

/* Step 4: [4, 3] with strides [2, 1] reaches offsets 0..8, 9 of them, for
 * 12 elements. */
Test(d12, dst_with_more_elements_than_offsets_is_refused)
{
    dst_layout(DIMS(4, 3), (int64_t[]){2, 1}, 1);
}

/* Step 5: [3, 2] with strides [2, 3] takes offsets 0 3 2 5 4 7, all
 * distinct, and [2, 2, 3] with [7, 2, 3] twelve distinct in 0..15; [4, 3]
 * with strides [2, 3] reaches 0..12 but has offset 6
 * twice (index (3, 0) and (0, 2)). */
Test(d12, dst_enumerated_distinct_is_written)
{
    dst_layout(DIMS(3, 2), (int64_t[]){2, 3}, 0);
    dst_layout(DIMS(2, 2, 3), (int64_t[]){7, 2, 3}, 0);
}

Test(d12, dst_enumerated_with_a_repeat_is_refused)
{
    dst_layout(DIMS(4, 3), (int64_t[]){2, 3}, 1);
    dst_layout(DIMS(2, 2, 2), (int64_t[]){4, 3, 1}, 1);
}

/* "a broadcast or any strided src in place is RESHAPE_E_INVALID_ARGUMENT",
 * size-1 strides too: strides != NULL is the test. */
Test(d12, broadcast_or_size1_strided_src_in_place_is_refused)
{
    unsigned char buf[64];
    int64_t sdims[2] = {4, 3}, bstr[2] = {0, 1}, ddims[1] = {12};
    int64_t odims[2] = {1, 12}, ostr[2] = {HUGE58, 1};
    fill_random(buf, sizeof buf, 500);
    reshape_tensor src = strided(RESHAPE_DT_U8, 2, sdims, bstr, buf);
    reshape_tensor dst = tensor(RESHAPE_DT_U8, 1, ddims, buf);
    refused(RESHAPE_DT_U8, &src, &dst, sizeof buf);
    src = strided(RESHAPE_DT_U8, 2, odims, ostr, buf);
    refused(RESHAPE_DT_U8, &src, &dst, sizeof buf);
}

/* The new layout flags are supported; the device flag is not (the
 * reference has none). */
Test(d12, supports_the_layout_flags)
{
    unsigned all = RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST |
                   RESHAPE_LAYOUT_BROADCAST_SRC | RESHAPE_LAYOUT_SIZE1_STRIDES;
    cr_expect_eq(ref()->supports(OV, RESHAPE_DT_F32, RESHAPE_DT_S64, all), RESHAPE_OK);
    cr_expect_eq(ref()->supports(OV, RESHAPE_DT_F32, RESHAPE_DT_S64, RESHAPE_LAYOUT_DEVICE),
                 RESHAPE_E_NOT_SUPPORTED);
}
