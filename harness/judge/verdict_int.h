/*
 * verdict_int.h - what the verdict files share, private to judge/: setting
 * a result, where an arena offset lies, the detail of a differing element,
 * and each step of judge_job that lives in its own file (verdict_memory.c,
 * verdict_status.c, verdict_dst.c, verdict_threads.c).  Depends on
 * stage.h, job.h, layout.h, suite/ and engine/.
 */
#ifndef HARNESS_VERDICT_INT_H
#define HARNESS_VERDICT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "suite/suite.h"
#include "engine/engine.h"
#include "job.h"
#include "layout.h"
#include "stage.h"

/* Sets result `r`'s verdict to `vd` and its detail to `detail` (taken;
 * the previous detail is freed). */
void verdict_set(result *r, verdict vd, char *detail);

/* Where arena offset `off` lies, for a fault or a changed byte. */
char *verdict_where(const stage *s, const arena *a, uint64_t off);

/* A write found at arena offset `off`: MEMORY_VIOLATION.  Returns 1. */
int verdict_wrote_at(const stage *s, const arena *a, size_t off, result *r);

/* Offset of the first byte of the `len` bytes at `got` that differs from
 * case `c`'s payload, generated again a piece at a time, or -1. */
int64_t verdict_payload_diff(const rcase *c, const uint8_t *got, size_t len);

/* Nonzero when the request in the arena is no longer as staged. */
int verdict_request_changed(const stage *s, const arena *a);

/* Everything outside dst's span that the call must not touch. */
int verdict_outside_dst(stage *s, const arena *a, const rcase *c, result *r);

/* FAIL, with the detail of element `i` of layout `l` (its index, then the
 * expected and the got element of `expected` and `got`), after `prefix`. */
void verdict_element_detail(result *r, const tlayout *l, const uint8_t *expected,
                            const uint8_t *got, int64_t i, const char *prefix);

/* Room for `n` bytes in `b`. */
uint8_t *verdict_room(bytes *b, size_t n);

/*
 * dst after a success: elements equal the payload, gap bits equal their
 * canary, and for dense to dense the padding bits of a sub-byte tensor's
 * last byte equal src's (with a strided src they are not checked).  The
 * payload is src itself when src is dense (checked unchanged before), the
 * kept payload of a strided src, or generated again for in_place.
 */
void verdict_check_dst(stage *s, const arena *a, result *r);

/* Offset in dst's span of the first byte that is no longer as staged
 * (canaries, the complement of the payload, or in place the payload), or
 * -1: what a failing call must leave. */
int64_t verdict_dst_changed(stage *s, const arena *a);

/* The status against the case's outcomes; on success the shape is `rank`/`dims`. */
void verdict_status(stage *s, const arena *a, const rcase *c, wire_response *rp,
                    int strict, result *r, int32_t rank, const int64_t *dims, int is_execute);

/* The threads variant's verdict: one result per case of the job in
 * `out` (room for the job's cases).  Returns how many it wrote. */
int verdict_threads(stage *s, const arena *a, const wire_response *rp, int strict,
                    result *out);

/*
 * The repeat variant's memory rule (verdict_leak.c), for a request whose
 * calls all passed: LEAK when the memory the parent measured from outside
 * (done->samples, when not NULL) or the worker's own figures (rp->mem)
 * grew in at least PLAN_REPEAT_MIN_GROWING of the intervals, or when the
 * worker did not stop at exactly WIRE_MEM_SAMPLES sampling points for the
 * parent.  Leaves `r` alone otherwise.
 */
/*
 * What ran after the call of `s`'s job returned, over its `n` results
 * `out` (verdict_late.c): a write into its sealed output that the worker's
 * fault handler recorded is MEMORY_VIOLATION "wrote dst after execute
 * returned, <where> (<who>; ...)" whatever the result was; an output the
 * parent found not proven final (completion.unproven) is LEAK "not proven
 * final: <why>" on a result that does not count against the candidate,
 * else a note in its detail.
 */
void verdict_after_return(const stage *s, const arena *a, const completion *done, result *out,
                          int n);

void verdict_repeat_memory(const stage *s, const arena *a, const completion *done,
                           const wire_response *rp, result *r);

#endif
