/*
 * schedule.c - batches of jobs through the engine (schedule.h).  Depends
 * on stage.h, worker.h, util.h and pthreads.
 */
#include "schedule.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/base.h"
#include "judge/judge.h"
#include "followup.h"
#include "confirm.h"

/* Big-cell memory above this is given back after its job. */
#define RELEASE_BYTES ((size_t)1 << 20)
/* Heap a slot thread maps before its first batch (util.h, heap_warm), for
 * its share of the jobs: their results' strings took ~90 page faults of a
 * thread's own heap in a default run (~150 bytes a job), ~2 ms of the run
 * under a hypervisor.  Mapping costs ~2 us a page, so no more than that. */
#define SLOT_HEAP_PER_JOB 256
#define SLOT_HEAP_WARM_MAX ((size_t)1 << 20)

int job_fits_small(const job *j, const case_set *set)
{
    size_t src, dst;
    job_needs(j, set, &src, &dst);
    return src <= ARENA_SMALL_AREA && dst <= ARENA_SMALL_AREA;
}

/* What one slot is running. */
typedef struct batch {
    int n;
    int jobs[ARENA_CELLS];      /* job indices, in batch order */
    int cells[ARENA_CELLS];
    stage stages[ARENA_CELLS + 1];
    int alone;                  /* one job that runs in a fresh process */
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
} queue;

/*
 * What the slots share.  With worker isolation each slot is driven by a
 * thread of its own; `lock` guards the queue and the sink (the judging
 * itself runs unlocked, each slot on its own arena).
 */
typedef struct run {
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
    batch *batches;
    confirmer *confirm;         /* where a short budget's TIMEOUT runs again */
} run;

static int queue_empty(const queue *q)
{
    return q->nback == 0 && q->next >= q->njobs;
}

static int queue_peek(const queue *q)
{
    return q->nback ? q->back[q->nback - 1] : q->next;
}

static void queue_pop(queue *q)
{
    if (q->nback)
        q->nback--;
    else
        q->next++;
}

/* Hands jobs[from..n) of batch `b` back, to run in their order. */
static void queue_return(queue *q, const batch *b, int from)
{
    for (int k = b->n - 1; k >= from; k--)
        q->back[q->nback++] = b->jobs[k];
}

/* Takes the next jobs for batch `b` (under the lock): small ones for
 * cells 0.., up to `limit`, or one large job alone for the big cell, or a
 * job handed back to run alone.  Returns how many. */
static int take_batch(run *r, batch *b, int limit)
{
    queue *q = &r->q;
    b->n = 0;
    b->alone = 0;
    while (!queue_empty(q) && b->n < limit) {
        int jx = queue_peek(q);
        int ci = q->small[jx] ? b->n : ARENA_BIG;
        if ((ci == ARENA_BIG || q->alone[jx]) && b->n > 0)
            break;
        if (q->alone[jx]) {
            q->alone[jx] = 0;
            b->alone = 1;
            limit = 1;
        }
        queue_pop(q);
        b->jobs[b->n] = jx;
        b->cells[b->n] = ci;
        b->n++;
        if (ci == ARENA_BIG)
            break;
    }
    return b->n;
}

