/*
 * job.h - variants, jobs and results.  A job is one request to a worker:
 * one (case, variant), or for `threads` up to four cases at once.  Which
 * variants apply to which case is decided here (docs/harness/verdicts.md,
 * "Variants").  Depends on case.h.
 */
#ifndef HARNESS_JOB_H
#define HARNESS_JOB_H

#include <stdint.h>

#include "suite/suite.h"
#include "engine/engine.h"
#include "layout.h"

typedef enum variant {
    V_DENSE, V_IN_PLACE, V_STRIDED_SRC_PADDED, V_STRIDED_SRC_PERMUTED, V_STRIDED_DST,
    V_BROADCAST_SRC, V_SIZE1_STRIDES, V_MISALIGNED, V_DST_TOO_SMALL, V_INFER, V_THREADS,
    V_REPEAT, V_COUNT
} variant;

/* "dense", "in_place", ... as reports/SCHEMA.md spells them. */
const char *variant_name(variant v);
/* The variant named `name`, or -1. */
int variant_parse(const char *name);

typedef enum verdict {
    VD_PASS, VD_FAIL, VD_ACCEPTED_INVALID, VD_CRASH, VD_TIMEOUT, VD_MEMORY_VIOLATION,
    VD_LEAK, VD_FLOOD, VD_NOT_SUPPORTED, VD_WAIVED, VD_UNEXPECTED_PASS, VD_COUNT
} verdict;

/* "PASS", "FAIL", ... as reports/SCHEMA.md spells them. */
const char *verdict_name(verdict v);
/* Nonzero when `v` counts against conformance. */
int verdict_counts_against(verdict v);
/*
 * The run's verdict from its results: conformant (1) when none of them
 * counts against conformance and at least `passed` >= 1 is a PASS.  A
 * candidate whose supports() refuses everything the suite asks about
 * shows nothing and is not conformant (docs/certify.md, "Verdicts").
 */
int run_conformant(long passed, long against);

typedef struct job {
    variant v;
    int ncases;
    int cases[WIRE_THREADS];    /* indices into the case set; threads may repeat one */
    uint32_t seq;               /* 1 + its place in the whole plan: seeds its canaries,
                                   the same in a shard, a resumed run and the whole run */
} job;

/* One entry of the report: (case, variant) and what happened. */
typedef struct result {
    int case_index;
    variant v;
    verdict vd;
    char *detail;               /* "" when nothing to say */
    char *got;
    int status_agrees;          /* -1: null (not an error case), 0, 1 */
} result;

/* Limits of the planned subsets and calls. */
#define PLAN_THREAD_GROUPS 8
#define PLAN_THREAD_ITERS 64
#define PLAN_THREAD_BUDGET_MS 250
#define PLAN_THREAD_MIN_BYTES 256
#define PLAN_THREAD_MAX_BYTES 16384
#define PLAN_REPEAT_PER_OP 4
#define PLAN_REPEAT_MAX_BYTES 4096
/* repeat: calls before the first memory sample.  Allocations of a kernel's
 * first calls (caches, pools, lazy set-up) are no leak: ONNX Runtime grew
 * ~88 bytes per call over its first calls and stayed flat after 2000. */
#define PLAN_REPEAT_WARMUP 2000
/* repeat: calls sampled after the warm-up, every PLAN_REPEAT_EVERY, and
 * how many of the 20 intervals must grow for LEAK.  A leak of every call
 * (or of one call in 50) grows in all of them; a burst of growth that stops
 * does not: ONNX Runtime 1.30 grew once in ten full runs under load, by
 * 21,920 bytes over 200 calls after the warm-up (LEAK with 4 intervals of
 * 50), and never in the same test alone (candidates/onnxruntime/README.md). */
#define PLAN_REPEAT_CALLS 1000
#define PLAN_REPEAT_EVERY 50
#define PLAN_REPEAT_MIN_GROWING 19

/* Nonzero when `c` runs more than infer_shape: not infer_only and its
 * payload, and the buffers of its own layout, within `max_bytes`. */
int case_runs_execute(const rcase *c, uint64_t max_bytes);

/*
 * How variant `v` lays out case `c`'s src and dst
 * (docs/harness/verdicts.md, "Variants"): the case's own layout when it
 * states one (FORMAT.md, "Layouts"), else dense, padded, permuted,
 * broadcast (broadcast_src) or
 * with odd size-1 strides (size1_strides) as the variant says; dst has the
 * first success's dims (padded for strided_dst, size-1 strides for
 * size1_strides), an error case's the input's (or its stated dst dims),
 * and dst_too_small one flat dim of volume - 1.  Not for infer or threads.
 */
void job_layouts(const rcase *c, variant v, tlayout *src, tlayout *dst);

/*
 * The jobs for the cases `sel[0..nsel)` of `set` and the variants in
 * `mask` (bit 1 << variant), in case order, each case's variants in enum
 * order, the threads and repeat subsets last, each numbered by its place
 * (`seq`, from 1).  Returns a new array.
 */
job *plan_jobs(const case_set *set, const int *sel, int nsel, unsigned mask,
               uint64_t max_bytes, int *njobs);

/*
 * What variant `v` holds case `c` to, as the report's `expected` says it:
 * the case's outcomes, except for dst_too_small, where any error passes and
 * INVALID_ARGUMENT agrees, as does an error the case itself lists ("any
 * of: error INVALID_ARGUMENT (dst one element short), error SHAPE_NOT_1D").
 * A new string.
 */
char *job_expected_describe(const rcase *c, variant v);

/* Bytes the src and dst areas of an arena need for job `j`. */
void job_needs(const job *j, const case_set *set, size_t *src_bytes, size_t *dst_bytes);

#endif
