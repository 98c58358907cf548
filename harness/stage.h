/*
 * stage.h - the parent's side of one job: writing the inputs, canaries and
 * the request into a slot's arena (stage_job), and judging the outcome from
 * the arena and the returned statuses alone (judge_job, verdict.c).  The
 * worker is never trusted with a verdict.  Depends on job.h, layout.h,
 * wire.h and worker.h.
 */
#ifndef HARNESS_STAGE_H
#define HARNESS_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "layout.h"
#include "wire.h"
#include "worker.h"

/* A buffer of bytes that only grows; reused from job to job. */
typedef struct bytes {
    uint8_t *p;
    size_t len, cap;
} bytes;

/* Everything the parent remembers about a staged job to judge it. */
typedef struct stage {
    const job *j;
    const case_set *set;
    uint64_t seed;              /* canaries and thread payloads */
    int expect_success;         /* execute should write the payload to dst */
    int expect_shape;           /* index of the outcome whose dims dst has, or -1 */

    tlayout src_l, dst_l;
    size_t src_data, dst_data;  /* arena offsets of the tensors' data */
    size_t src_lo, dst_lo;      /* arena offsets where the saved images start */
    bytes payload;              /* the input payload, dense: the expected output */
    bytes src_img;              /* [src_lo, end of src area) as staged */
    bytes dst_img;              /* [dst_lo, end of dst area) as staged */
    bytes scratch, scratch2;
    wire_request req;           /* the request as staged */

    /* threads */
    int iters;
    size_t slot_bytes;
    bytes tpayload[WIRE_THREADS];
    size_t tsrc_data[WIRE_THREADS], tdst_data[WIRE_THREADS];
} stage;

/* Writes job `j` into arena `a` (through its parent view) and remembers
 * what was written in `s`.  `seq` numbers the request. */
void stage_job(stage *s, arena *a, const case_set *set, const job *j, uint32_t seq,
               uint64_t seed);

/*
 * Judges the job staged in `s` after `done`: fills out[0..n) and returns n
 * (one result, or one per distinct case of a threads job).  `strict`
 * applies --strict-errors; `timeout_ms` is for the detail.  Every string in
 * the results is newly allocated.
 */
int judge_job(stage *s, const arena *a, const completion *done, int strict, int timeout_ms,
              result *out);

/* Frees the buffers of `s`. */
void stage_free(stage *s);

#endif