static void judge_one(run *r, batch *b, int k, const arena *a, const completion *done)
{
    stage *s = &b->stages[b->cells[k]];
    stage_map_back(s, a);
    int at = b->njudged;
    b->njudged += judge_job(s, a, done, r->strict, r->timeout_ms, &b->judged[at]);
    if (followup_wanted(s, a, &b->judged[at], &b->follow[b->nfollow]))
        b->follow_at[b->nfollow++] = at;
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

static void hand_back(run *r, const batch *b, int from)
{
    pthread_mutex_lock(&r->lock);
    queue_return(&r->q, b, from);
    pthread_cond_broadcast(&r->more);
    pthread_mutex_unlock(&r->lock);
}

/* Hands jobs [from, to) of batch `b` back, each to run alone in a process
 * that no other request touched, then [to, n) as usual. */
static void hand_back_alone(run *r, const batch *b, int from, int to)
{
    pthread_mutex_lock(&r->lock);
    queue_return(&r->q, b, to);
    for (int k = to - 1; k >= from; k--) {
        r->q.back[r->q.nback++] = b->jobs[k];
        r->q.alone[b->jobs[k]] = 1;
    }
    pthread_cond_broadcast(&r->more);
    pthread_mutex_unlock(&r->lock);
}

/*
 * Takes the next batch for slot thread `b` (under the lock), waiting while
 * the queue is empty but another slot is still running a batch (a crash
 * may hand jobs back).  Returns 0 once every slot is idle and nothing is
 * left: the threads end together, after the last batch (a worker dies
 * with the thread that started it: PR_SET_PDEATHSIG).
 */
static int next_batch(run *r, batch *b, int limit)
{
    pthread_mutex_lock(&r->lock);
    int n;
    while ((n = take_batch(r, b, limit)) == 0) {
        if (++r->idle == r->nthreads) {
            pthread_cond_broadcast(&r->more);
            break;
        }
        pthread_cond_wait(&r->more, &r->lock);
        if (r->idle == r->nthreads)
            break;
        r->idle--;
    }
    pthread_mutex_unlock(&r->lock);
    return n;
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
 * request, each alone in a fresh process (harness/README.md, "Isolation");
 * a request that died in a process an earlier request had touched, alone
 * in a fresh one, and the rest; the crashed request and the rest when a
 * crash's output may be another request's; else the requests after the
 * one that ended it, which goes to the confirmer instead of the judge when
 * a short budget ran out (confirm.h).
 */
static void batch_ended(run *r, batch *b, const arena *a, const completion *d)
{
    int n = b->n, at = d->at < n ? d->at : n;
    if (n > 1 && (d->kind == DONE_FLOOD || d->output_bytes > ENGINE_FLOOD_BYTES)) {
        hand_back(r, b, 0);
        return;
    }
    if (d->kind == DONE_OK && d->threads > 0 && n > 1 && !b->alone) {
        /* threads left running may have written any dst of the batch:
         * each request runs again alone, so that the finding is its own */
        hand_back_alone(r, b, 0, n);
        return;
    }
    if (d->kind == DONE_DIED && !d->pinned && !b->alone) {
        hand_back_alone(r, b, 0, n);
        return;
    }
    completion ok;
    memset(&ok, 0, sizeof ok);
    ok.slot = d->slot;
    ok.kind = DONE_OK;
    ok.n = n;
    ok.at = n;
    ok.samples = d->samples;    /* the parent's, each request's own (census.h) */
    for (int k = 0; k < at; k++)
        judge_one(r, b, k, a, k == n - 1 && d->kind == DONE_OK ? d : &ok);
    if (at == n)
        return;
    if (d->kind == DONE_DIED && !d->fresh && !b->alone) {
        hand_back_alone(r, b, at, at + 1);
        return;
    }
    if (d->kind == DONE_DIED && n > 1 && d->output_bytes > 0) {
        hand_back(r, b, at);
        return;
    }
    if (d->kind == DONE_TIMEOUT && d->short_budget && r->confirm) {
        /* a suspect, not a TIMEOUT, until the full budget ran out too */
        confirm_add(r->confirm, b->jobs[at], r->q.small[b->jobs[at]], d->budget_ms);
        hand_back(r, b, at + 1);
        return;
    }
    judge_one(r, b, at, a, d);
    hand_back(r, b, at + 1);
}

/* Stages batch `b`'s jobs into slot `i` and submits it. */
static void stage_and_submit(run *r, batch *b, int i)
{
    arena *a = engine_arena(r->e, i);
    for (int k = 0; k < b->n; k++)
        stage_job(&b->stages[b->cells[k]], a, &a->cells[b->cells[k]], r->set,
                  &r->q.jobs[b->jobs[k]], r->q.jobs[b->jobs[k]].seq, r->seed);
    char *err = NULL;
    if (b->alone)
        engine_fresh(r->e, i);
    if (engine_submit(r->e, i, b->cells, b->n, &err) != 0)
        die(EXIT_HARNESS, "%s", err);
}

static void ended(run *r, const completion *d)
{
    arena *a = engine_arena(r->e, d->slot);
    batch_ended(r, &r->batches[d->slot], a, d);
    follow_up(r, &r->batches[d->slot], d->slot);
    sink_judged(r, &r->batches[d->slot]);
    release_big(a, &r->batches[d->slot]);
}

/*
 * One thread per slot (worker isolation): slot `i` takes, stages, runs
 * and judges its batches until no job is left, in parallel with the
 * others.
 */
static void drive_slot(run *r, int i)
{
    batch *b = &r->batches[i];
    for (;;) {
        if (next_batch(r, b, engine_batch_limit(r->e, i)) == 0)
            return;
        stage_and_submit(r, b, i);
        completion d;
        if (engine_wait_slot(r->e, i, &d) != 0)
            die(EXIT_HARNESS, "lost track of the workers");
        ended(r, &d);
    }
}

typedef struct slot_arg {
    run *r;
    int i;
} slot_arg;

static void *slot_thread(void *p)
{
    slot_arg *s = p;
    size_t share = (size_t)s->r->q.njobs / (size_t)engine_slots(s->r->e) + 1;
    heap_warm(share < SLOT_HEAP_WARM_MAX / SLOT_HEAP_PER_JOB ? share * SLOT_HEAP_PER_JOB
                                                             : SLOT_HEAP_WARM_MAX);
    drive_slot(s->r, s->i);
    return NULL;
}

/* One thread for every slot (in-process, or a fork per batch, where the
 * process that forks should have one thread): the idle slots get a batch
 * each, then whichever ends first is judged. */
static void drive_all(run *r)
{
    int nslots = engine_slots(r->e), inflight = 0;
    int *busy = xcalloc((size_t)nslots, sizeof *busy);
    while (!queue_empty(&r->q) || inflight) {
        for (int i = 0; i < nslots && !queue_empty(&r->q); i++) {
            if (busy[i])
                continue;
            take_batch(r, &r->batches[i], engine_batch_limit(r->e, i));
            stage_and_submit(r, &r->batches[i], i);
            busy[i] = 1;
            inflight++;
        }
        completion d;
        if (engine_wait(r->e, &d) != 0)
            die(EXIT_HARNESS, "lost track of the workers");
        ended(r, &d);
        busy[d.slot] = 0;
        inflight--;
    }
    free(busy);
}

void schedule_run(engine *e, const case_set *set, const job *jobs, int njobs, int strict,
                  int timeout_ms, uint64_t seed, result_sink sink, void *ctx)
{
    int nslots = engine_slots(e);
    /* mapped with its pages, not a page fault at a time during the run */
    size_t bsize = (size_t)nslots * sizeof(batch);
    batch *batches = mmap(NULL, bsize, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (batches == MAP_FAILED)
        die(EXIT_HARNESS, "out of memory");
    char *small = xmalloc((size_t)(njobs ? njobs : 1));
    for (int i = 0; i < njobs; i++)
        small[i] = (char)job_fits_small(&jobs[i], set);
    run r = {.q = {jobs, small, 0, njobs, xmalloc((size_t)(njobs ? njobs : 1) * sizeof(int)), 0,
                   xcalloc((size_t)(njobs ? njobs : 1), 1)},
             .e = e, .set = set, .strict = strict, .timeout_ms = timeout_ms, .seed = seed,
             .sink = sink, .ctx = ctx, .batches = batches};
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.more, NULL);
    if (engine_isolation(e) != ISO_NONE)
        r.confirm = confirm_new(e, set, jobs, strict, timeout_ms, seed, &r.lock, sink, ctx);
    if (engine_isolation(e) == ISO_WORKER && nslots > 1) {
        pthread_t *tids = xcalloc((size_t)nslots, sizeof *tids);
        slot_arg *args = xcalloc((size_t)nslots, sizeof *args);
        int started = 1;
        pthread_mutex_lock(&r.lock);    /* nthreads is final before any waits */
        for (int i = 1; i < nslots; i++) {
            args[i] = (slot_arg){&r, i};
            if (pthread_create(&tids[i], NULL, slot_thread, &args[i]) != 0)
                break;      /* fewer threads: the started ones take all jobs */
            started++;
        }
        r.nthreads = started;
        pthread_mutex_unlock(&r.lock);
        drive_slot(&r, 0);
        for (int i = 1; i < started; i++)
            pthread_join(tids[i], NULL);
        free(tids);
        free(args);
    } else {
        drive_all(&r);
    }
    if (r.confirm)
        confirm_finish(r.confirm);
    pthread_cond_destroy(&r.more);
    pthread_mutex_destroy(&r.lock);
    for (int i = 0; i < nslots; i++)
        for (int k = 0; k <= ARENA_CELLS; k++)
            stage_free(&batches[i].stages[k]);
    munmap(batches, bsize);
    free(small);
    free(r.q.back);
    free(r.q.alone);
}
