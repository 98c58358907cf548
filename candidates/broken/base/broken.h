/*
 * broken.h - the naive kernel every broken candidate is built from, and the
 * hook points a defect file may override.
 *
 * A broken candidate is this kernel plus one defect file
 * (candidates/broken/defects/<name>.c) that defines `broken_defect`: a name,
 * a one-line description, the verdict kind the suite should give it, and
 * exactly one non-NULL hook (or flag).  Every hook left NULL runs the
 * kernel's own `base_<hook>`, which is correct per reference/DECISIONS.md.
 * The base is written from the spec texts and DECISIONS.md alone; it shares
 * no code with reference/.
 *
 * Units: dims, volumes, strides and offsets are elements, never bytes.
 */
#ifndef BROKEN_H
#define BROKEN_H

#include <stddef.h>
#include <stdint.h>

#include "reshape_candidate.h"

/* ------------------------------------------------------------- hook types */

/*
 * The points in the kernel a defect may replace.  Each entry names the
 * step it stands for; NULL (or 0 for a flag) keeps the base behaviour.
 */
struct broken_hooks {
    /* Shape rules (base/rules.c), in the order DECISIONS.md checks them. */
    reshape_status (*check_data_type)(reshape_op op, reshape_dtype dtype);
    reshape_status (*check_shape_rank)(const reshape_tensor *shape);
    reshape_status (*read_value)(const reshape_tensor *shape, int64_t i,
                                 int64_t *value);
    reshape_status (*check_value)(int64_t *value);
    int (*special_zero)(const reshape_params *params);
    int allow_many_minus_ones;
    reshape_status (*copy_zero)(int32_t i, int32_t shape_len,
                                const reshape_tensor *src, int64_t *dim);
    reshape_status (*volume)(int32_t rank, const int64_t *dims,
                             int64_t *volume);
    reshape_status (*solve_minus_one)(int64_t volume, int64_t known,
                                      int64_t *dim);
    reshape_status (*check_volume)(int64_t volume, int64_t known,
                                   int32_t rank, const int64_t *dims);

    /* Execution (base/execute.c, base/copy.c). */
    reshape_status (*check_dst)(const reshape_tensor *src,
                                const reshape_tensor *dst, int32_t rank,
                                const int64_t *dims);
    void (*enter)(const reshape_tensor *src, const reshape_tensor *dst);
    void (*prepare_dst)(const reshape_tensor *src, const reshape_tensor *dst);
    const int64_t *(*src_strides)(const reshape_tensor *src);
    const int64_t *(*dst_strides)(const reshape_tensor *dst);
    int64_t (*element_count)(int64_t volume, unsigned bits);
    uint64_t (*element_bits)(reshape_dtype dtype, uint64_t bits,
                             unsigned layout);
    void (*copy_elements)(const reshape_tensor *src,
                          const int64_t *src_strides,
                          const reshape_tensor *dst,
                          const int64_t *dst_strides, int64_t count,
                          unsigned layout);
    void (*leave)(const reshape_tensor *src, const reshape_tensor *dst);

    /* Loading (base/table.c): run by the library's constructor, when
     * dlopen loads it, unless RESHAPE_BROKEN_DESCRIBE is set in the
     * environment (tests/broken lists a defect without running it). */
    void (*load)(void);
};

/*
 * One broken candidate.  `name` is the defect file's base name (and the
 * .so's); `defect` says in one line what is wrong; `expect` is the
 * reports/SCHEMA.md verdict the suite should give at least one
 * (case, variant) pair ("FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT",
 * "MEMORY_VIOLATION", "LEAK", "FLOOD"), or "PASS" for the defect-free base.
 * `faults_on_most_cases` is 1 when the defect kills the worker on nearly
 * every case; tests/broken then runs it on the hand-written cases only, as
 * every fault costs the harness a worker restart.
 */
