/*
 * batch_end.c - a slot's batch once it ended (schedule_int.h): judged up
 * to the request that ended it, the follow-ups its judging asked for, the
 * results into the sink, what must run again handed back, a suspect of a
 * short budget to the confirmer.  Depends on schedule_int.h, judge.h,
 * followup.h, confirm.h and worker.h.
 */
#include "schedule_int.h"

#include <stdlib.h>
#include <string.h>

/* The most runs alone on one CPU a request whose thread ended unseen
 * gets (judge_unproven_thread): each is proven quiet but for about 1 in
 * 100, when the kernel switched the worker out in the window (measured
 * with tests/harness/candidates/signals_done_then_ends.c: 4 to 10 of about
 * 700 a whole-suite run; with at most 3, one request under make
 * test-broken's load was not proven in all 3). */
#define UNPROVEN_RUNS 6

/* Big-cell memory above this is given back after its job. */
#define RELEASE_BYTES ((size_t)1 << 20)

static void judge_one(run *r, batch *b, int k, const arena *a, const completion *done)
{
    stage *s = &b->stages[b->cells[k]];
    stage_map_back(s, a);
    int at = b->njudged;
    b->njudged += judge_job(s, a, done, r->strict, r->timeout_ms, &b->judged[at]);
    if (followup_wanted(s, a, &b->judged[at], &b->follow[b->nfollow]))
        b->follow_at[b->nfollow++] = at;
}

/* 1 when something of the candidate's ran after the call of one of the
 * first `upto` requests of batch `b` returned (judge_ran_past_return),
 * each judged after `ok`, the last after `d` when it answered. */
static int ran_past_return(batch *b, const arena *a, const completion *d, const completion *ok,
                           int upto)
{
    for (int k = 0; k < upto; k++)
        if (judge_ran_past_return(&b->stages[b->cells[k]], a,
                                  k == b->n - 1 && d->kind == DONE_OK ? d : ok))
            return 1;
    return 0;
}

/* The follow-ups the batch's judging asked for (followup.h), in the slot
 * its batch has left idle, each merged into its infer entry. */
static void follow_up(run *r, batch *b, int slot)
{
    for (int k = 0; k < b->nfollow; k++)
        followup_run(r->e, slot, b->stages, r->set, &b->follow[k], r->timeout_ms, r->seed,
                     &b->judged[b->follow_at[k]]);
    b->nfollow = 0;
}

/* Hands the batch's results to the sink, under one lock. */
static void sink_judged(run *r, batch *b)
{
    pthread_mutex_lock(&r->lock);
    for (int t = 0; t < b->njudged; t++)
        r->sink(r->ctx, &b->judged[t]);
    pthread_mutex_unlock(&r->lock);
    b->njudged = 0;
}

/* Gives the big cell's memory back after a large job (its moat is gone
 * with it). */
static void release_big(arena *a, batch *b)
{
    const cell *cl = &a->cells[ARENA_BIG];
    stage *s = &b->stages[ARENA_BIG];
    if (b->n == 1 && b->cells[0] == ARENA_BIG &&
        s->used_bytes > RELEASE_BYTES) {
        arena_release(a, cl->src_off, cl->src_size);
        arena_release(a, cl->dst_off, cl->dst_size);
        s->moat_end = 0;
    }
}

/*
 * Judges the batch that `d` ended and hands back what must run again:
 * everything when the output of several requests cannot be told apart
 * and may be a flood; when a death is no request's for sure, every
 * request, each alone in a fresh process (docs/harness/isolation.md,
 * "Isolation");
 * a request that died in a process an earlier request had touched, alone
 * in a fresh one, and the rest; the crashed request and the rest when a
 * crash's output may be another request's; else the requests after the
 * one that ended it, which goes to the confirmer instead of the judge when
 * a short budget ran out (confirm.h).
 */
