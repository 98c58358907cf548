/*
 * stage.h - the parent's side of one job: writing the inputs, canaries and
 * the request into a cell of a slot's arena (stage_job), and judging the
 * outcome from the arena and the returned statuses alone (judge_job,
 * verdict*.c).  The worker is never trusted with a verdict.
 *
 * Nothing large is copied: the payload is written straight into the
 * shared src (or, in place, dst), the canaries are a splitmix64 stream
 * that is generated again to be checked, dst starts as the complement of
 * src, and a success is compared against src's bytes once src is known to
 * be unchanged.  Only strided layouts keep a dense payload aside: the
 * elements gathered from src by their offsets (D12), which is what a
 * success must write for any strides.
 * Depends on job.h, layout.h, wire.h and worker.h.
 */
#ifndef HARNESS_STAGE_H
#define HARNESS_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "job.h"
#include "layout.h"

/* A buffer of bytes that only grows; reused from job to job. */
typedef struct bytes {
    uint8_t *p;
    size_t len, cap;
} bytes;

/* Everything the parent remembers about a staged job to judge it. */
typedef struct stage {
    const job *j;
    const case_set *set;
    const cell *cl;             /* the cell it is staged in */
    uint64_t seed;              /* canaries and thread payloads */
    uint32_t seq;
    int expect_success;         /* execute should write the payload to dst */
    int expect_shape;           /* index of the outcome whose dims dst has, or -1 */

    tlayout src_l, dst_l;
    size_t src_data, dst_data;  /* arena offsets of the tensors' data */
    size_t src_lo, dst_lo;      /* arena offsets where the canary streams start;
                                   src_lo 0: no src of its own (in place) */
    size_t moat_lo, canary_lo;  /* dst: the moat byte in [moat_lo, canary_lo),
                                   canaries from canary_lo to dst and after it */
    size_t moat_end;            /* [moat_lo, moat_end) was found intact after the
                                   last job in this cell (0: unknown), so only
                                   the rest is written again */
    uint64_t src_canary, dst_canary;    /* seeds of the canary streams */
    bytes payload;              /* the dense payload, kept for strided layouts
                                   and built on demand for a detail; when
                                   `gathered`, the elements a success must
                                   write, gathered from src by their offsets */
    int have_payload;
    int gathered;               /* payload holds src's elements gathered (a
                                   strided src, or an abuse's strides) */
    int src_scatter;            /* src's buffer is canaries with the payload
                                   scattered in (padded, permuted) */
    size_t dst_bytes;           /* bytes of the dst buffer: its span, or in
                                   place the longer of src's and dst's */
    size_t used_bytes;          /* of the cell's src and dst areas, about */
    bytes scratch, scratch2;
    wire_request req;           /* the request as staged */
    const int64_t *err_dst_dims;/* stage_job_dst: an error case's dst dims */
    int32_t err_dst_rank;
    int pinned;                 /* set before stage_job, which takes it into
                                   the request (wire_request.pinned) and
                                   clears it */

    /* threads */
    int iters;
    size_t slot_bytes;
    size_t tsrc_data[WIRE_THREADS], tdst_data[WIRE_THREADS], tlen[WIRE_THREADS];
} stage;

/* Writes job `j` into cell `cl` of arena `a` (through its parent view) and
 * remembers what was written in `s`.  `seq` numbers the job in the run
 * (its index + 1, the same when it runs again): it seeds the canaries, so
 * that they, and so the verdicts, do not depend on the order in which the
 * slots took the jobs. */
void stage_job(stage *s, arena *a, const cell *cl, const case_set *set, const job *j,
               uint32_t seq, uint64_t seed);

/*
 * stage_job for a `dense` job of an error case whose dst has the dims
 * dims[0..rank) (those the candidate's infer_shape returned) instead of
 * the input's: what the candidate would write if it went on with the shape
 * it wrongly accepted.  The dims must be >= 0 and their dense bytes fit
 * the cell's dst area.
 */
void stage_job_dst(stage *s, arena *a, const cell *cl, const case_set *set, const job *j,
                   uint32_t seq, uint64_t seed, int32_t rank, const int64_t *dims);

/*
 * Judges the job staged in `s` after `done` (whose kind is how this one
 * request ended): fills out[0..n) and returns n (one result, or one per
 * distinct case of a threads job).  `strict` applies --strict-errors;
 * `timeout_ms` is for the detail.  Every string in the results is newly
 * allocated.
 */
int judge_job(stage *s, const arena *a, const completion *done, int strict, int timeout_ms,
              result *out);

/*
 * 1 when something of the candidate's ran after the call of `s`'s job
 * returned, as judge_job would find it after `done` (judge/verdict_late.c):
 * a write into its sealed output, or an output not proven final.  For
 * run/batch_end.c, which runs such a batch again one request at a time, so
 * that each finding is its own request's.
 */
int judge_ran_past_return(const stage *s, const arena *a, const completion *done);

/*
 * 1 when the only thing judge_job would find past the return of `s`'s
 * job, after `done`, is a thread that ran when the call returned and had
 * ended when the parent looked (ENGINE_UNPROVEN_THREADS; no write into
 * the sealed output): the one finding a conformant candidate that starts
 * and joins a thread per call can also meet, when the joined thread is
 * still ending as the call returns.  For run/batch_end.c, which runs such
 * a request once more alone before it is LEAK "not proven final".
 */
int judge_unproven_thread(const stage *s, const arena *a, const completion *done);

/* 1 when the worker, pinned to one CPU for `s`'s request (stage.pinned),
 * proved that nothing of the candidate's ran between the call's return and
 * the seal (worker/exec_window.h): the worker's word, which here only
 * takes back the thread count's finding of that same word. */
int judge_proven_quiet(const stage *s, const arena *a);

/*
 * Offset of the first byte of arena [off, off + len) that differs from
 * the canary stream `seed` at stream offset off - lo, or -1.  The stream
 * is generated again piece by piece; nothing is stored.
 */
int64_t stage_canary_diff(stage *s, const arena *a, size_t lo, size_t off, size_t len,
                          uint64_t seed);

/* The canary seed of stream `salt` of request `seq`. */
uint64_t stage_canary_seed(const stage *s, uint32_t seq, uint64_t salt);

/* Makes s->payload hold the dense input payload of case `c`. */
void stage_build_payload(stage *s, const rcase *c);

/*
 * src's buffer as stage_job wrote it (s->src_l.span_bytes bytes) into
 * `out`: for padded and permuted, canaries with s->payload scattered in;
 * otherwise the first bytes of what the data fill defines (the payload, a
 * broadcast's stored rows, or a case's own buffer).  For judging src
 * unchanged.
 */
void stage_src_image(stage *s, const rcase *c, uint8_t *out);

/* Maps the large payload of the job staged in `s` back into the parent's
 * view, in one call, before judging (wire.h, ARENA_HANDOFF_BYTES). */
void stage_map_back(const stage *s, const arena *a);

/* Frees the buffers of `s`. */
void stage_free(stage *s);

#endif
