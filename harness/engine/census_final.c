/*
 * census_final.c - whether what a batch's calls left in the arena is proven
 * final (census.h, issue 42): each call's output was sealed read-only the
 * moment it returned (exec_seal.h), so a later write faults and is named;
 * what a seal cannot rule out is a write between the return and the seal,
 * by something of the candidate's that ran then and was gone before the
 * parent looked, or a process the call started and did not wait for.
 * Depends on census.h, reaper.h.
 */
#define _GNU_SOURCE
#include <string.h>

#include "census.h"
#include "proc/proc.h"

/* The response of request `k` of slot `s`'s batch, through the parent's
 * view and the parent's copy of the cells. */
static const wire_response *response_of(const slot *s, int k)
{
    return arena_response(&s->ar.cells[s->cells[k]], s->ar.pview);
}

int census_final_children(const slot *s, int *listed)
{
    int running = 0;
    *listed = s->w.pid > 0 ? reaper_children_listed(s->w.pid, &running) : 0;
    return running;
}

void census_final(slot *s, int children, int ended, completion *out)
{
    int look = -1, any = 0;
    memset(s->unproven, 0, sizeof s->unproven);
    for (int k = 0; k < s->n; k++) {
        const wire_response *rp = response_of(s, k);
        int32_t threads = __atomic_load_n(&rp->sealed_threads, __ATOMIC_RELAXED);
        unsigned char why = 0;
        if (__atomic_load_n(&rp->sealed_timer, __ATOMIC_RELAXED)) {
            why = ENGINE_UNPROVEN_TIMER;
        } else if (children > 0 || __atomic_load_n(&rp->sealed_children, __ATOMIC_RELAXED)) {
            /* a process a call of the batch started, running or ended,
             * that nothing had waited for: its work was not joined, and one
             * that wrote dst between the return and the seal and ended
             * leaves only its zombie.  The parent's own look (the kernel's
             * list of the worker's children, which the worker reaps only
             * when its next batch begins) cannot tell which request of the
             * batch started it, so it is each one's, and a batch of more
             * runs again one request at a time (run/batch_end.c); the
             * worker's word (sealed_children, at the seal) names the
             * request and can only add it.  One that shares the worker's
             * memory and writes after the seal faults first
             * (MEMORY_VIOLATION); one still running when the parent looks
             * is killed as well (census_after_batch: LEAK "left N
             * processes running") */
            why = ENGINE_UNPROVEN_CHILD;
        } else if (!__atomic_load_n(&rp->sealed_quiet, __ATOMIC_RELAXED)) {
            /* unless the worker, pinned to one CPU, proved that nothing
             * else of the candidate's ran between the return and the seal
             * (exec_window.h): then a thread it counted that the parent did
             * not was one ending, and dst is what the call left.  A thread
             * that ended during the batch (`ended`: the kernel's accounting,
             * census_dead_ns) may have written dst after a return and ended
             * before the worker counted; it cannot tell which request's it
             * was, so it is each one's, as a child is */
            if (ended) {
                why = ENGINE_UNPROVEN_THREADS;
            } else if (threads > 1) {
                if (look < 0)
                    look = reaper_threads(s->w.pid);
                if (look > 0 && threads > look)
                    why = ENGINE_UNPROVEN_THREADS;
            }
        }
        s->unproven[s->cells[k]] = why;
        any |= why != 0;
    }
    out->unproven = s->unproven;
    if (any)
        proc_kill(&s->w, NULL);     /* nothing of it runs on: a timer, a
                                       task the parent did not see, what a
                                       child of it left */
}
