/*
 * schedule_int.h - what schedule.c, batch_queue.c and batch_end.c share:
 * a slot's batch, the queue of jobs, the run the slot threads drive.
 * Private to run/.  Depends on schedule.h, confirm.h and widen.h.
 */
#ifndef HARNESS_SCHEDULE_INT_H
#define HARNESS_SCHEDULE_INT_H

#include <pthread.h>

#include "schedule.h"
#include "confirm.h"
#include "judge/judge.h"
#include "followup.h"
#include "widen.h"

typedef struct run run;

/* What one slot is running. */
typedef struct batch {
    int n;
    int jobs[ARENA_CELLS];      /* job indices, in batch order */
    int cells[ARENA_CELLS];
    stage stages[ARENA_CELLS + 1];
    int alone;                  /* one job that runs in a fresh process */
    int pinned;                 /* that job's second run, on one CPU
                                   (wire_request.pinned): its worker serves
                                   no other batch */
    int njudged;                /* results judged, not yet in the sink */
    result judged[ARENA_CELLS * WIRE_THREADS];
    int nfollow;                /* judged[follow_at[k]] calls for follow[k] */
    int follow_at[ARENA_CELLS];
    followup follow[ARENA_CELLS];
} batch;

/* Jobs to run: those handed back by an ended batch first, then the plan. */
typedef struct queue {
    const job *jobs;
    const char *small;          /* job fits a small cell */
    int next, njobs;
    int *back, nback;           /* a stack: the top runs first */
    char *alone;                /* a handed back job that runs alone, in a
                                   process no other request touched */
    char *again;                /* how many times a job ran once more alone,
                                   on one CPU, after a thread of its call
                                   ended unseen (judge_unproven_thread) */
} queue;

/* A slot thread's own: its batch and the engine's slot it drives. */
typedef struct slot_arg {
    run *r;
    batch *b;
    int i;
    pthread_t tid;
} slot_arg;

/*
 * What the slots share.  With worker isolation each slot is driven by a
 * thread of its own; `lock` guards the queue and the sink (the judging
 * itself runs unlocked, each slot on its own arena) and the added slots.
 */
struct run {
    pthread_mutex_t lock;
    pthread_cond_t more;        /* jobs handed back, or every slot idle */
    int nthreads, idle;
    queue q;
    engine *e;
    const case_set *set;
    int strict, timeout_ms;
    uint64_t seed;
    result_sink sink;
    void *ctx;
    batch *batches;             /* the first slots' */
    confirmer *confirm;         /* where a short budget's TIMEOUT runs again */
    int widening;               /* the run may add slots (widen.h) */
    widen widen;
    slot_arg *added;            /* the added slots' threads: nadded of them */
    int nadded;
};

/* Takes the next jobs for batch `b` (under r->lock): small ones for
 * cells 0.., up to `limit`, or one large job alone for the big cell, or a
 * job handed back to run alone.  Returns how many (batch_queue.c). */
int batch_take(run *r, batch *b, int limit);

/*
 * Takes the next batch for slot thread `b` (under the lock), waiting while
 * the queue is empty but another slot is still running a batch (a crash
 * may hand jobs back).  Returns 0 once every slot is idle and nothing is
 * left: the threads end together, after the last batch (a worker dies
 * with the thread that started it: PR_SET_PDEATHSIG).  (batch_queue.c)
 */
int batch_next(run *r, batch *b, int limit);

/* Hands jobs [from, n) of batch `b` back, to run next in their order
 * (batch_queue.c). */
void batch_hand_back(run *r, const batch *b, int from);

/* Hands jobs [from, to) of batch `b` back, each to run alone in a process
 * that no other request touched, then [to, n) as usual (batch_queue.c). */
void batch_hand_back_alone(run *r, const batch *b, int from, int to);

/* Nonzero when no job is left to take (under r->lock; batch_queue.c). */
int batch_queue_empty(const run *r);

/*
 * Judges the batch of slot thread `b` that `d` ended, runs the follow-ups
 * its judging asked for, hands the results to the sink and what must run
 * again back to the queue (batch_end.c).
 */
void batch_end(run *r, batch *b, const completion *d);

#endif
