/*
 * test_layout.c - buffer layouts (harness/layout.h) of tensors whose dense
 * strides leave int64: computed without a signed overflow (the sanitized
 * binary stops at one), saturated where they do not fit, exact where they
 * do.
 */
#include <criterion/criterion.h>
#include <stdint.h>

#include "judge/judge.h"

Test(layout, empty_tensor_beside_huge_dims)
{
    const int64_t dims[3] = {0, INT64_C(1) << 40, INT64_C(1) << 40};
    tlayout l;
    layout_dense(&l, 3, dims, 32);
    cr_expect_eq(l.volume, 0);
    cr_expect_eq(l.span_bytes, 0);
    cr_expect_eq(l.strides[2], 1);
    cr_expect_eq(l.strides[1], INT64_C(1) << 40);
    cr_expect_eq(l.strides[0], INT64_MAX, "a stride past int64 saturates");
    layout_padded(&l, 3, dims, 32);
    cr_expect_eq(l.strides[1], (INT64_C(1) << 40) + 1);
    cr_expect_eq(l.strides[0], INT64_MAX);
    cr_expect_eq(l.span_bytes, 0);
    layout_permuted(&l, 3, dims, 32);
    cr_expect_eq(l.strides[0], 1);
    cr_expect_eq(l.strides[1], 1, "a 0 dim counts as 1");
    cr_expect_eq(l.strides[2], INT64_C(1) << 40);
    cr_expect_eq(l.volume, 0);
}

Test(layout, huge_volume_saturates_the_span)
{
    const int64_t dims[2] = {INT64_C(1) << 31, INT64_C(1) << 31};
    tlayout l;
    layout_dense(&l, 2, dims, 32);
    cr_expect_eq(l.volume, UINT64_C(1) << 62);
    cr_expect_eq(l.strides[0], INT64_C(1) << 31);
    cr_expect_eq(l.span_elems, UINT64_C(1) << 62);
    cr_expect_eq(l.span_bytes, UINT64_MAX, "2^64 bytes do not fit");
    const int64_t more[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 2};
    layout_dense(&l, 3, more, 8);
    cr_expect_eq(l.volume, UINT64_MAX, "a volume past 2^64 saturates");
    cr_expect_eq(l.strides[0], INT64_C(1) << 41);
    cr_expect_eq(l.span_elems, UINT64_MAX, "a span past 2^64 saturates");
}

Test(layout, ordinary_dims_are_exact)
{
    const int64_t dims[3] = {2, 3, 4};
    tlayout l;
    layout_dense(&l, 3, dims, 4);
    cr_expect_eq(l.strides[0], 12);
    cr_expect_eq(l.strides[1], 4);
    cr_expect_eq(l.strides[2], 1);
    cr_expect_eq(l.volume, 24);
    cr_expect_eq(l.span_bytes, 12);
    layout_padded(&l, 3, dims, 8);
    cr_expect_eq(l.strides[1], 5);
    cr_expect_eq(l.strides[0], 15);
    cr_expect_eq(l.span_elems, 15 + 2 * 5 + 3 + 1);
}
