/*
 * reference.h - the internal API between the files of the reference
 * implementation (the .c files of reference/).  Only candidate.c faces the
 * outside world, through the ABI table of include/reshape_candidate.h;
 * everything declared here has hidden visibility in build/libreshape_ref.so
 * and is reachable only by code linked against build/libreshape_ref.a (the
 * harness, the tests).
 *
 * The files and their one job each:
 *   error.c   the calling thread's last error message (reshape_ref_fail)
 *   rules.c   which data and shape dtypes each operation allows (D5, D7)
 *   args.c    rule 1 of DECISIONS.md: caller misuse, INVALID_ARGUMENT
 *   volume.c  checked int64 products: volumes and largest strided offsets
 *   values.c  reading one target-shape value in any shape dtype
 *   infer.c   shape inference, rules 1-11 of DECISIONS.md, in order
 *   overlap.c whether two elements of a tensor share an offset (D12)
 *   copy.c    the element copy (plain odometer loop; fast paths: dense memmove,
 *             strided runs)
 *   execute.c execute(): inference, destination checks, then the copy
 *   candidate.c the exported table reshape_candidate_v1
 *
 * Names follow the specs: special_zero, shape, volume, rank, dims, strides.
 * Dims, volumes and strides count elements, never bytes.
 */
#ifndef RESHAPE_REF_REFERENCE_H
#define RESHAPE_REF_REFERENCE_H

#include <stdint.h>

#include "reshape_candidate.h"

/* ------------------------------------------------------------ error.c */

/*
 * Records `status` with a message formatted from `fmt` (printf style) as the
 * calling thread's last error, and returns `status`, so that a check reads
 * `return reshape_ref_fail(RESHAPE_E_..., "...", ...)`.  Messages follow the
 * project's style: what went wrong first, lowercase, the subject in single
 * quotes, no full stop.  A message longer than the buffer (255 bytes) is cut.
 */
