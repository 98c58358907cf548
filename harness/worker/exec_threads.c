/*
 * exec_threads.c - the threads variant in the worker: WIRE_THREADS
 * threads started together by a spinning barrier, each calling execute on
 * its own case back to back; a call that overlapped another thread's is
 * kept in its own dst slot; for a candidate with a device each call is
 * followed by `synchronize`, so that it overlaps as long as its kernel
 * runs.  Depends on exec_int.h and exec_device.h.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "exec_device.h"
#include "exec_int.h"

/*
 * A spinning barrier: the threads leave it within a few cycles of each
 * other (a sleeping barrier wakes them one by one, tens of microseconds
 * apart, long enough for a small copy to finish unraced).  Yields while
 * waiting, since there may be fewer cores than threads.
 */
typedef struct spin_barrier {
    atomic_int arrived;
    atomic_int generation;
    int n;
} spin_barrier;

/*
 * What the threads share: how many calls are running and how many ever
 * started, so that each thread can tell whether its call overlapped in
 * time with another thread's (one started while the other ran), and when
 * to stop.
 */
typedef struct thread_shared {
    spin_barrier barrier;
    atomic_int active, starts, stop;
    int64_t deadline_ns;
} thread_shared;

typedef struct thread_job {
    const reshape_candidate *cand;
    int on_device;
    call_args args;
    uint8_t *dst0;
    int64_t slot_bytes;
    int slots;
    wire_response *r;
    int t;
    thread_shared *sh;
} thread_job;

static void spin_wait(spin_barrier *b)
{
    int gen = atomic_load(&b->generation);
    if (atomic_fetch_add(&b->arrived, 1) == b->n - 1) {
        atomic_store(&b->arrived, 0);
        atomic_fetch_add(&b->generation, 1);
        return;
    }
    while (atomic_load(&b->generation) == gen)
        sched_yield();
}

/*
 * One thread of the threads variant: calls back to back after a common
 * start, each into dst slot `slot`.  A call that overlapped another
 * thread's is kept (the next call takes the next slot); one that ran alone
 * is overwritten by the next, since a race needs company.  Once its
 * `slots` slots are full, calls go to the spare slot after them.  The
 * slots written are [0, slot + pending), contiguous.  Goes on
 * until every thread has filled its slots, so that none is left calling
 * alone, or until the deadline.  The slot after the spare is left for one
 * call alone after all threads have ended.
 */
static void *thread_main(void *p)
{
    thread_job *j = p;
    thread_shared *sh = j->sh;
    exec_device_host_thread();
    int slot = 0, calls = 0, overlaps = 0, full = 0, pending = 0;
    spin_wait(&sh->barrier);
    for (;;) {
        if (calls > 0 && (atomic_load(&sh->stop) >= sh->barrier.n ||
                          exec_monotonic_ns() > sh->deadline_ns))
            break;
        reshape_tensor dst = j->args.k.dst;
        dst.data = j->dst0 + (int64_t)slot * j->slot_bytes;
        int mine = atomic_fetch_add(&sh->starts, 1) + 1;
        int company = atomic_fetch_add(&sh->active, 1) > 0;
        j->r->thread_status[j->t][slot] = j->cand->execute(&j->args.k.params, &j->args.k.src, &dst);
        if (j->on_device)
            exec_device_sync(j->cand);
        company |= atomic_fetch_sub(&sh->active, 1) > 1;
        company |= atomic_load(&sh->starts) != mine;
        calls++;
        overlaps += company;
        pending = 1;
        if (company && slot < j->slots) {
            slot++;
            pending = 0;
            if (slot == j->slots && !full) {
                full = 1;
                atomic_fetch_add(&sh->stop, 1);   /* one more thread is full */
            }
        }
    }
    j->r->thread_slots[j->t] = slot + pending;
    j->r->thread_calls[j->t] = calls;
    j->r->thread_overlaps[j->t] = overlaps;
    return NULL;
}

/* Runs the `n` prepared jobs: the threads from a common start, then each
 * case once more alone into its last slot. */
static void run_thread_jobs(thread_job *jobs, pthread_t *tids, int n, const wire_request *q,
                            wire_response *r, int slots)
{
    thread_shared sh;
    atomic_init(&sh.barrier.arrived, 0);
    atomic_init(&sh.barrier.generation, 0);
    sh.barrier.n = n;
    atomic_init(&sh.active, 0);
    atomic_init(&sh.starts, 0);
    atomic_init(&sh.stop, 0);
    sh.deadline_ns = exec_monotonic_ns() + (int64_t)(q->budget_ms > 0 ? q->budget_ms : 1) * 1000000;
    r->phase = PHASE_EXECUTE;
    for (int k = 0; k < n; k++) {
        jobs[k].sh = &sh;
        if (pthread_create(&tids[k], NULL, thread_main, &jobs[k]) != 0)
            abort();  /* the parent reports the worker's death */
    }
    for (int k = 0; k < n; k++)
        pthread_join(tids[k], NULL);
    /* each case once more, alone: the control the threaded calls are held to */
    for (int k = 0; k < n; k++) {
        const abuse_call *a = &jobs[k].args.k;
        reshape_tensor dst = a->dst;
        dst.data = jobs[k].dst0 + (int64_t)(slots - 1) * jobs[k].slot_bytes;
        r->thread_status[jobs[k].t][slots - 1] = jobs[k].cand->execute(&a->params, &a->src, &dst);
        if (jobs[k].on_device)
            exec_device_sync(jobs[k].cand);
    }
}

void exec_run_threads(const arena *a, const cell *cl, const wire_request *q, wire_response *r,
                      uint8_t *view, const reshape_candidate *cand)
{
    thread_job jobs[WIRE_THREADS];
    pthread_t tids[WIRE_THREADS];
    int n = 0, slots = q->iters < WIRE_ITERS_MAX ? q->iters : WIRE_ITERS_MAX;
    int on_device = exec_device(cand) != NULL;
    dev_mirror m;
    if (on_device)
        exec_device_stage(&m, cand, a, cl, q, view);
    for (int t = 0; t < q->ncalls && t < WIRE_THREADS; t++) {
        const wire_call *w = &q->call[t];
        r->phase = PHASE_SUPPORTS;
        r->supports_status[t] = cand->supports((reshape_op)w->op, (reshape_dtype)w->src.dtype,
                                               (reshape_dtype)w->shape.dtype,
                                               exec_device_layout(cand, w->layout));
        if (r->supports_status[t] != RESHAPE_OK)
            continue;
        thread_job *j = &jobs[n++];
        j->cand = cand;
        j->on_device = on_device;
        exec_make_call(&j->args, w, view);
        j->dst0 = view + w->dst.data_off;
        if (on_device) {
            exec_device_rebase(&m, &j->args.k, w);
            j->dst0 = exec_device_addr(&m, w->dst.data_off);
        }
        j->slot_bytes = q->slot_bytes;
        j->slots = slots - 2;   /* then the spare slot, then one call alone */
        j->r = r;
        j->t = t;
    }
    if (n > 0)
        run_thread_jobs(jobs, tids, n, q, r, slots);
    if (on_device)
        exec_device_unstage(&m, a, view);
}
