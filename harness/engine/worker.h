/*
 * worker.h - the engine: slots, each an arena and (except in-process) a
 * zygote, a process that has loaded the candidate and never calls it, and
 * a worker forked from it (zygote.h).  The parent stages a batch of
 * requests in a slot's arena (one per cell), submits it with one message,
 * and waits for completions; a worker that crashes, exits, hangs or
 * floods is killed and replaced at the slot's next submit by a new fork
 * of the zygote, in about a millisecond.  A candidate that starts threads
 * while it loads cannot be forked (its threads would be missing): each of
 * its workers is spawned and loads it, and spares are kept loaded in
 * advance.  Depends on wire.h and exec.h.
 *
 * Isolation modes:
 *   worker  long-lived workers, one per slot (the default)
 *   fork    a fresh process per request (for the benchmark comparison,
 *           and for a candidate whose answers depend on its earlier calls)
 *   none    in-process, one slot, no timeout or capture (for debugging)
 */
#ifndef HARNESS_WORKER_H
#define HARNESS_WORKER_H

#include <stddef.h>
#include <sys/types.h>

#include "proc/proc.h"
#include "sandbox_watch.h"
#include "wire/wire.h"

typedef enum isolation { ISO_WORKER, ISO_FORK, ISO_NONE } isolation;

/* More output than this during one request is FLOOD. */
#define ENGINE_FLOOD_BYTES (64 * 1024)
/* A worker has at least this long (or the timeout, if longer) to load the
 * candidate. */
#define ENGINE_LOAD_MIN_MS 10000
/* Output kept from each request, for the detail of a crash. */
#define ENGINE_OUTPUT_HEAD 512

typedef enum done_kind {
    DONE_OK,        /* the worker answered */
    DONE_DIED,      /* it died before answering: `wstatus` says how */
    DONE_TIMEOUT,   /* no answer within the timeout: killed */
    DONE_FLOOD      /* it wrote more than ENGINE_FLOOD_BYTES: killed */
} done_kind;

/*
 * How a batch ended.  DONE_OK: every request ran (`at` == n).  Otherwise
 * requests [0, at) ran, request `at` is the one that died, hung or
 * flooded, and [at + 1, n) never ran.  The output of a batch is pinned on
 * the request running when the parent read it, which is exact for a batch
 * of one; `output_bytes` counts the whole batch.
 */
/*
 * The repeat variant's memory, measured by the parent from outside the
 * worker (census.c): at each of the worker's WIRE_MEM_SAMPLES sampling
 * points it stops and waits while the parent reads its /proc files, so
 * nothing the candidate writes changes a sample.  Per cell of the slot's
 * arena (0..ARENA_BIG), in the order the batch ran its repeat requests.
 */
typedef struct engine_samples {
    int n[ARENA_CELLS + 1];             /* samples taken of cell i's request */
    int extra;                          /* sampling points beyond the batch's
                                           repeat requests (a forged handshake) */
    int64_t anon[ARENA_CELLS + 1][WIRE_MEM_SAMPLES];   /* bytes: "Anonymous" of
                                           /proc/PID/smaps_rollup (heap and
                                           private mappings in memory) */
    int64_t data[ARENA_CELLS + 1][WIRE_MEM_SAMPLES];   /* bytes: the data size of
                                           /proc/PID/statm (private writable
                                           mappings, touched or not) */
} engine_samples;

/* Why a request's output is not proven final (completion.unproven): when
 * its call returned, an interval timer was armed; a thread ran that had
 * ended when the parent looked; a child process the call started had not
 * been waited for (running or ended); (the judge's, from the response
 * alone, when the worker ended before the parent looked) a thread the call
 * started still ran. */
enum { ENGINE_UNPROVEN_TIMER = 1, ENGINE_UNPROVEN_THREADS, ENGINE_UNPROVEN_CHILD,
       ENGINE_UNPROVEN_STARTED };

