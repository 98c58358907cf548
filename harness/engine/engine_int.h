/*
 * engine_int.h - what the engine's parent-side files share, private to
 * engine/: a process (proc: a zygote or a worker), a slot, the engine
 * itself, and the functions one file calls in another (spawn.c: spawning,
 * forking from a zygote, killing and reaping; hello.c: loading; pool.c: dying
 * workers, spares, zygotes, binding; wait.c: batches' ends).  Depends on
 * worker.h, wire.h, wire/channel.h, deadline.h, spawner.h.
 */
#ifndef HARNESS_ENGINE_INT_H
#define HARNESS_ENGINE_INT_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "deadline.h"
#include "proc/proc.h"
#include "spawner.h"
#include "worker.h"
#include "wire/wire.h"

/* Room for the slots engine_add_slot adds, of both kinds. */
#define ENGINE_MORE_SLOTS (ENGINE_FULL_SLOTS + ENGINE_MORE_RUN_SLOTS)

/* A process (wire/channel.h) and the parent's ends of its pipes. */
typedef struct proc {
    pid_t pid;              /* 0: none */
    int req_w, resp_r, out_r;
    int ready;              /* it said it loaded the candidate (or was forked) */
    int forked;             /* a fork of a zygote (it writes no WORKER_BOUND) */
    int forkable;           /* its hello said it can be the slot's zygote */
    int batches;            /* batches submitted to it */
    int threads;            /* its threads before its first batch (census.h);
                               0: not counted, one */
    pid_t parent_tid;       /* the harness's thread it is a child of, once
                               looked for (reaper_group_strays), else 0 */
} proc;

typedef struct slot {
    arena ar;
    proc z;                 /* the slot's zygote (zygote.h), or none */
    proc w;                 /* its worker: a fork of z, or a spawned one */
    proc spare;             /* a fork of z that waits to be its next worker */
    int want_fresh;         /* the next batch runs in a process no request touched */
    int fresh_batch;        /* the running batch is its worker's first */
    int limit;              /* requests its next batch may hold (worker.h,
                               engine_batch_limit) */
    int busy, n;
    size_t out_bytes;       /* the batch's output */
    int attr_at;            /* the request its latest output is pinned on */
    size_t attr_bytes;      /* output pinned on request attr_at */
    size_t head_len;
    char head[ENGINE_OUTPUT_HEAD + 1];
    deadline_req req[ARENA_CELLS];  /* the batch's requests, for deadline.h */
    int cells[ARENA_CELLS];         /* the batch's cells, the parent's copy:
                                       the batch page's is the worker's word */
    int64_t submit_ns;              /* when the parent submitted the batch */
    int64_t cap_ns[ARENA_CELLS];    /* request k ends by then at the latest:
                                       submit_ns plus the full budgets of
                                       requests 0..k (deadline.h) */
    int64_t dead_ns;                /* what the worker's ended threads ran
                                       before the batch (census_dead_ns,
                                       upper), -1: unknown */
    int64_t looked_ns;              /* the start of the request whose first
                                       look was taken (deadline_first_look_ns) */
    char lie[SANDBOX_ACT_BYTES];    /* what the candidate's side was caught
                                       lying about ("answered pid ..."), to
                                       be the running request's CRASH; "" */
    int full;               /* a full-budget slot (engine_add_slot) */
    int zygote_out;         /* its zygote left the slot's pids cgroup for
                               the run's (pool.c, fork_in_room) */
    engine_samples *samples;        /* the parent's memory samples (census.h),
                                       made at the first repeat request */
    unsigned char sampled[ARENA_CELLS]; /* 1 for the cells of the batch's
                                     * repeat requests (census_batch) */
    unsigned char unproven[ARENA_CELLS + 1];   /* per cell, after a batch:
                                     * why its output is not proven final
                                     * (ENGINE_UNPROVEN_*, census_final) */
} slot;

struct engine {
    pthread_mutex_t lock;               /* spares, dying and hello: the slots'
                                           threads share them (schedule.c) */
    pthread_rwlock_t forks;             /* held to read while a slot's zygote
                                           forks, to write by a sweep */
    isolation mode;
    int nslots;
    slot *slots;                        /* nslots, then room for the added ones */
    int nfull, nrun;                    /* slots added after the nslots ones
                                           (engine_add_slot): full-budget, and
                                           not (engine_made) */
    char *path;
    char *exe;                          /* the program spawned (wire/channel.h) */
    int timeout_ms;
    uint32_t seq;
    proc *spares;                       /* spawned, not yet bound to a slot */
    int nspares;
    pid_t *dying;                       /* killed or dying, not yet reaped */
    int ndying, capdying;
    size_t big_src, big_dst;            /* of each arena's big cell */
    worker_hello hello;                 /* the latest worker's, when it loaded */
    int chatty;
    const sandbox_policy *sb;           /* workers are confined (sandbox.h); NULL:
                                           --sandbox off */
    char **sb_words;                    /* sb as the words of __worker's argv */
    int nsb_words;
    sandbox_watch *watch;               /* the observer of the confined workers */
    int forky;                          /* a worker left children running */
    int threads_end;                    /* a thread of a worker ended during a
                                           batch (census_dead_ns): from then on
                                           every request runs on one CPU
                                           (engine_threads_end) */
    int sweep_due;                      /* a worker ended: its orphans come here */
    int64_t swept_ns;                   /* when the latest sweep was */
    int want_spares;                    /* spawned spares to keep loaded: 1, or a
                                           slot's worth once workers hang; 0 once
                                           workers are forked from zygotes */
    int strays;                         /* processes killed that no result counts */
    int forkable;                       /* workers are forked from zygotes */
    int zygote_lied;                    /* a zygote forged a pid: workers are
                                           spawned from now on, none forked */
    deadline dl;
    char load_tail[ENGINE_OUTPUT_HEAD + 1];     /* end of a loading worker's output */
    pthread_t owner;                    /* the thread that started the engine */
    spawner sp;                         /* starts workers for the other threads */
    const reshape_candidate *inproc;    /* ISO_NONE */
    int *done;                          /* ISO_NONE: finished slots */
    int ndone;
};