static void judge_ended(run *r, batch *b, const arena *a, const completion *d)
{
    int n = b->n, at = d->at < n ? d->at : n;
    if (n > 1 && (d->kind == DONE_FLOOD || d->output_bytes > ENGINE_FLOOD_BYTES)) {
        batch_hand_back(r, b, 0);
        return;
    }
    if (d->kind == DONE_OK && d->threads > 0 && n > 1 && !b->alone) {
        /* threads left running may have written any dst of the batch:
         * each request runs again alone, so that the finding is its own */
        batch_hand_back_alone(r, b, 0, n);
        return;
    }
    if (d->kind == DONE_DIED && !d->pinned && !b->alone) {
        batch_hand_back_alone(r, b, 0, n);
        return;
    }
    completion ok;
    memset(&ok, 0, sizeof ok);
    ok.slot = d->slot;
    ok.kind = DONE_OK;
    ok.n = n;
    ok.at = n;
    ok.samples = d->samples;    /* the parent's, each request's own (census.h) */
    ok.unproven = d->unproven;  /* the parent's, per cell (census_final) */
    if (n > 1 && !b->alone && ran_past_return(b, a, d, &ok, at)) {
        /* what ran after one call returned may have met any of the
         * batch's: each request runs again alone, the finding its own */
        batch_hand_back_alone(r, b, 0, n);
        return;
    }
    if (n == 1 && at == 1 && r->q.again[b->jobs[0]] < UNPROVEN_RUNS &&
        judge_unproven_thread(&b->stages[b->cells[0]], a, d->kind == DONE_OK ? d : &ok)) {
        /* a thread that ended just after the return (joined, or done and
         * ending) is still there when the worker counts and gone when the
         * parent looks, as one that wrote dst in between would be.  The
         * request runs once more alone, in a fresh worker pinned to one
         * CPU that proves its return quiet (stage_and_submit,
         * worker/exec_window.h), and is LEAK "not proven final" only when
         * UNPROVEN_RUNS such runs could not prove it and met the thread
         * again */
        r->q.again[b->jobs[0]]++;
        batch_hand_back_alone(r, b, 0, 1);
        return;
    }
    for (int k = 0; k < at; k++)
        judge_one(r, b, k, a, k == n - 1 && d->kind == DONE_OK ? d : &ok);
    if (at == n)
        return;
    if (d->kind == DONE_DIED && !d->fresh && !b->alone) {
        batch_hand_back_alone(r, b, at, at + 1);
        return;
    }
    if (d->kind == DONE_DIED && n > 1 && d->output_bytes > 0) {
        batch_hand_back(r, b, at);
        return;
    }
    if (d->kind == DONE_TIMEOUT && d->short_budget && r->confirm) {
        /* a suspect, not a TIMEOUT, until the full budget ran out too */
        confirm_add(r->confirm, b->jobs[at], r->q.small[b->jobs[at]], d->budget_ms);
        batch_hand_back(r, b, at + 1);
        return;
    }
    judge_one(r, b, at, a, d);
    batch_hand_back(r, b, at + 1);
}

/* Appends SCHEDULE_PINNED_NOTE's sentence (schedule.h) to the details of
 * the results of `b`, a request's second run on one CPU. */
static void note_pinned(batch *b, const arena *a)
{
    int quiet = judge_proven_quiet(&b->stages[b->cells[0]], a);
    for (int t = 0; t < b->njudged; t++) {
        result *x = &b->judged[t];
        char *d = xasprintf("%s%s" SCHEDULE_PINNED_NOTE ": its return %s", x->detail,
                            *x->detail ? "; " : "", quiet ? "proven quiet" : "not proven quiet");
        free(x->detail);
        x->detail = d;
    }
}

void batch_end(run *r, batch *b, const completion *d)
{
    arena *a = engine_arena(r->e, d->slot);
    if (b->pinned)
        engine_fresh(r->e, d->slot);    /* a worker pinned to one CPU,
                                           that refuses sched_setaffinity,
                                           serves no later batch */
    judge_ended(r, b, a, d);
    if (b->pinned)
        note_pinned(b, a);
    follow_up(r, b, d->slot);
    sink_judged(r, b);
    release_big(a, b);
}
