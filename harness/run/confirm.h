/*
 * confirm.h - no TIMEOUT without the full budget: a request that ran out
 * of a short (adaptive) budget (engine/deadline.h) is a suspect, not a
 * TIMEOUT.  It runs again, alone, with the full --timeout-ms, in a
 * full-budget slot of the engine (engine_add_slot), and that run's
 * result is the one that counts: a TIMEOUT then is confirmed, anything
 * else is what the call really does.  Suspects run in parallel, each slot
 * driven by a thread of its own, beside the run's own slots: up to
 * CONFIRM_SLOTS_BASE at any time, and up to CONFIRM_SLOTS while there is
 * room for more (room.h: the running suspects' own processes use little
 * CPU, whatever else keeps the machine busy; memory, descriptors and
 * tasks to spare), so that a candidate that hangs asleep on a whole
 * class of requests costs the run's slots a short budget a hang and the
 * confirming slots a full budget for each few hundred of them.  Private
 * to run/ (used by schedule.c and batch_end.c).  Depends on schedule.h and
 * room.h.
 */
#ifndef HARNESS_CONFIRM_H
#define HARNESS_CONFIRM_H

#include <pthread.h>
#include <stdint.h>

#include "schedule.h"

/* Suspects running at once, at most: the engine's full-budget slots. */
#define CONFIRM_SLOTS ENGINE_FULL_SLOTS

/* Suspects that may run at once whatever the machine's load. */
#define CONFIRM_SLOTS_BASE 32

/* Beyond CONFIRM_SLOTS_BASE, a slot starts only when the full budget is
 * at least this (ms): a slot costs a process start, tens of ms of CPU,
 * and saves a waiting suspect at most a full budget of waiting. */
#define CONFIRM_GROW_MS 2000

/* Descriptors one more confirming slot may cost the harness: the zygote,
 * worker and spare of its slot with three each, its arena, the sandbox's
 * listeners, rounded up. */
#define CONFIRM_FDS_EACH 16

/* Tasks one more confirming slot may add to the machine's: its zygote,
 * worker and spare and the threads a worker runs calls in, rounded up. */
#define CONFIRM_TASKS_EACH 16

typedef struct confirmer confirmer;

/*
 * A confirmer for the run of jobs[] of `set` through `e`: results go to
 * `sink(ctx, ...)` under `sink_lock`, as schedule_run's do; `strict`,
 * `timeout_ms` and `seed` are the run's.  Starts nothing until the first
 * suspect.
 */
confirmer *confirm_new(engine *e, const case_set *set, const job *jobs, int strict,
                       int timeout_ms, uint64_t seed, pthread_mutex_t *sink_lock,
                       result_sink sink, void *ctx);

/* Queues jobs[jx], which ran out of a short budget of `budget_ms`, to run
 * again with the full budget, in a small cell when `small`
 * (job_fits_small), else in the big cell.  Thread-safe. */
void confirm_add(confirmer *c, int jx, int small, int64_t budget_ms);

/* Waits until every queued suspect is judged and handed to the sink and
 * frees `c` (the slots stay the engine's).  No confirm_add may follow or
 * run meanwhile. */
void confirm_finish(confirmer *c);

#endif
