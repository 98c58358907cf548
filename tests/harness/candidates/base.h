/*
 * base.h - a small, correct candidate for the harness's own tests, with
 * hooks for one defect each.  A test candidate defines any of the hooks
 * below, then includes this file; each .c builds one .so.
 *
 *   DEFECT_INFER(params, src, rank, dims)   after a successful inference;
 *                                           may change rank/dims or return
 *   DEFECT_EXECUTE(params, src, dst)        at the start of execute
 *   DEFECT_AFTER_COPY(params, src, dst)     after the copy of a success
 *   DEFECT_COPY                             replaces the copy loop when set
 *   DEFECT_ACCEPT_TWO_MINUS_ONES            skips the "one -1" rule
 *   DEFECT_ACCEPT_VOLUME_MISMATCH           skips the "same volume" rule
 *   DEFECT_ABI_VERSION                      the abi_version to report
 *   CAND_NAME, CAND_VERSION                 the name and version to report
 *   DEFECT_STRUCT_SIZE                      the struct_size to report
 *   DEFECT_SUPPORTS(op, d, s, layout)       at the start of supports
 *   CAND_LIMITS                             a reshape_limits the table points to
 *   CAND_LAST_ERROR                         the table's last_error function
 *
 * The defects trigger on the input of 24 elements (the data set's
 * "trigger" cases) unless the hook says otherwise, so a run shows the
 * defect once and every other case still passes.  Handles the byte-sized
 * and sub-byte dtypes, strides and in-place, special_zero, -1, s64/s32
 * shapes; enough for tests/harness/data.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reshape_candidate.h"

#ifndef CAND_NAME
#define CAND_NAME "harness-test"
#endif
#ifndef CAND_VERSION
#define CAND_VERSION "1"
#endif
#ifndef DEFECT_ABI_VERSION
#define DEFECT_ABI_VERSION RESHAPE_ABI_VERSION
#endif
#ifndef DEFECT_STRUCT_SIZE
#define DEFECT_STRUCT_SIZE sizeof(reshape_candidate)
#endif

static int64_t volume(int32_t rank, const int64_t *dims)
{
    int64_t v = 1;
    for (int32_t i = 0; i < rank; i++)
        v *= dims[i];
    return v;
}

__attribute__((unused)) static int is_trigger(const reshape_tensor *src)
{
    return volume(src->rank, src->dims) == 24;
}

static reshape_status cand_supports(reshape_op op, reshape_dtype d, reshape_dtype s,
                                    unsigned layout)
{
    (void)op; (void)d; (void)s; (void)layout;
#ifdef DEFECT_SUPPORTS
    DEFECT_SUPPORTS(op, d, s, layout);
#endif
    return RESHAPE_OK;
}

static int64_t shape_value(const reshape_tensor *shape, int64_t i)
{
    if (shape->dtype == RESHAPE_DT_S32)
        return ((const int32_t *)shape->data)[i];
    return ((const int64_t *)shape->data)[i];
}

static reshape_status cand_infer(const reshape_params *p, const reshape_tensor *src,
                                 int32_t *out_rank, int64_t *out_dims)
{
    const reshape_tensor *shape = p->shape;
    if (shape->rank != 1)
        return RESHAPE_E_SHAPE_NOT_1D;
    int64_t n = shape->dims[0], minus = -1, known = 1;
    if (n > RESHAPE_MAX_RANK)
        return RESHAPE_E_INVALID_ARGUMENT;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = shape_value(shape, i);
        if (v < -1)
            return RESHAPE_E_BELOW_MINUS_ONE;
        if (v == -1) {
#ifndef DEFECT_ACCEPT_TWO_MINUS_ONES
            if (minus >= 0)
                return RESHAPE_E_MULTIPLE_MINUS_ONE;
#endif
            minus = i;
            out_dims[i] = -1;
            continue;
        }
        if (v == 0 && p->special_zero) {
            if (i >= src->rank)
                return RESHAPE_E_ZERO_OUT_OF_RANGE;
            v = src->dims[i];
        }
        out_dims[i] = v;
        known *= v;
    }
    int64_t vol = volume(src->rank, src->dims);
    if (minus >= 0) {
        if (known == 0)
            return RESHAPE_E_ZERO_AND_MINUS_ONE;
        if (vol % known)
            return RESHAPE_E_NOT_DIVISIBLE;
        for (int64_t i = 0; i < n; i++)
            if (out_dims[i] == -1)
                out_dims[i] = vol / known;
    } else if (known != vol) {
#ifndef DEFECT_ACCEPT_VOLUME_MISMATCH
        return RESHAPE_E_VOLUME_MISMATCH;
#endif
    }
    *out_rank = (int32_t)n;
#ifdef DEFECT_INFER
    DEFECT_INFER(p, src, out_rank, out_dims);
#endif
    return RESHAPE_OK;
}

__attribute__((unused)) static uint64_t offset_of(const reshape_tensor *t, int64_t linear)
{
    uint64_t off = 0, stride = 1;
    for (int32_t i = t->rank - 1; i >= 0; i--) {
        int64_t d = t->dims[i], idx = d ? linear % d : 0;
        off += (uint64_t)idx * (t->strides ? (uint64_t)t->strides[i] : stride);
        stride *= (uint64_t)(d ? d : 1);
        linear = d ? linear / d : 0;
    }
    return off;
}

__attribute__((unused)) static void copy_element(const reshape_tensor *src, uint64_t so, const reshape_tensor *dst,
                         uint64_t d_o, unsigned bits)
{
    const uint8_t *s = src->data;
    uint8_t *d = dst->data;
    if (bits >= 8) {
        memmove(d + d_o * (bits / 8), s + so * (bits / 8), bits / 8);
        return;
    }
    unsigned v, shift;
    if (bits == 4) {
        v = (s[so / 2] >> ((so % 2) * 4)) & 0xF;
        shift = (unsigned)(d_o % 2) * 4;
        d[d_o / 2] = (uint8_t)((d[d_o / 2] & ~(0xFu << shift)) | (v << shift));
    } else {
        v = (s[so / 8] >> (7 - so % 8)) & 1;
        shift = 7 - (unsigned)(d_o % 8);
        d[d_o / 8] = (uint8_t)((d[d_o / 8] & ~(1u << shift)) | (v << shift));
    }
}

/* The base's copy of n elements of `bits` from src to dst (nothing in
 * place), for a DEFECT_COPY that moves it elsewhere (onto a thread). */