struct broken_defect {
    const char *name;
    const char *defect;
    const char *expect;
    int faults_on_most_cases;
    struct broken_hooks hooks;
};

/* 1 while execute() runs (its shape rules included), 0 in infer_shape():
 * for a defect that acts in one entry point only. */
extern _Thread_local int broken_in_execute;

/* Defined by exactly one defect file per .so. */
extern const struct broken_defect broken_defect;

/* The hook `h` as this candidate runs it: the defect's, else the base's. */
#define HOOK(h) (broken_defect.hooks.h ? broken_defect.hooks.h : base_##h)

/*
 * Exported beside `reshape_candidate_v1` so that tests/broken can list the
 * candidate's defect and expected verdict without running it.  Returns
 * `&broken_defect`; never NULL.
 */
RESHAPE_EXPORT const struct broken_defect *reshape_broken_defect_v1(void);

/* ------------------------------------------------------------ shape rules */

/*
 * Infer the output shape of `params` on `src` (dtype, rank, dims; data and
 * strides ignored), checking DECISIONS.md rules 1-11 in order through the
 * hooks.  On RESHAPE_OK writes `*out_rank` and the first `*out_rank` entries
 * of `out_dims` (room for RESHAPE_MAX_RANK).  Returns the status of the
 * first rule that fails.
 */
reshape_status broken_infer(const reshape_params *params,
                            const reshape_tensor *src, int32_t *out_rank,
                            int64_t *out_dims);

/* Rule 2: DATA_TYPE unless `dtype` is in the list of `op` (D5). */
reshape_status base_check_data_type(reshape_op op, reshape_dtype dtype);

/* Rule 4: SHAPE_NOT_1D unless `shape` has rank 1 (D3). */
reshape_status base_check_shape_rank(const reshape_tensor *shape);

/* Reads value `i` of the dense, integer `shape` into `*value`; an unsigned
 * value above INT64_MAX is OVERFLOW (rule 5, D4), never read as negative. */
reshape_status base_read_value(const reshape_tensor *shape, int64_t i,
                               int64_t *value);

/* Rule 5: BELOW_MINUS_ONE for `*value` < -1 ("no less than -1"). */
reshape_status base_check_value(int64_t *value);

/* The special_zero in force: `params->special_zero` (0 or 1). */
int base_special_zero(const reshape_params *params);

/* Rule 7: the dim a copying 0 at index `i` of a `shape_len`-long shape
 * takes, `src->dims[i]` ("left aligned", D9), or ZERO_OUT_OF_RANGE when
 * `i >= src->rank` (D2). */
reshape_status base_copy_zero(int32_t i, int32_t shape_len,
                              const reshape_tensor *src, int64_t *dim);

/* Rules 8-9: the product of `rank` dims >= 0 into `*volume`: 0 when any dim
 * is 0 (tested before multiplying), 1 for rank 0, OVERFLOW when the product
 * leaves int64 (D8). */
reshape_status base_volume(int32_t rank, const int64_t *dims,
                           int64_t *volume);

/* Rule 10: the -1 as `volume / known`; ZERO_AND_MINUS_ONE when `known` is
 * 0 (D1), NOT_DIVISIBLE when the division leaves a remainder. */
reshape_status base_solve_minus_one(int64_t volume, int64_t known,
                                    int64_t *dim);

/* Rule 11: VOLUME_MISMATCH unless `known` equals `volume`; `rank`, `dims`
 * are the output dims, for hooks that look at them. */
reshape_status base_check_volume(int64_t volume, int64_t known, int32_t rank,
                                 const int64_t *dims);

/* -------------------------------------------------------------- execution */

/*
 * The candidate's `execute`: broken_infer, then INVALID_ARGUMENT for a dst
 * the check_dst hook refuses, negative src strides, missing data,
 * in-place with strides, or two elements of dst at one offset as the
 * dst_strides hook gives its strides (D12); then enter, prepare_dst,
 * copy_elements (over the
 * element_count hook's count), the padding bits of a dense sub-byte
 * payload, and leave.  Nothing is written before every check passed.
 */
