/*
 * schedule.c - batches of jobs through the engine (schedule.h).  Depends
 * on stage.h, worker.h and util.h.
 */
#include "schedule.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "stage.h"
#include "util.h"

/* Big-cell memory above this is given back after its job. */
#define RELEASE_BYTES ((size_t)1 << 20)

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
} batch;

/* Jobs to run: those handed back by an ended batch first, then the plan. */
typedef struct queue {
    const job *jobs;
    const char *small;          /* job fits a small cell */
    int next, njobs;
    int *back, nback;           /* a stack: the top runs first */
} queue;

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

/* Stages the next jobs into slot `i`: small ones into cells 0.., up to
 * `limit`, or one large job alone in the big cell.  Returns how many. */
static int fill_batch(batch *b, queue *q, arena *a, const case_set *set, int limit,
                      uint32_t *seq, uint64_t seed)
{
    b->n = 0;
    while (!queue_empty(q) && b->n < limit) {
        int jx = queue_peek(q);
        int ci = q->small[jx] ? b->n : ARENA_BIG;
        if (ci == ARENA_BIG && b->n > 0)
            break;
        queue_pop(q);
        stage_job(&b->stages[ci], a, &a->cells[ci], set, &q->jobs[jx], ++*seq, seed);
        b->jobs[b->n] = jx;
        b->cells[b->n++] = ci;
        if (ci == ARENA_BIG)
            break;
    }
    return b->n;
}

static void judge_one(batch *b, int k, const arena *a, const completion *done, int strict,
                      int timeout_ms, result_sink sink, void *ctx)
{
    result got[WIRE_THREADS];
    stage_map_back(&b->stages[b->cells[k]], a);
    int n = judge_job(&b->stages[b->cells[k]], a, done, strict, timeout_ms, got);
    for (int t = 0; t < n; t++)
        sink(ctx, &got[t]);
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
 * and may be a flood, the crashed request and the rest when a crash's
 * output may be another request's, else the requests after the one that
 * ended it.
 */
static void batch_ended(batch *b, queue *q, const arena *a, const completion *d, int strict,
                        int timeout_ms, result_sink sink, void *ctx)
{
    int n = b->n, at = d->at < n ? d->at : n;
    if (n > 1 && (d->kind == DONE_FLOOD || d->output_bytes > ENGINE_FLOOD_BYTES)) {
        queue_return(q, b, 0);
        return;
    }
    completion ok;
    memset(&ok, 0, sizeof ok);
    ok.slot = d->slot;
    ok.kind = DONE_OK;
    ok.n = n;
    ok.at = n;
    for (int k = 0; k < at; k++)
        judge_one(b, k, a, &ok, strict, timeout_ms, sink, ctx);
    if (at == n)
        return;
    if (d->kind == DONE_DIED && n > 1 && d->output_bytes > 0) {
        queue_return(q, b, at);
        return;
    }
    judge_one(b, at, a, d, strict, timeout_ms, sink, ctx);
    queue_return(q, b, at + 1);
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
    queue q = {jobs, small, 0, njobs, xmalloc((size_t)(njobs ? njobs : 1) * sizeof(int)), 0};
    int *busy = xcalloc((size_t)nslots, sizeof *busy), inflight = 0;
    uint32_t seq = 0;
    while (!queue_empty(&q) || inflight) {
        for (int i = 0; i < nslots && !queue_empty(&q); i++) {
            if (busy[i])
                continue;
            arena *a = engine_arena(e, i);
            int n = fill_batch(&batches[i], &q, a, set, engine_batch_limit(e), &seq, seed);
            char *err = NULL;
            if (engine_submit(e, i, batches[i].cells, n, &err) != 0)
                die(EXIT_HARNESS, "%s", err);
            busy[i] = 1;
            inflight++;
        }
        completion d;
        if (engine_wait(e, &d) != 0)
            die(EXIT_HARNESS, "lost track of the workers");
        arena *a = engine_arena(e, d.slot);
        batch_ended(&batches[d.slot], &q, a, &d, strict, timeout_ms, sink, ctx);
        release_big(a, &batches[d.slot]);
        busy[d.slot] = 0;
        inflight--;
    }
    for (int i = 0; i < nslots; i++)
        for (int k = 0; k <= ARENA_CELLS; k++)
            stage_free(&batches[i].stages[k]);
    munmap(batches, bsize);
    free(small);
    free(q.back);
    free(busy);
}