__attribute__((unused)) static void base_copy(const reshape_tensor *src, const reshape_tensor *dst,
                                              int64_t n, unsigned bits)
{
    if (src->data == dst->data)
        return;
    if (!src->strides && !dst->strides) {
        memcpy(dst->data, src->data, (size_t)((n * bits + 7) / 8));
        return;
    }
    for (int64_t i = 0; i < n; i++)
        copy_element(src, offset_of(src, i), dst, offset_of(dst, i), bits);
}

static reshape_status cand_execute(const reshape_params *p, const reshape_tensor *src,
                                   const reshape_tensor *dst)
{
#ifdef DEFECT_EXECUTE
    DEFECT_EXECUTE(p, src, dst);
#endif
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    reshape_status st = cand_infer(p, src, &rank, dims);
    if (st != RESHAPE_OK)
        return st;
    if (dst->rank != rank || dst->dtype != src->dtype)
        return RESHAPE_E_INVALID_ARGUMENT;
    for (int32_t i = 0; i < rank; i++)
        if (dst->dims[i] != dims[i])
            return RESHAPE_E_INVALID_ARGUMENT;
    unsigned bits = reshape_dtype_bits(src->dtype);
    int64_t n = volume(src->rank, src->dims);
#ifdef DEFECT_COPY
    DEFECT_COPY(p, src, dst, n, bits);
#else
    base_copy(src, dst, n, bits);
#endif
#ifdef DEFECT_AFTER_COPY
    DEFECT_AFTER_COPY(p, src, dst);
#endif
    return RESHAPE_OK;
}

static const reshape_candidate table = {
    .abi_version = DEFECT_ABI_VERSION,
    .struct_size = DEFECT_STRUCT_SIZE,
    .name = CAND_NAME,
    .version = CAND_VERSION,
    .supports = cand_supports,
    .infer_shape = cand_infer,
    .execute = cand_execute,
#ifdef CAND_LAST_ERROR
    .last_error = CAND_LAST_ERROR,
#endif
#ifdef CAND_LIMITS
    .limits = &CAND_LIMITS,
#endif
};

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    return &table;
}
