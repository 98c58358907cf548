/*
 * verdict_leak.c - the repeat variant's memory rule (verdict_int.h): a
 * slope test on the samples the parent took of the worker from outside
 * (census.h in engine/: /proc/PID/smaps_rollup's Anonymous, which counts
 * a leak through malloc or mmap once it is touched, and statm's data size,
 * which counts a mapping never touched), and on the worker's own figures
 * (its allocator's bytes in use).  The worker's figures live in memory the
 * candidate can write: they can add a LEAK, never take one away.  In a
 * build with AddressSanitizer the anonymous memory is left out (its
 * quarantine grows it without a leak).  Depends on verdict_int.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"
#include "engine/engine.h"
#include "verdict_int.h"

/* Intervals of `m`[0..WIRE_MEM_SAMPLES) in which the figure grew. */
static int growing(const int64_t *m)
{
    int n = 0;
    for (int k = 0; k + 1 < WIRE_MEM_SAMPLES; k++)
        n += m[k + 1] > m[k];
    return n;
}

/* LEAK "<what> grew by ..." into `r` when series `m` grew in nearly every
 * interval; returns 1 when it did. */
static int slope(const int64_t *m, const char *what, result *r)
{
    /* a slope test, not a threshold: growth in nearly every interval */
    _Static_assert(PLAN_REPEAT_CALLS / PLAN_REPEAT_EVERY + 1 == WIRE_MEM_SAMPLES,
                   "one memory sample every PLAN_REPEAT_EVERY calls and one at the end");
    int g = growing(m);
    if (g < PLAN_REPEAT_MIN_GROWING)
        return 0;
    double per = (double)(m[WIRE_MEM_SAMPLES - 1] - m[0]) / PLAN_REPEAT_CALLS;
    verdict_set(r, VD_LEAK, xasprintf("%s grew by %.0f bytes per call over %d calls after %d "
                                      "warm-up calls, in %d of %d intervals of %d calls (%lld "
                                      "to %lld bytes)", what, per, PLAN_REPEAT_CALLS,
                                      PLAN_REPEAT_WARMUP, g, WIRE_MEM_SAMPLES - 1,
                                      PLAN_REPEAT_EVERY, (long long)m[0],
                                      (long long)m[WIRE_MEM_SAMPLES - 1]));
    return 1;
}

void verdict_repeat_memory(const stage *s, const arena *a, const completion *done,
                           const wire_response *rp, result *r)
{
    /* the worker's own figures first: exact bytes, and a forger can only
     * hide a leak from them, never invent one that is not there */
    if (slope(rp->mem, "memory in use", r))
        return;
    const engine_samples *m = done->samples;
    if (!m)
        return;
    int ci = (int)(s->cl - a->cells);
    if (m->n[ci] != WIRE_MEM_SAMPLES || m->extra) {
        verdict_set(r, VD_LEAK, xasprintf("the worker stopped at %d sampling points (%d "
                                          "expected) for the harness to measure its memory: "
                                          "the samples cannot be trusted",
                                          m->n[ci] + m->extra, WIRE_MEM_SAMPLES));
        return;
    }
#ifndef HARNESS_ASAN
    /* (AddressSanitizer's quarantine keeps freed memory in use for a
     * while: a sanitized worker's pages grow without a leak) */
    if (slope(m->anon[ci], "memory in use (anonymous, measured by the harness)", r))
        return;
#endif
    slope(m->data[ci], "memory mapped (data size, measured by the harness)", r);
}
