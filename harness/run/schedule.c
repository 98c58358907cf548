/*
 * schedule.c - batches of jobs through the engine (schedule.h): a thread
 * per slot, taking a batch (batch_queue.c), staging and submitting it,
 * waiting for it and handing it to batch_end.c; one more slot while the
 * workers keep dying on a crowded machine (widen.h).  Depends on
 * schedule_int.h, stage.h, worker.h, util.h and pthreads.
 */
#include "schedule_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/base.h"
#include "proc/proc.h"

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

/* Stages batch `b`'s jobs into slot `i` and submits it. */
static void stage_and_submit(run *r, batch *b, int i)
{
    arena *a = engine_arena(r->e, i);
    b->pinned = b->alone && b->n == 1 && r->q.again[b->jobs[0]];
    /* once a thread ended during a batch, a worker on one CPU proves each
     * return quiet as it goes: a pinned worker stays so, and serves such
     * batches only (engine_threads_end) */
    int one_cpu = b->pinned || engine_threads_end(r->e);
    for (int k = 0; k < b->n; k++) {
        /* a second run after a thread ended unseen proves its return
         * quiet on one CPU (run/batch_end.c) */
        b->stages[b->cells[k]].pinned = one_cpu;
        stage_job(&b->stages[b->cells[k]], a, &a->cells[b->cells[k]], r->set,
                  &r->q.jobs[b->jobs[k]], r->q.jobs[b->jobs[k]].seq, r->seed);
    }
    char *err = NULL;
    if (b->alone)
        engine_fresh(r->e, i);
    if (engine_submit(r->e, i, b->cells, b->n, &err) != 0)
        die(EXIT_HARNESS, "%s", err);
}

static void *slot_thread(void *p);

/* Starts one more slot, driven by a thread of its own, as widen_ended
 * asked; one that cannot start (no memory, no thread) leaves the run as
 * it is, with a warning. */
