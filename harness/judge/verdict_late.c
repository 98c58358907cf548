/*
 * verdict_late.c - what ran after a call returned (verdict_int.h, issue
 * 42): the worker sealed the call's output read-only the moment it
 * returned (worker/exec_seal.h), so a write after that faulted, and its
 * fault handler recorded it in the call's response: MEMORY_VIOLATION
 * "wrote dst after execute returned", whatever else the request got.  What
 * a seal cannot rule out, something of the candidate's that ran at the
 * return and was gone when the parent looked (engine/census_final.c), is
 * LEAK "not proven final" on a request that otherwise passed.  Depends on
 * verdict_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "engine/engine.h"
#include "verdict_int.h"

/* Who wrote, as the worker's fault handler told it (wire_late). */
static const char *late_who(int32_t who)
{
    switch (who) {
    case WIRE_LATE_THREAD: return "from a thread of the worker";
    case WIRE_LATE_PROCESS: return "from another process sharing the worker's memory "
                                   "(clone(CLONE_VM))";
    case WIRE_LATE_WORKER: return "on the worker's own thread (a signal handler, or a "
                                  "later call)";
    case WIRE_LATE_UNSEEN: return "before the seal took effect: the bytes differ from a copy "
                                  "made right after the return";
    default: return "by the candidate";
    }
}

/* Why the output is not proven final (ENGINE_UNPROVEN_*). */
static const char *unproven_why(unsigned char why)
{
    switch (why) {
    case ENGINE_UNPROVEN_TIMER:
        return "an interval timer was armed, or a handler for a timer's signal (SIGALRM, "
               "SIGVTALRM, SIGPROF) installed, when the call returned (the handler may have run "
               "before dst was sealed)";
    case ENGINE_UNPROVEN_THREADS:
        return "a thread that ran when the call returned had ended when the harness looked "
               "(it may have written dst before dst was sealed)";
    case ENGINE_UNPROVEN_CHILD:
        return "a process the call started (a child of the worker, running or ended) had not "
               "been waited for when the call returned (it may have written dst before dst "
               "was sealed)";
    case ENGINE_UNPROVEN_STARTED:
        return "a thread the call started still ran when it returned, and the worker ended "
               "before the harness could look (it may have written dst before dst was sealed)";
    default: return "";
    }
}

/* Why the output of `s`'s request is not proven final after `done`
 * (ENGINE_UNPROVEN_*), or 0. */
static unsigned char unproven(const stage *s, const arena *a, const completion *done)
{
    const wire_response *rp = arena_response(s->cl, a->pview);
    int ci = (int)(s->cl - a->cells);
    if (done->kind != DONE_OK)
        return 0;
    if (done->unproven)
        return ci >= 0 && ci <= ARENA_BIG ? done->unproven[ci] : 0;
    /* a worker that ended before the parent could look (a later request's
     * death): a timer or its handler, a process its call started and did
     * not wait for, or a thread its call started, was there at the
     * return */
    if (rp->sealed_ok && rp->sealed_timer)
        return ENGINE_UNPROVEN_TIMER;
    if (rp->sealed_ok && rp->sealed_children)
        return ENGINE_UNPROVEN_CHILD;
    if (rp->sealed_ok && rp->call_threads > 0 && rp->sealed_threads > rp->call_threads)
        return ENGINE_UNPROVEN_STARTED;
    return 0;
}

int judge_ran_past_return(const stage *s, const arena *a, const completion *done)
{
    const wire_response *rp = arena_response(s->cl, a->pview);
    return __atomic_load_n(&rp->late_write, __ATOMIC_ACQUIRE) != 0 || unproven(s, a, done) != 0;
}

int judge_unproven_thread(const stage *s, const arena *a, const completion *done)
{
    const wire_response *rp = arena_response(s->cl, a->pview);
    return __atomic_load_n(&rp->late_write, __ATOMIC_ACQUIRE) == 0 &&
           unproven(s, a, done) == ENGINE_UNPROVEN_THREADS;
}

int judge_proven_quiet(const stage *s, const arena *a)
{
    const wire_response *rp = arena_response(s->cl, a->pview);
    return __atomic_load_n(&rp->sealed_quiet, __ATOMIC_RELAXED) == 1;
}

void verdict_after_return(const stage *s, const arena *a, const completion *done, result *out,
                          int n)
{
    const wire_response *rp = arena_response(s->cl, a->pview);
    int32_t who = __atomic_load_n(&rp->late_write, __ATOMIC_ACQUIRE);
    unsigned char why = unproven(s, a, done);
    if (!who && !why)
        return;
    const char *what = s->j->v == V_INFER ? "the output dims after infer_shape returned"
                                          : "dst after execute returned";
    char *where = who ? verdict_where(s, a, rp->late_addr) : NULL;
    for (int k = 0; k < n; k++) {
        result *r = &out[k];
        if (who) {
            verdict_set(r, VD_MEMORY_VIOLATION, xasprintf("wrote %s, %s (%s; dst was sealed at "
                                                          "the return)", what, where,
                                                          late_who(who)));
            free(r->got);
            r->got = xstrdup("memory violation");
        } else if (!verdict_counts_against(r->vd)) {
            verdict_set(r, VD_LEAK, xasprintf("not proven final: %s", unproven_why(why)));
            free(r->got);
            r->got = xstrdup("not proven final");
        } else {
            verdict_set(r, r->vd, xasprintf("%s; not proven final: %s", r->detail,
                                            unproven_why(why)));
        }
    }
    free(where);
}