reshape_status reshape_ref_fail(reshape_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Forgets the calling thread's last error: every entry point calls it first,
 * so that a successful call leaves no stale message behind. */
void reshape_ref_clear_error(void);

/* The calling thread's last error message, or NULL when the most recent call
 * succeeded (or none was made).  Valid until the thread's next call into the
 * reference; owned by the reference. */
const char *reshape_ref_last_error(void);

/* ------------------------------------------------------------ rules.c */

/*
 * Whether `op` allows data of dtype `dtype` (DECISIONS.md D5):
 *   openvino_reshape_1, onnx_reshape_14: all 18 ABI dtypes ("T: any numeric
 *     type", boolean counted as numeric; ONNX "any tensor type");
 *   onednn_static_reshape_1, onednn_dynamic_reshape_1: f32, f16, bf16
 *     ("T: f32,f16,bf16", "T1: f32,f16,bf16").
 * Returns 1 or 0; 0 for an op or dtype outside the enums.
 */
int reshape_ref_data_dtype_allowed(reshape_op op, reshape_dtype dtype);

/*
 * Whether `op` allows a target shape of dtype `dtype` (DECISIONS.md D7):
 *   openvino_reshape_1: s64 s32 s16 s8 u64 u32 u16 u8 ("T_SHAPE: any
 *     supported integer type"; the packed s4, u4, u1 are not index types);
 *   onednn_dynamic_reshape_1: s32 ("T2: s32");
 *   onednn_static_reshape_1: s64 ("Type: s64[]");
 *   onnx_reshape_14: s64 ("1-D tensor of int64").
 * Returns 1 or 0; 0 for an op or dtype outside the enums.
 */
int reshape_ref_shape_dtype_allowed(reshape_op op, reshape_dtype dtype);

/* The allowed data dtypes of `op` as the spec lists them ("f32, f16, bf16"),
 * for messages; "" for an unknown op. */
const char *reshape_ref_data_dtype_list(reshape_op op);

/* The allowed shape dtypes of `op` ("s32"), for messages; "" for an unknown
 * op. */
const char *reshape_ref_shape_dtype_list(reshape_op op);

/* ------------------------------------------------------------- args.c */

/*
 * Rule 1 of DECISIONS.md for inference: NULL `params`, `params->shape` or
 * `src`; `special_zero` not 0 or 1; an op outside reshape_op; a data or shape
 * dtype outside reshape_dtype; a rank outside 0..RESHAPE_MAX_RANK (data or
 * shape tensor); NULL dims with a rank above 0; a negative dim; a shape tensor
 * with more than RESHAPE_MAX_RANK values, with strides, or with NULL data
 * while it holds values.  src->data and src->strides are not looked at.
 * Returns RESHAPE_OK or RESHAPE_E_INVALID_ARGUMENT (message recorded).
 */
reshape_status reshape_ref_check_params(const reshape_params *params,
                                        const reshape_tensor *src);

/*
 * Rule 1 for one tensor that execute() reads or writes: NULL `t`; dtype
 * outside reshape_dtype; rank outside 0..RESHAPE_MAX_RANK; NULL dims with a
 * rank above 0; a negative dim or a negative stride.  `what` names the
 * tensor in the message ("src", "dst").  Data is not looked at (whether it
 * may be NULL depends on the volume, known only after inference).
 * Returns RESHAPE_OK or RESHAPE_E_INVALID_ARGUMENT (message recorded).
 */
reshape_status reshape_ref_check_tensor(const reshape_tensor *t,
                                        const char *what);

/* ----------------------------------------------------------- volume.c */

/*
 * The volume (product of dims) of `rank` dims, each >= 0, into *volume.
 * Any 0 dim gives 0 before anything is multiplied (DECISIONS.md D8); rank 0
 * gives 1.  Every product is tested against INT64_MAX before it is made.
 * Returns RESHAPE_OK, or RESHAPE_E_OVERFLOW when the product leaves int64
 * (*volume is then unspecified).  Records no message: the caller knows what
 * the dims were.
 */
reshape_status reshape_ref_volume(int32_t rank, const int64_t *dims,
                                  int64_t *volume);

/*
 * The largest linear offset sum((dims[j] - 1) * strides[j]) that a tensor of
 * `rank` dims (each >= 1) and `strides` (each >= 0) addresses, into *offset.
 * A NULL `strides` means dense row-major.  The caller must not ask for a
 * tensor of volume 0 (it addresses nothing).
 * Returns RESHAPE_OK, or RESHAPE_E_OVERFLOW when a product or the sum leaves
 * int64.  Records no message.
 */
reshape_status reshape_ref_max_offset(int32_t rank, const int64_t *dims,
                                      const int64_t *strides, int64_t *offset);

/* ----------------------------------------------------------- values.c */

/*
 * Reads value `index` of a dense shape tensor whose elements have dtype
 * `dtype` (s64 s32 s16 s8 u64 u32 u16 u8, host byte order, any alignment)
 * into *value.  Unsigned values are never read as negative: u8 255 is 255.
 * Returns RESHAPE_OK; RESHAPE_E_OVERFLOW for a u64 above INT64_MAX
 * (DECISIONS.md D4); RESHAPE_E_INTERNAL for any other dtype (rule 3 has
 * already refused those).  Records no message.
 */
reshape_status reshape_ref_shape_value(reshape_dtype dtype, const void *data,
                                       int64_t index, int64_t *value);

/* ------------------------------------------------------------ infer.c */

/*
 * Shape inference: the rules of DECISIONS.md "The rules, in the order the
 * reference checks them", 1 to 11, the first that fails giving the status.
 *   params     in: op, special_zero, the target shape (values read).
 *   src        in: dtype, rank, dims (data and strides not looked at).
 *   out_rank   out: the output rank, 0..RESHAPE_MAX_RANK.
 *   out_dims   out: RESHAPE_MAX_RANK entries of room; the first *out_rank
 *              are written.  Nothing is written on error.
 *   volume     out, may be NULL: the input volume (equal to the output's).
 * Returns RESHAPE_OK or the status of the first failing rule:
 * INVALID_ARGUMENT, DATA_TYPE, SHAPE_TYPE, SHAPE_NOT_1D, OVERFLOW,
 * BELOW_MINUS_ONE, MULTIPLE_MINUS_ONE, ZERO_OUT_OF_RANGE, ZERO_AND_MINUS_ONE,
 * NOT_DIVISIBLE, VOLUME_MISMATCH; a message is recorded for each.
 */
reshape_status reshape_ref_infer(const reshape_params *params,
                                 const reshape_tensor *src, int32_t *out_rank,
                                 int64_t *out_dims, int64_t *volume);

/* ---------------------------------------------------------- overlap.c */

/*
 * Whether two elements of `t` (valid by reshape_ref_check_tensor, volume
 * above 0, every offset within int64) share an offset, into *overlaps (1 or
 * 0): the exact test of DECISIONS.md D12, "The overlap test".  Dims of size
 * 1 are ignored; a stride of 0 on a dim above 1 overlaps; dims whose sorted
 * strides each exceed the reach of the smaller ones do not; more elements
 * than offsets up to the largest overlap; otherwise the offsets are
 * enumerated in a bitmap of one bit per offset up to the largest.
 * Returns RESHAPE_OK, or RESHAPE_E_INTERNAL (message recorded) when that
 * bitmap cannot be allocated.
 */
reshape_status reshape_ref_overlaps(const reshape_tensor *t, int *overlaps);

/* ------------------------------------------------------------- copy.c */

/*
 * Copies the `volume` elements of `src`, in row-major logical order, to the
 * same row-major logical positions of `dst`, bit for bit.
 * Preconditions (execute.c checks them): both tensors valid by
 * reshape_ref_check_tensor, same dtype, `volume` > 0 equal to both volumes,
 * data non-NULL, every addressed bit offset fits int64, no two elements of
 * dst at one offset (src's may share one: a broadcast), and either the two
 * data ranges do not overlap or dst->data == src->data with both dense.
 * When both are dense the padding bits of a sub-byte tensor's last byte are
 * copied too; otherwise bits of dst that hold no element are left unchanged.
 * Every path (the plain loop; memmove for dense into dense; runs of whole
 * rows, with strides, for elements of whole bytes) gives the same bytes.
 */
void reshape_ref_copy(const reshape_tensor *src, const reshape_tensor *dst,
                      int64_t volume);

/*
 * Whether the copy takes the plain path only (1) or may use the fast paths
 * (0).  The first call reads the environment: RESHAPE_REF_PLAIN=1 means
 * plain; anything else, or unset, means fast.  Thread-safe.
 */
int reshape_ref_plain(void);

/* Forces the plain path on (`on` != 0) or off, overriding the environment,
 * for every thread from now on. */
void reshape_ref_set_plain(int on);

/* ---------------------------------------------------------- execute.c */

/*
 * The ABI's execute(): rule 1 for `params`, `src` and `dst` (including
 * strides), inference (rules 2-11), then the destination checks: dst dtype
 * equal to src dtype, dst rank and dims equal to the inferred ones, data
 * non-NULL unless the volume is 0, in-place (dst->data == src->data) only
 * with both dense, every addressed bit offset within int64, no two
 * elements of dst at one offset (D12; a broadcast src is read as it is).
 * Then the copy.  Returns RESHAPE_OK, any status of reshape_ref_infer,
 * RESHAPE_E_INVALID_ARGUMENT for a bad destination, or RESHAPE_E_INTERNAL
 * when the overlap test runs out of memory; on error nothing is written.
 */
reshape_status reshape_ref_execute(const reshape_params *params,
                                   const reshape_tensor *src,
                                   const reshape_tensor *dst);

#endif /* RESHAPE_REF_REFERENCE_H */
