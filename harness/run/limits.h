/*
 * limits.h - a candidate's declared limits (reshape_limits, the optional
 * table of include/reshape_candidate.h): every (case, variant) outside
 * them is skipped without calling the candidate, its reason naming the
 * limit ("rank 6 above the candidate's declared max_rank 5").  Limits
 * apply to src and, for a case that expects success, to the output the
 * case expects (its first success outcome).  Depends on job.h, wire.h
 * (the probe carries the limits from the worker) and schedule.h.
 */
#ifndef HARNESS_LIMITS_H
#define HARNESS_LIMITS_H

#include "engine/engine.h"
#include "judge/judge.h"
#include "schedule.h"

/*
 * Why case `c` in variant `v` lies outside the limits `l`: a new string
 * "skipped: ..." naming the first limit it breaks, in the order op, data
 * dtype, layout, rank, dim, volume (src before output); NULL when it lies
 * within them.  A negative max_rank, max_dim or max_volume, ops or
 * data_dtypes 0 and layouts ~0u are no limit.
 */
char *limits_reason(const reshape_limits *l, const rcase *c, variant v);

/* The RESHAPE_LAYOUT_* flags case `c` in variant `v` passes to supports()
 * (layout_flags of its tensors as job_layouts lays them out). */
unsigned limits_variant_layout(const rcase *c, variant v);

/*
 * Hands every (case, variant) of jobs[0..njobs) outside the limits the
 * probe declares to `sink` as a NOT_SUPPORTED result whose detail is
 * limits_reason's (got "not called"), and returns the jobs left to run
 * (a new array of *nleft; a threads job keeps only its cases within the
 * limits and goes when none is left).  Without declared limits, a copy of
 * every job.
 */
job *limits_skip(const wire_probe *probe, const case_set *set, const job *jobs, int njobs,
                 int *nleft, result_sink sink, void *ctx);

#endif
