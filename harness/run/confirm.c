/*
 * confirm.c - suspects of a short budget run again with the full one
 * (confirm.h).  Full-budget slot i of the engine is driven by thread i,
 * started when a suspect finds no thread idle and there is room for it.
 * Depends on schedule.h, stage.h, worker.h (engine_worker_pid), room.h and
 * pthreads.
 */
#include "confirm.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"
#include "proc/proc.h"
#include "judge/judge.h"
#include "room.h"

/* Big-cell memory above this is given back after its job (as batch_end.c). */
#define CONFIRM_RELEASE_BYTES ((size_t)1 << 20)

typedef struct suspect {
    int jx, small;
    int64_t budget_ms;
} suspect;

/* A confirming thread: full-budget slot `k`, the engine's slot `i`, the
 * stages of its cell 0 and big cell. */
typedef struct confirm_slot {
    confirmer *c;
    int k, i;
    pthread_t tid;
    stage st[2];
} confirm_slot;

struct confirmer {
    engine *e;
    const case_set *set;
    const job *jobs;
    int strict, timeout_ms;
    uint64_t seed;
    pthread_mutex_t *sink_lock;
    result_sink sink;
    void *ctx;

    pthread_mutex_t lock;       /* guards what follows */
    pthread_cond_t cv;          /* a suspect queued, or closing */
    suspect *q;
    int nq, cap, head;
    int nthreads, idle, closing;
    int starting;               /* started, not yet taking suspects */
    room room;                  /* looks at the suspects beyond the base */
    room_suspect watch[CONFIRM_SLOTS];  /* slot k's running suspect */
    int quota;                  /* starts the last look that said yes allows */
    confirm_slot slots[CONFIRM_SLOTS];
};

confirmer *confirm_new(engine *e, const case_set *set, const job *jobs, int strict,
                       int timeout_ms, uint64_t seed, pthread_mutex_t *sink_lock,
                       result_sink sink, void *ctx)
{
    /* field by field: the slots make it 10 MB, and a compound literal of it
     * is a temporary on the stack unless the compiler optimizes it away
     * (at -O0, as ClusterFuzzLite builds, it overflowed an 8 MB stack) */
    confirmer *c = xcalloc(1, sizeof *c);
    c->e = e;
    c->set = set;
    c->jobs = jobs;
    c->strict = strict;
    c->timeout_ms = timeout_ms;
    c->seed = seed;
    c->sink_lock = sink_lock;
    c->sink = sink;
    c->ctx = ctx;
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->cv, NULL);
    return c;
}

/* Appends SCHEDULE_RERUN_NOTE's sentence (schedule.h) to the detail of
 * `r`: it ran again with the full budget after a short one of `budget_ms`
 * ran out. */
static void note(result *r, int64_t budget_ms)
{
    char *d = xasprintf("%s%s" SCHEDULE_RERUN_NOTE " after the adaptive budget of %lld ms ran "
                        "out", r->detail, *r->detail ? "; " : "", (long long)budget_ms);
    free(r->detail);
    r->detail = d;
}

static void hand_over(confirmer *c, result *out, int n)
{
    pthread_mutex_lock(c->sink_lock);
    for (int k = 0; k < n; k++)
        c->sink(c->ctx, &out[k]);
    pthread_mutex_unlock(c->sink_lock);
}

/* A suspect that cannot run again (no slot for it: `why`): its TIMEOUT
 * stands, saying so, for every case of its job. */
static void unconfirmed(confirmer *c, const suspect *x, const char *why)
{
    const job *j = &c->jobs[x->jx];
    result out[WIRE_THREADS];
    int n = 0;
    for (int t = 0; t < j->ncases; t++) {
        int k = 0;
        while (k < n && out[k].case_index != j->cases[t])
            k++;
        if (k < n)
            continue;
        out[n++] = (result){j->cases[t], j->v, VD_TIMEOUT,
                            xasprintf("no return within %lld ms (adaptive budget); not run "
                                      "again with the full budget: %s", (long long)x->budget_ms,
                                      why),
                            xstrdup("timeout"), -1};
    }
    hand_over(c, out, n);
}

/* Slot `s` runs a suspect in process `pid` now (0: none any more): its
 * CPU time from here on is what looks at the room count (room.h). */
static void watch(confirmer *c, const confirm_slot *s, pid_t pid)
{
    room_suspect w = {pid, 0};
    if (pid > 0 && proc_cpu_ticks(pid, &w.seen) != 0)
        w.pid = 0;              /* it has ended already */
    pthread_mutex_lock(&c->lock);
    c->watch[s->k] = w;
    pthread_mutex_unlock(&c->lock);
}

/* Runs suspect `x` alone in slot `s` with the full budget and hands its
 * results, noted, to the sink. */