typedef struct completion {
    int slot;
    done_kind kind;
    int n, at;
    int wstatus;                        /* waitpid status when DONE_DIED */
    size_t output_bytes;                /* written to stdout/stderr in the batch */
    int strays;                         /* processes below the worker that still
                                           ran after the batch (DONE_OK: its last
                                           request's doing) or when it was killed;
                                           the engine killed them (reaper.h) */
    int threads;                        /* DONE_OK: threads of the worker besides
                                           its own that still ran after the batch,
                                           counted by the parent in /proc; the
                                           engine killed the worker before the
                                           batch was judged (0 for a candidate
                                           with a device: its device's threads) */
    const engine_samples *samples;      /* DONE_OK: the repeat requests' memory
                                           as the parent measured it, valid until
                                           the slot's next submit; NULL: not
                                           measured from outside (isolation none) */
    const unsigned char *unproven;      /* DONE_OK: per cell, why the output of
                                           its request is not proven final
                                           (ENGINE_UNPROVEN_*, 0: it is), as the
                                           parent found it after the batch;
                                           valid until the slot's next submit;
                                           NULL: not looked at */
    int64_t budget_ms;                  /* DONE_TIMEOUT: the budget that ran out */
    char sandbox_stop[SANDBOX_ACT_BYTES];   /* DONE_DIED: what the sandbox's
                                           observer stopped it for ("tried to
                                           ..."), or "" */
    int short_budget;                   /* DONE_TIMEOUT: a short one (deadline.h) */
    int pinned;                         /* DONE_DIED: the death came during request
                                           `at` (the worker said so, or the batch
                                           held one request); 0: no request is known
                                           to have caused it (it came after the
                                           last, or unannounced), so any of them may
                                           have */
    int fresh;                          /* request `at` was the first its process
                                           ran: no earlier request touched it */
    char output_head[ENGINE_OUTPUT_HEAD + 1];   /* the first of request `at`'s */
} completion;

typedef struct engine engine;

/*
 * Creates `nslots` slots (1 for ISO_NONE) whose big cells hold `big_src`
 * and `big_dst` bytes, and loads the candidate at `path` once (in a
 * worker, or in-process for ISO_NONE) to check it.  `timeout_ms` is the
 * full budget of a request (deadline.h); with a policy `sb` (which must
 * outlive the engine), workers are confined by it (sandbox_confine) and
 * install their own filter (sandbox_install) before they load the
 * candidate, and an observer watches them (sandbox_watch); NULL: no
 * sandbox.  The harness becomes a child subreaper (reaper.h).  Returns the
 * engine and fills `probe`; on failure returns NULL with *err set to a
 * message and probe->state 2 when the candidate is to blame (it refused to
 * load, died or hung while loading: the message then ends with the end of
 * its output), else 0 (the harness could not start a worker, make shared
 * memory or a sandbox).
 */
engine *engine_start(isolation mode, int nslots, const char *path, int timeout_ms,
                     const sandbox_policy *sb, size_t big_src, size_t big_dst, wire_probe *probe,
                     char **err);

/* What the sandbox's observer saw so far: 0 and `out` filled, or -1 when
 * the workers are not confined (--sandbox off, --isolation none). */
int engine_sandbox_summary(engine *e, sandbox_summary *out);

/* Full-budget slots an engine makes at most (engine_add_slot). */
#define ENGINE_FULL_SLOTS 512
/* Slots of the run's kind an engine adds at most beyond its first
 * `nslots` (engine_add_slot). */
#define ENGINE_MORE_RUN_SLOTS 256

/*
 * Adds a slot to `e` and returns its index, past every slot made before:
 * its arena now, its worker at its first submit (a spare that becomes its
 * zygote, as for the first slots).  `full` 1: a full-budget slot, whose
 * every request gets the full budget whatever timed out before
 * (deadline.h), where a request that ran out of a short budget runs again
 * (run/confirm.h); at most ENGINE_FULL_SLOTS.  `full` 0: a slot like the
 * first `nslots` (adaptive budgets, its cells populated ahead), for a run
 * whose workers keep dying on a crowded machine (run/widen.h); at most
 * ENGINE_MORE_RUN_SLOTS.  An added slot is driven like a slot of its own
 * thread (engine_submit, engine_wait_slot), never by engine_wait, and is
 * not counted by engine_slots.  Returns the index, or -1 with *err set
 * when its kind's limit is reached or its shared memory cannot be made.
 * Thread-safe.
 */
int engine_add_slot(engine *e, int full, char **err);

int engine_slots(const engine *e);
/* The arena of slot `i`; stage requests through its `pview`. */
arena *engine_arena(engine *e, int i);

/* Starts the batch of the requests staged in cells[0..n) of slot `i`
 * (idle; 1 <= n <= ARENA_CELLS).  Returns 0, or -1 with *err set when no
 * worker could be started for it. */