static void add_slot(run *r)
{
    char *err = NULL;
    int i = engine_add_slot(r->e, 0, &err);
    batch *b = i < 0 ? MAP_FAILED : mmap(NULL, sizeof *b, PROT_READ | PROT_WRITE,
                                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (b == MAP_FAILED) {
        warn("cannot add a slot (%s): the run goes on with the slots it has",
             err ? err : strerror(errno));
        free(err);
        widen_failed(&r->widen);
        return;
    }
    pthread_mutex_lock(&r->lock);
    slot_arg *s = &r->added[r->nadded];
    *s = (slot_arg){r, b, i, 0};
    r->nthreads++;      /* before any thread may find every slot idle */
    int rc = pthread_create(&s->tid, NULL, slot_thread, s);
    if (rc == 0) {
        r->nadded++;
    } else {
        warn("cannot add a slot (a thread: %s): the run goes on with the slots it has",
             strerror(rc));
        r->nthreads--;
        munmap(b, sizeof *b);
        widen_failed(&r->widen);
    }
    pthread_mutex_unlock(&r->lock);
}

/*
 * One thread per slot (worker isolation): slot `i` takes, stages, runs
 * and judges its batches until no job is left, in parallel with the
 * others.
 */
static void drive_slot(run *r, batch *b, int i)
{
    for (;;) {
        if (batch_next(r, b, engine_batch_limit(r->e, i)) == 0)
            return;
        stage_and_submit(r, b, i);
        completion d;
        if (engine_wait_slot(r->e, i, &d) != 0)
            die(EXIT_HARNESS, "lost track of the workers");
        batch_end(r, b, &d);
        if (r->widening && widen_ended(&r->widen, r->e, d.kind == DONE_DIED))
            add_slot(r);
    }
}

static void *slot_thread(void *p)
{
    slot_arg *s = p;
    size_t share = (size_t)s->r->q.njobs / (size_t)engine_slots(s->r->e) + 1;
    heap_warm(share < SLOT_HEAP_WARM_MAX / SLOT_HEAP_PER_JOB ? share * SLOT_HEAP_PER_JOB
                                                             : SLOT_HEAP_WARM_MAX);
    /* on its zygote's CPU (proc/cpus.h) */
    (void)cpus_pin(s->i);
    drive_slot(s->r, s->b, s->i);
    return NULL;
}

/* One thread for every slot (in-process, or a fork per batch, where the
 * process that forks should have one thread): the idle slots get a batch
 * each, then whichever ends first is judged. */
static void drive_all(run *r)
{
    int nslots = engine_slots(r->e), inflight = 0;
    int *busy = xcalloc((size_t)nslots, sizeof *busy);
    while (!batch_queue_empty(r) || inflight) {
        for (int i = 0; i < nslots && !batch_queue_empty(r); i++) {
            if (busy[i])
                continue;
            batch_take(r, &r->batches[i], engine_batch_limit(r->e, i));
            stage_and_submit(r, &r->batches[i], i);
            busy[i] = 1;
            inflight++;
        }
        completion d;
        if (engine_wait(r->e, &d) != 0)
            die(EXIT_HARNESS, "lost track of the workers");
        batch_end(r, &r->batches[d.slot], &d);
        busy[d.slot] = 0;
        inflight--;
    }
    free(busy);
}

void schedule_run(engine *e, const case_set *set, const job *jobs, int njobs, int strict,
                  int timeout_ms, uint64_t seed, int most_slots, result_sink sink, void *ctx)
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
    int threads = engine_isolation(e) == ISO_WORKER && (nslots > 1 || most_slots > nslots);
    run r = {.q = {jobs, small, 0, njobs, xmalloc((size_t)(njobs ? njobs : 1) * sizeof(int)), 0,
                   xcalloc((size_t)(njobs ? njobs : 1), 1),
                   xcalloc((size_t)(njobs ? njobs : 1), 1)},
             .e = e, .set = set, .strict = strict, .timeout_ms = timeout_ms, .seed = seed,
             .sink = sink, .ctx = ctx, .batches = batches,
             .widening = threads && most_slots > nslots};
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.more, NULL);
    widen_init(&r.widen, nslots, r.widening ? most_slots : nslots);
    if (r.widening)
        r.added = xcalloc((size_t)(most_slots - nslots), sizeof *r.added);
    if (engine_isolation(e) != ISO_NONE)
        r.confirm = confirm_new(e, set, jobs, strict, timeout_ms, seed, &r.lock, sink, ctx);
    if (threads) {
        /* the harness's CPUs, before any thread pins itself: each slot's
         * thread, zygote and forks start on one of them (proc/cpus.h) */
        cpus_remember();
        slot_arg *args = xcalloc((size_t)nslots, sizeof *args);
        int started = 1;
        pthread_mutex_lock(&r.lock);    /* nthreads is final before any waits */
        for (int i = 1; i < nslots; i++) {
            args[i] = (slot_arg){&r, &batches[i], i, 0};
            if (pthread_create(&args[i].tid, NULL, slot_thread, &args[i]) != 0)
                break;      /* fewer threads: the started ones take all jobs */
            started++;
        }
        r.nthreads = started;
        pthread_mutex_unlock(&r.lock);
        (void)cpus_pin(0);
        drive_slot(&r, &batches[0], 0);
        (void)cpus_release();
        for (int i = 1; i < started; i++)
            pthread_join(args[i].tid, NULL);
        /* every slot was idle with nothing left: none is added any more */
        pthread_mutex_lock(&r.lock);
        int nadded = r.nadded;
        pthread_mutex_unlock(&r.lock);
        for (int k = 0; k < nadded; k++)
            pthread_join(r.added[k].tid, NULL);
        free(args);
    } else {
        drive_all(&r);
    }
    if (r.confirm)
        confirm_finish(r.confirm);
    pthread_cond_destroy(&r.more);
    pthread_mutex_destroy(&r.lock);
    widen_destroy(&r.widen);
    for (int i = 0; i < nslots; i++)
        for (int k = 0; k <= ARENA_CELLS; k++)
            stage_free(&batches[i].stages[k]);
    for (int i = 0; i < r.nadded; i++) {
        for (int k = 0; k <= ARENA_CELLS; k++)
            stage_free(&r.added[i].b->stages[k]);
        munmap(r.added[i].b, sizeof(batch));
    }
    munmap(batches, bsize);
    free(r.added);
    free(small);
    free(r.q.back);
    free(r.q.alone);
    free(r.q.again);
}