static void confirm_one(confirmer *c, confirm_slot *s, const suspect *x)
{
    char *err = NULL;
    if (s->i < 0)
        s->i = engine_add_slot(c->e, 1, &err);
    if (s->i < 0) {
        unconfirmed(c, x, err);
        free(err);
        return;
    }
    const job *j = &c->jobs[x->jx];
    arena *a = engine_arena(c->e, s->i);
    int ci = x->small ? 0 : ARENA_BIG;
    stage *st = &s->st[ci == ARENA_BIG];
    stage_job(st, a, &a->cells[ci], c->set, j, j->seq, c->seed);
    if (engine_submit(c->e, s->i, &ci, 1, &err) != 0)
        die(EXIT_HARNESS, "%s", err);
    watch(c, s, engine_worker_pid(c->e, s->i));
    completion d;
    if (engine_wait_slot(c->e, s->i, &d) != 0)
        die(EXIT_HARNESS, "lost track of the workers");
    watch(c, s, 0);
    stage_map_back(st, a);
    result out[WIRE_THREADS];
    int n = judge_job(st, a, &d, c->strict, c->timeout_ms, out);
    for (int k = 0; k < n; k++)
        note(&out[k], x->budget_ms);
    hand_over(c, out, n);
    if (ci == ARENA_BIG && st->used_bytes > CONFIRM_RELEASE_BYTES) {
        arena_release(a, a->cells[ci].src_off, a->cells[ci].src_size);
        arena_release(a, a->cells[ci].dst_off, a->cells[ci].dst_size);
        st->moat_end = 0;
    }
}

/* The next suspect into *x; 0 once closing and none is left. */
static int take(confirmer *c, suspect *x)
{
    pthread_mutex_lock(&c->lock);
    for (;;) {
        if (c->head < c->nq) {
            *x = c->q[c->head++];
            pthread_mutex_unlock(&c->lock);
            return 1;
        }
        if (c->closing) {
            pthread_mutex_unlock(&c->lock);
            return 0;
        }
        c->idle++;
        pthread_cond_wait(&c->cv, &c->lock);
        c->idle--;
    }
}

static void *slot_main(void *p)
{
    confirm_slot *s = p;
    /* a slot's thread, pinned to its CPU, may have started this one */
    (void)cpus_release();
    pthread_mutex_lock(&s->c->lock);
    s->c->starting--;
    pthread_mutex_unlock(&s->c->lock);
    suspect x;
    while (take(s->c, &x))
        confirm_one(s->c, s, &x);
    return NULL;
}

/* Starts thread c->nthreads.  Returns 0, or -1 when it cannot (fatal for
 * the first: then no suspect could ever be judged).  Under c->lock. */
static int start(confirmer *c)
{
    confirm_slot *s = &c->slots[c->nthreads];
    s->c = c;
    s->k = c->nthreads;
    s->i = -1;
    if (pthread_create(&s->tid, NULL, slot_main, s) != 0) {
        if (c->nthreads == 0)
            die(EXIT_HARNESS, "cannot start a thread to confirm a TIMEOUT");
        return -1;
    }
    c->nthreads++;
    c->starting++;
    return 0;
}

/* Starts threads while more suspects wait than threads idle or starting: up to
 * CONFIRM_SLOTS_BASE at any time; beyond it only with a full budget of
 * CONFIRM_GROW_MS or more and as a look at the running suspects allows
 * (room.h: the CPU time they use, memory, descriptors, tasks),
 * at most half as many again a look, so that what the last ones cost
 * shows in the next look.  Returns 1 when suspects still wait for a look
 * that may allow more, else 0.  Under c->lock. */
static int grow(confirmer *c)
{
    for (;;) {
        if (c->nq - c->head <= c->idle + c->starting || c->nthreads >= CONFIRM_SLOTS)
            return 0;
        if (c->nthreads >= CONFIRM_SLOTS_BASE) {
            /* a slot costs a process start, tens of ms of CPU: worth it
             * when a suspect would otherwise wait seconds for a thread */
            if (c->timeout_ms < CONFIRM_GROW_MS)
                return 0;
            if (c->quota == 0) {
                room_raise_fd_limit();
                if (room_look(&c->room, CONFIRM_FDS_EACH, CONFIRM_TASKS_EACH, c->watch,
                              c->nthreads))
                    c->quota = c->nthreads / 2;
            }
            if (c->quota == 0)
                return 1;
            c->quota--;
        }
        if (start(c) != 0)
            return 0;
    }
}

void confirm_add(confirmer *c, int jx, int small, int64_t budget_ms)
{
    pthread_mutex_lock(&c->lock);
    if (c->nq == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->q = xrealloc(c->q, (size_t)c->cap * sizeof *c->q);
    }
    c->q[c->nq++] = (suspect){jx, small, budget_ms};
    grow(c);
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->lock);
}

void confirm_finish(confirmer *c)
{
    pthread_mutex_lock(&c->lock);
    c->closing = 1;
    pthread_cond_broadcast(&c->cv);
    /* no suspect comes any more to make room for the waiting ones: look
     * at the running ones again each ROOM_INTERVAL_NS while they wait */
    while (grow(c)) {
        pthread_mutex_unlock(&c->lock);
        struct timespec pause = {0, ROOM_INTERVAL_NS};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&c->lock);
    }
    int started = c->nthreads;
    pthread_mutex_unlock(&c->lock);
    for (int i = 0; i < started; i++) {
        pthread_join(c->slots[i].tid, NULL);
        for (int k = 0; k < 2; k++)
            stage_free(&c->slots[i].st[k]);
    }
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->lock);
    free(c->q);
    free(c);
}