int engine_submit(engine *e, int i, const int *cells, int n, char **err);

/* Blocks until a submitted batch ends and describes it.  Returns 0, or -1
 * when nothing is in flight.  For one thread driving every slot. */
int engine_wait(engine *e, completion *out);

/*
 * Blocks until the batch of slot `i` ends and describes it.  Returns 0, or
 * -1 when slot `i` has nothing in flight.  Threads that each drive their
 * own slot may call engine_submit and engine_wait_slot concurrently (the
 * spares and the dying workers they share are locked); engine_wait and
 * everything else is for one thread.
 */
int engine_wait_slot(engine *e, int i, completion *out);

/* The next batch of slot `i` runs in a process that no earlier request
 * touched (a worker that ran a batch is replaced first): for a request
 * run again alone after a death in a process that was not fresh. */
void engine_fresh(engine *e, int i);

/*
 * The process that runs slot `i`'s requests now, when it has loaded the
 * candidate: a worker's pid, the harness's own with ISO_NONE; 0 when there
 * is none (a slot whose worker died and has no successor yet).  And slot
 * `i`'s zygote (0 when it has none: ISO_NONE, or a candidate that cannot
 * be forked): it has loaded the candidate and made no call; a worker has
 * made the calls of its batches, and mapped what the candidate loads on
 * first use.  Reading their /proc/PID/maps needs the ptrace access mode
 * PTRACE_MODE_READ: the same uid and a dumpable process, or
 * CAP_SYS_PTRACE.
 */
pid_t engine_worker_pid(const engine *e, int i);
pid_t engine_zygote_pid(const engine *e, int i);

/*
 * The CPU time, in ns (user + system), that the engine's processes used
 * since the harness started: the harness's own threads and its reaped
 * children (getrusage: workers and zygotes that ended) and the zygotes
 * running now (/proc/PID/stat, read after the last ')', in clock ticks).
 * The kernel counts all of it; nothing a candidate writes moves it.
 * Running workers count once they are reaped.  Thread-safe.
 */
int64_t engine_cpu_ns(engine *e);

/* Slots of the run's kind added after the first ones (engine_add_slot
 * with `full` 0). */
int engine_added_slots(const engine *e);

/* Gives slot `i` a worker that has loaded the candidate, when it has none
 * (its last one died and no batch came after): for a reader of the maps
 * above once the requests are done.  Call it between batches only.
 * Returns 0 (also with ISO_NONE), or -1 with *err set (allocated) when no
 * process could be started; a worker that dies while loading leaves
 * engine_worker_pid at 0. */
int engine_load_worker(engine *e, int i, char **err);

/* The isolation mode the engine was started with. */
isolation engine_isolation(const engine *e);

/* 1 once a thread of a worker ended during a batch, as the kernel
 * accounts its runtime (census_dead_ns).  Such a thread may have written
 * dst after a return and been gone before the worker counted, so no
 * request of that batch was proven final, and each runs again alone on one
 * CPU (run/batch_end.c); from then on every request runs on one CPU in the
 * first place (wire_request.pinned), where its worker proves each return
 * quiet (worker/exec_window.h), rather than a batch's requests each run
 * again (a pool that ends threads now and then, as OpenVINO's TBB did in
 * 3,101 batches of a whole-suite run, would run again nearly every
 * request).  0 before, and always with --isolation none or a device. */
int engine_threads_end(const engine *e);

/* The most requests slot `i`'s next batch should hold: ARENA_CELLS; 1
 * with --isolation fork (a process per request) and once any worker has
 * written to stdout or stderr (so that output is pinned exactly); and
 * after a batch of the slot ended in a death, a hang or a flood, 1,
 * doubling with each batch that ends well (the requests after the one
 * that ended a batch are staged again, so a candidate that crashes often
 * is not staged 32 times a request). */
int engine_batch_limit(const engine *e, int i);

/* Tells every worker to end, without waiting: each slot's worker gets EOF
 * and exits, spares are killed.  Their teardown then overlaps whatever the
 * caller does next (writing reports); engine_stop waits for it.  No batch
 * may be submitted afterwards. */
void engine_finish(engine *e);

/* Stops every worker (engine_finish, if not done yet), waits for them,
 * kills what they left running and frees the engine.  Returns how many
 * processes it and the run killed that no result counts: what workers left
 * when they died or ended (reaper.h). */
int engine_stop(engine *e);

#endif
