/*
 * adapter_common.h - what every library adapter (candidates/<library>/)
 * shares: the ABI's caller-misuse checks, reading a shape tensor into the
 * list of integers a library's reshape takes, the destination check, and the
 * calling thread's last error.  Depends on the ABI header and libc only.
 *
 * The rule every adapter follows: the library decides shapes and errors.
 * Nothing here implements a spec rule (no -1 solving, no copying zeros, no
 * volume check); it only refuses calls that break the ABI itself
 * (RESHAPE_E_INVALID_ARGUMENT) and says RESHAPE_E_NOT_SUPPORTED for inputs a
 * library's interface cannot carry.
 */
#ifndef ADAPTER_COMMON_H
#define ADAPTER_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "reshape_candidate.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records a message for the calling thread (printf-style, lowercase, no
 * full stop, as STYLE.md asks) and returns `status` unchanged, so that
 * `return adapter_fail(...)` reads as one step. */
reshape_status adapter_fail(reshape_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Forgets the calling thread's message; every entry point calls it first. */
void adapter_clear_error(void);

/* The calling thread's message about its most recent non-OK status, or NULL;
 * the ABI's `last_error`.  Valid until the thread's next call. */
const char *adapter_last_error(void);

/*
 * The ABI checks of DECISIONS.md rule 1 (caller misuse), for infer_shape
 * (`dst` NULL) and execute: NULL pointers, an unknown op or dtype,
 * `special_zero` other than 0 or 1, a rank outside 0..RESHAPE_MAX_RANK, a
 * negative dim or stride, a shape tensor with strides or with more than
 * RESHAPE_MAX_RANK values, src data NULL for a non-empty execute.
 * Returns RESHAPE_OK or RESHAPE_E_INVALID_ARGUMENT.
 */
reshape_status adapter_check_call(const reshape_params *params,
                                  const reshape_tensor *src,
                                  const reshape_tensor *dst);

/* adapter_check_call for execute, where `dst` is never optional: a NULL
 * dst is RESHAPE_E_INVALID_ARGUMENT instead of an infer_shape call.  With
 * dst, adapter_check_call also refuses a src or dst whose last element
 * ends 2^63 - 7 bits or more past its data (the ABI header's tensor
 * rule), before a library computes an offset that wraps. */
reshape_status adapter_check_execute(const reshape_params *params,
                                     const reshape_tensor *src,
                                     const reshape_tensor *dst);

/*
 * Checks that `dst` is what the library produced: the same dtype as `src`
 * and exactly `rank` dims equal to `dims`.  Returns RESHAPE_OK or
 * RESHAPE_E_INVALID_ARGUMENT (the ABI's "refuse, never overrun").
 */
reshape_status adapter_check_dst(const reshape_tensor *src,
                                 const reshape_tensor *dst, int32_t rank,
                                 const int64_t *dims);

/* The RESHAPE_LAYOUT_* flags a call uses: strided src, strided dst, in-place
 * (same data pointer, both dense). */
unsigned adapter_layout(const reshape_tensor *src, const reshape_tensor *dst);

/* Number of elements of `t` (the product of its dims, 1 for rank 0) into
 * *count.  Returns 0, or -1 when the product leaves int64 (nothing that
 * large can be in memory). */
int adapter_volume(const reshape_tensor *t, int64_t *count);

/* Bytes of a dense payload of `count` elements of `dtype`:
 * ceil(count * bits / 8).  Returns 0, or -1 when it does not fit size_t. */
int adapter_payload_bytes(reshape_dtype dtype, int64_t count, size_t *bytes);

/* 1 when `dtype` is in the shape-type list of `op` (DECISIONS.md D7):
 * OpenVINO s64 s32 s16 s8 u64 u32 u16 u8; DynamicReshape s32;
 * StaticReshape and ONNX s64.  Adapters whose library takes the shape as a
 * plain list of integers (it has no typed shape input that could reject a
 * type) answer NOT_SUPPORTED outside this list. */
int adapter_shape_dtype_allowed(reshape_op op, reshape_dtype dtype);

/* The refusal of a shape dtype outside that list, for supports():
 * RESHAPE_E_NOT_SUPPORTED, last_error "<takes>; a '<dtype>' shape tensor
 * cannot be passed for '<op>'", where `takes` says how the library takes
 * the shape ("numpy takes the shape as an npy_intp list"). */
reshape_status adapter_refuse_shape_dtype(reshape_op op, reshape_dtype dtype,
                                          const char *takes);

/* reshape_dtype_name(dtype), or "?" for a value outside the enum: for
 * messages about what the harness passed. */
const char *adapter_dtype_name(reshape_dtype dtype);

/* What a library's list-of-integers interface cannot carry. */
enum adapter_list_limits {
    ADAPTER_LIST_NO_MINUS_ONE = 1, /* it has no "infer this dim" marker */
    ADAPTER_LIST_NO_NEGATIVE = 2,  /* its dims are unsigned (size_t) */
    ADAPTER_LIST_COPY_ZERO = 4     /* not a limit: it has a copying zero of
                                    * its own, so zeros pass as they are */
};

/*
 * Reads the target shape of `params` into `values` (RESHAPE_MAX_RANK
 * entries of room) and *count, for a library whose reshape takes a list of
 * integers with a literal meaning for each.  The values are passed on as
 * they are, never checked against any spec rule; what the list cannot carry
 * is RESHAPE_E_NOT_SUPPORTED, with a message saying which:
 *   - a shape tensor of rank other than 1 (a list has no rank to reject),
 *   - a shape dtype that is not an integer, or a u64 value above INT64_MAX,
 *   - with special_zero true, any 0 (the library has no copying zero),
 *     unless `limits` has ADAPTER_LIST_COPY_ZERO,
 *   - per `limits`: a -1, or any negative value.
 * Assumes adapter_check_call passed.  Returns RESHAPE_OK or
 * RESHAPE_E_NOT_SUPPORTED.
 */
reshape_status adapter_list_shape(const reshape_params *params,
                                  unsigned limits, int64_t *values,
                                  int32_t *count);

#ifdef __cplusplus
}
#endif

#endif /* ADAPTER_COMMON_H */
