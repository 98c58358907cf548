/*
 * census.h - what the parent measures of a worker from outside it, in
 * /proc, instead of believing what the worker writes (census.c): the
 * repeat variant's memory at each sampling point, and after each batch the
 * threads, children and processes in its group it left running.  Private to
 * engine/.  Depends on engine_int.h.
 */
#ifndef HARNESS_CENSUS_H
#define HARNESS_CENSUS_H

#include "engine_int.h"

/* Notes the repeat requests among the `n` cells of slot `s` (index `i`)'s
 * batch for census_sample, and clears their samples; before a
 * worker's first batch, moves it into the slot's pids cgroup (bounds.h)
 * unless it was born there (a fork of a zygote in that cgroup, pool.c)
 * and, for a spawned worker, counts the threads its loading started. */
void census_batch(slot *s, int i, const int *cells, int n);

/*
 * Slot `s`'s worker has stopped at a sampling point (EXEC_SAMPLE) and
 * waits for a byte on its fd 3: records its memory (smaps_rollup's
 * Anonymous, statm's data size) as the next sample of request `at` of the
 * batch (0..n-1: the running index the worker wrote, bounded by the
 * parent, which takes the cell from its own copy), then lets it go on.  A
 * sampling point of a request that is no repeat request, or beyond its
 * WIRE_MEM_SAMPLES, is counted as extra: a worker that names another
 * request only spoils its own samples (LEAK, "cannot be trusted").  A
 * repeat request that supports() refused takes no sample and leaves the
 * others' alone.
 */
void census_sample(slot *s, int at);

/*
 * After slot `s`'s worker answered a batch (`said_strays`: it wrote
 * WORKER_STRAYS, a hint only): counts from /proc what it left running and
 * kills it, into `out`: its children and everything below them (strays),
 * the harness's children in its process group (clone(CLONE_PARENT): the
 * strays too, with what the sandbox stopped them for in sandbox_stop), and
 * threads besides its own that do not park within CENSUS_SETTLE_MS (an
 * idle pool waits on a futex with no timeout; a thread that runs, sleeps
 * or waits with a timeout may still write dst), when it has more than
 * before its first batch (threads; not for a candidate with a device) --
 * then the worker is killed and reaped, so that no thread writes dst while
 * the batch is judged.  Sets e->forky when anything was left: from then on
 * every batch is one request; e->threads_end once a thread of the worker
 * ended during the batch (census_final's `ended`).
 */
void census_after_batch(engine *e, slot *s, int said_strays, completion *out);

/* Children of slot `s`'s worker running now, and into *listed all of them,
 * running or ended and not reaped (reaper_children_listed; the worker
 * reaps the ended ones only when its next batch begins, so each was
 * started since the parent's last look: census_final.c).  Before the
 * strays are killed. */
int census_final_children(const slot *s, int *listed);

/*
 * After a batch whose threads census_after_batch found parked or gone: for
 * each request, whether its output is proven final (census_final.c), into
 * s->unproven (out->unproven points to it): an interval timer was armed
 * when its call returned (ENGINE_UNPROVEN_TIMER); a process a call of the
 * batch started had not been waited for, running or ended
 * (ENGINE_UNPROVEN_CHILD): `children` of the worker the parent listed
 * after the batch (census_final_children's *listed), for every request of
 * the batch, or the worker's word at that request's seal; the worker had
 * more threads then than the parent counts in /proc now
 * (ENGINE_UNPROVEN_THREADS: one ran past the return and ended), or
 * `ended` (1: a thread of the worker ended during the batch, the
 * kernel's accounting: census_dead_ns) for every request of the batch
 * (ENGINE_UNPROVEN_THREADS too), unless the worker proved the request's
 * return quiet on one CPU (sealed_quiet).  The
 * worker's counts at the return can only add a finding.  A worker with any
 * such request is killed and reaped.
 */
void census_final(slot *s, int children, int ended, completion *out);

#endif