/* The slots made so far, e->slots[0..engine_made(e)): the first nslots,
 * then those engine_add_slot added.  Read without the lock: the counts
 * only grow, and each is raised once its slot is whole. */
static inline int engine_made(const engine *e)
{
    return e->nslots + __atomic_load_n(&e->nfull, __ATOMIC_ACQUIRE) +
           __atomic_load_n(&e->nrun, __ATOMIC_ACQUIRE);
}

/* CLOCK_MONOTONIC, in nanoseconds. */
int64_t engine_mono_ns(void);

/* Reads exactly `n` bytes from `fd` (again after EINTR).  Returns 0, or
 * -1 at EOF or on an error. */
int engine_read_full(int fd, void *buf, size_t n);

/* Waits for worker `p` to end (its wait status into *wstatus when not
 * NULL), closes the parent's ends of its pipes, leaves `p` empty. */
void proc_reap(proc *p, int *wstatus);

/* Kills a worker and everything below it; returns how many processes
 * below it were running. */
int proc_kill(proc *p, int *wstatus);

/* Waits until `p` has ended or CLOCK_MONOTONIC passes `by` (ns), without
 * reaping it.  Returns 0 when it ended, 1 when it still runs. */
int proc_await_end(proc *p, int64_t by);

/* Starts a worker into *p, on the thread that started the engine or else
 * through the engine's spawner: a worker dies with the thread that
 * started it (spawner.h). */
int proc_spawn(engine *e, proc *p, char **err);

/* Asks zygote `z` for a worker, into *p (ready, fresh).  Returns 0, -1
 * with *err set when the zygote did not answer with one, -2 with *err
 * set ("answered pid N ...") when the pid it answered is not a new child
 * of the harness: the candidate forged it (spawn.c, proc_is_new_child),
 * or -3 with *err set when it answered that its fork failed with EAGAIN
 * (its slot's pids cgroup is full of what a worker left, proc/bounds.h). */
int proc_fork(engine *e, proc *z, proc *p, char **err);

/* Waits until worker `p` has loaded the candidate.  Returns 0, or -1 with
 * *err set and the worker gone; e->hello.probe.state is then 2 when it is
 * the candidate's doing (it refused, died or hung while loading). */
int proc_await_ready(engine *e, proc *p, char **err);

/* Leaves a worker that is dying to be reaped later, so that its teardown
 * (slow under a hypervisor) does not hold the run up. */
void proc_leave_dying(engine *e, proc *p);

/* Kills and reaps the children of the harness that are no worker of the
 * engine's: what dead workers' candidates left running (reaper.h).  Under
 * the lock, or from the one thread driving every slot. */
void engine_sweep(engine *e);

/* Kills what runs below a hung or flooding worker, then the worker, and
 * leaves it to be reaped later (its teardown is slow under a hypervisor);
 * from now on a spare per slot is kept, as more hangs are likely.  Returns
 * how many processes below it ran. */
int engine_kill_late(engine *e, proc *p);

/* Reaps the dying workers that have ended (all of them with `block`),
 * then sweeps up what they left. */
void engine_reap_dying(engine *e, int block);

/* Spawns spares until there are `want`; a failure only leaves fewer. */
void engine_top_up_spares(engine *e, int want);

/* Forks the next worker of slot `i` in advance, when it has a zygote and
 * no such spare: from the slot's thread, while its worker runs a batch.
 * A zygote that does not answer is given up (the next bind starts one). */
void engine_fork_spare(engine *e, int i);

/* Gives slot `i` a worker: its spare fork, else a fork of its zygote;
 * when it has none, or it died, a spawned spare (waiting for it to load if
 * none has yet) that becomes the slot's zygote when it can, else its
 * worker.  Takes the lock for the spawned spares itself.  Returns 0, or -1
 * with *err set. */
int engine_bind_worker(engine *e, int i, char **err);

/* Waits, up to the timeout, for a freshly bound worker to say it is warm
 * (WORKER_BOUND), so that the first batch does not wait for that.  A worker
 * that dies or says nothing meanwhile is left for the first batch's poll
 * to report; a late WORKER_BOUND is skipped there. */
void proc_await_bound(engine *e, proc *p);

#endif
