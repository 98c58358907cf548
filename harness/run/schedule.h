/*
 * schedule.h - running a plan of jobs through the engine: batches of small
 * jobs (one per cell of a slot's arena, one message to the worker), a
 * large job alone in the big cell, each request judged by the parent when
 * its batch ends.  A batch that ends early (a crash, a hang, a flood) is
 * judged up to the request that ended it, and the requests after it run
 * again in a fresh worker; output that cannot be pinned on one request
 * makes the batch run again one request at a time.  A request that ran
 * out of a short (adaptive) budget runs again with the full budget before
 * its result counts (confirm.h).  Depends on job.h, stage.h and worker.h.
 */
#ifndef HARNESS_SCHEDULE_H
#define HARNESS_SCHEDULE_H

#include <stdint.h>

#include "engine/engine.h"
#include "judge/judge.h"

/* What the detail of a result says once its request ran again with the
 * full budget after a short one ran out (confirm.h): "...; run again with
 * the full budget after the adaptive budget of 20 ms ran out".  A TIMEOUT
 * with it is a confirmed one; another verdict with it is one the short
 * budget would have made a TIMEOUT. */
#define SCHEDULE_RERUN_NOTE "run again with the full budget"

/* What the detail of a result says once its request ran once more alone
 * because a thread that ran at its return had ended when the harness
 * looked (run/batch_end.c): "...; run again alone on one CPU after a
 * thread ended unseen: its return proven quiet" (nothing of the
 * candidate's ran between the return and the seal: worker/exec_window.h),
 * or "...: its return not proven quiet" (the worker was switched out
 * there, or cannot tell), and then the thread count decides as in the
 * first run. */
#define SCHEDULE_PINNED_NOTE "run again alone on one CPU after a thread ended unseen"

/* Receives one result; owns its strings from then on. */
typedef void (*result_sink)(void *ctx, result *r);

/* Nonzero when job `j` fits a small cell (ARENA_SMALL_AREA each for src
 * and dst); the others run alone in the big cell. */
int job_fits_small(const job *j, const case_set *set);

/*
 * Runs jobs[0..njobs) of `set` through `e` and hands every result to
 * `sink` as soon as it is judged (in no particular order).  `strict` is
 * --strict-errors, `timeout_ms` the per-request timeout (for details),
 * `seed` seeds canaries and thread payloads.  With worker isolation,
 * the run may add slots (engine_add_slot) up to `most_slots` in all while
 * its workers keep dying on a crowded machine (widen.h); engine_slots(e)
 * or less: never.  Returns once every result, those of the requests run
 * again included, is in the sink.  Exits with EXIT_HARNESS when no worker
 * can be started.
 */
void schedule_run(engine *e, const case_set *set, const job *jobs, int njobs, int strict,
                  int timeout_ms, uint64_t seed, int most_slots, result_sink sink, void *ctx);

#endif