reshape_status broken_execute(const reshape_params *params,
                              const reshape_tensor *src,
                              const reshape_tensor *dst);

/* INVALID_ARGUMENT unless `dst` has `src`'s dtype and exactly the inferred
 * `rank` and `dims`, non-negative strides, and data when it has elements. */
reshape_status base_check_dst(const reshape_tensor *src,
                              const reshape_tensor *dst, int32_t rank,
                              const int64_t *dims);

/* Called once the call is known to be valid, before anything is written;
 * the base does nothing. */
void base_enter(const reshape_tensor *src, const reshape_tensor *dst);

/* Called before the copy to ready dst; the base does nothing. */
void base_prepare_dst(const reshape_tensor *src, const reshape_tensor *dst);

/* The strides the copy walks `src` / `dst` with: the tensor's own (NULL is
 * dense row-major). */
const int64_t *base_src_strides(const reshape_tensor *src);
const int64_t *base_dst_strides(const reshape_tensor *dst);

/* How many elements the copy moves for a tensor of `volume` elements of
 * `bits` bits: `volume`. */
int64_t base_element_count(int64_t volume, unsigned bits);

/* The bits stored for an element that held `bits` (right-aligned in the
 * integer) in a call with `layout` (RESHAPE_LAYOUT_* flags): unchanged. */
uint64_t base_element_bits(reshape_dtype dtype, uint64_t bits,
                           unsigned layout);

/*
 * Moves `count` elements from `src` to `dst` in row-major logical order,
 * walking each with the given strides (NULL: dense), each element passed
 * through the element_bits hook.  `layout` is the call's RESHAPE_LAYOUT_*
 * flags.  Bits of dst outside the elements written stay unchanged.
 */
void base_copy_elements(const reshape_tensor *src, const int64_t *src_strides,
                        const reshape_tensor *dst, const int64_t *dst_strides,
                        int64_t count, unsigned layout);

/* Called after the copy; the base does nothing. */
void base_leave(const reshape_tensor *src, const reshape_tensor *dst);

/* ------------------------------------------------------ element access */

/* Element-wise access to packed data, as reshape_candidate.h lays it out:
 * element at linear offset `offset` (elements) of `data` with `bits` bits
 * per element (1, 4, 8, 16, 32 or 64), right-aligned in a uint64_t. */
uint64_t broken_load(const void *data, int64_t offset, unsigned bits);
void broken_store(void *data, int64_t offset, unsigned bits, uint64_t value);

/*
 * A row-major walk over a tensor's logical indices, giving each element's
 * linear offset.  `strides` NULL is dense: the offset is the logical index.
 * Stepping past the last element keeps counting in dim 0 (no wrap), as a
 * plain odometer does.
 */
struct broken_walk {
    int32_t rank;
    const int64_t *dims;
    const int64_t *strides;
    int64_t index[RESHAPE_MAX_RANK];
    int64_t logical;
    int64_t offset;
};

void broken_walk_init(struct broken_walk *walk, const reshape_tensor *t,
                      const int64_t *strides);
void broken_walk_next(struct broken_walk *walk);

/* Payload bytes of a dense tensor of `count` elements: ceil(count*bits/8). */
int64_t broken_payload_bytes(int64_t count, unsigned bits);

/* The RESHAPE_LAYOUT_* flags of a call with these tensors and strides. */
unsigned broken_layout(const reshape_tensor *src, const int64_t *src_strides,
                       const reshape_tensor *dst, const int64_t *dst_strides);

/* 1 when `t` has exactly `rank` dims equal to `dims`, else 0. */
int broken_has_dims(const reshape_tensor *t, int32_t rank,
                    const int64_t *dims);

/* Records the message last_error() returns on this thread (a static
 * string, or NULL). */
void broken_set_error(const char *message);

#endif /* BROKEN_H */
