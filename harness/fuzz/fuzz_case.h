/*
 * fuzz_case.h - `reshape-conform fuzz`: random requests biased to the edges of
 * the spec, their expected outcome from the reference (called in-process),
 * shrinking a request the candidate gets wrong, and writing it as a case of
 * cases/FORMAT.md.  The requests run as cases through the same engine,
 * stage and judge code as a run (schedule.h).  Depends on case.h and the
 * ABI header.
 */
#ifndef HARNESS_FUZZ_CASE_H
#define HARNESS_FUZZ_CASE_H

#include <stdint.h>
#include <stdio.h>

#include "suite/suite.h"
#include "reshape_candidate.h"

/* The largest payload a fuzz case gets before it is made infer-only, in
 * bytes. */
#define FUZZ_MAX_PAYLOAD 1024

/*
 * Fills `c` (zeroed first) with a random request drawn from `seed`: one of
 * the ops whose bit (1 << op) is in `ops` (0: any), any dtype (sub-byte ones
 * often), rank 0 to 8 with dims biased to 0, 1 and small values and now and
 * then near 2^31, 2^32 or 2^63, a target shape derived from the volume and
 * then edited (-1, 0 copying a dim near the rank, values below -1, huge
 * values), special_zero either way, the shape in s64, s32 or a narrower
 * type when its values fit, now and then a rank-0 shape tensor, and one
 * request in five made to wrap in narrow integers (fuzz_wrap).  Payloads
 * above FUZZ_MAX_PAYLOAD are infer-only.  The expected outcome is not set:
 * see fuzz_expect.  `c->id` is "fuzz_SEED" (new string).
 */
void fuzz_generate(rcase *c, uint64_t seed, unsigned ops);

/*
 * Now and then (one request in five, from a stream of `seed`'s own, so
 * that fuzz_generate's other draws are unchanged) makes `c` wrap: its
 * target shape becomes [x, y], [-1, x, y] or [0, x, y] (special_zero
 * set, copying dims[0]) whose positive dims multiply to the input volume
 * (to 1 beside the -1) modulo 2^31, 2^32 or 2^64 but not exactly; or its
 * input becomes [x, y] of the target's volume modulo 2^31 or 2^32 (then
 * infer-only).  An empty input gets a product of 2^31, 2^32 or 2^64.
 * Called by fuzz_generate before the shape dtype is chosen; leaves `c`
 * as it was when no such pair is found.
 */
void fuzz_wrap(rcase *c, uint64_t seed);

/*
 * Recomputes what `c` derives from its fields (volume, payload_bytes,
 * shape_bytes from values in shape_dtype, shape_dims of a 1-D shape) after
 * they were edited.  Returns 0, or -1 when the request cannot be a case
 * (a value does not fit shape_dtype, the volume overflows int64).
 */
int fuzz_finish(rcase *c);

/*
 * Sets the one expected outcome of `c` to what `ref`'s infer_shape gives
 * for it: a shape (then, maybe, a layout: fuzz_layout), or an error
 * status.  Returns 0, or -1 when the
 * reference gives no usable answer (NOT_SUPPORTED, or a status outside the
 * ABI); such a request is skipped.
 */
int fuzz_expect(rcase *c, const reshape_candidate *ref);

/*
 * Gives a request whose expected outcome is a shape one of the layouts of
 * reference/DECISIONS.md D12 now and then (3 in 8), drawn from its data
 * seed alone: a broadcast src (zero strides on dims above 1, the stored
 * rows sometimes 8 elements into their buffer), zero, odd and huge strides
 * on the dims of 1 of src and dst, or a dst with a zero stride on a dim
 * above 1, whose expected outcome becomes INVALID_ARGUMENT (its elements
 * overlap).  Clears any layout first (a shrunk neighbour's is stale), and
 * sets storage and layout bytes.  fuzz_expect calls it on every request.
 */
void fuzz_layout(rcase *c);

/*
 * Fills out[0..max) with requests simpler than `c` (one input dim or shape
 * value fewer, a dim or value made smaller, a narrower dtype), fewest dims
 * first, each already through fuzz_finish but without an expected outcome.
 * Every string of `c` is shared, not copied: free none of them.  Returns
 * how many.
 */
int fuzz_shrink_steps(const rcase *c, rcase *out, int max);

/*
 * Writes `c` as one case of cases/FORMAT.md to `out`, in a file of its own
 * ("generated: false", a comment with `header` first), its expected
 * outcome the reference's.  Returns 0, or -1 on a write error.
 */
int case_write_yaml(FILE *out, const rcase *c, const char *header);

#endif
