/*
 * worker.c - the engine of worker.h, the parent's side: creating the
 * slots and their arenas, starting (spawn.c) and binding (pool.c) their
 * workers, submitting a batch, finishing and stopping.  Waiting for a
 * batch's end is wait.c.  Depends on engine_int.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "proc/proc.h"
#include "census.h"
#include "engine_int.h"
#include "worker/worker.h"

/* Creates the arena of slot `s` of `e`.  Only the in-process engine
 * keeps the candidate's view: a worker maps its own, and here it would use
 * up map areas (hundreds an arena; a few hundred arenas hit the kernel's
 * vm.max_map_count).  Returns 0, or -1 with *err set. */
static int slot_arena(engine *e, slot *s, char **err)
{
    if (arena_create(&s->ar, e->big_src, e->big_dst) != 0) {
        *err = xasprintf("cannot create shared memory of %zu bytes: %s",
                         e->big_src + e->big_dst, strerror(errno));
        return -1;
    }
    if (e->mode != ISO_NONE)
        arena_drop_wview(&s->ar);
    return 0;
}

engine *engine_start(isolation mode, int nslots, const char *path, int timeout_ms,
                     const sandbox_policy *sb, size_t big_src, size_t big_dst, wire_probe *probe,
                     char **err)
{
    engine *e = xcalloc(1, sizeof *e);
    pthread_mutex_init(&e->lock, NULL);
    pthread_rwlock_init(&e->forks, NULL);
    e->owner = pthread_self();
    spawner_init(&e->sp);
    e->mode = mode;
    memset(probe, 0, sizeof *probe);
    if (sb && mode != ISO_NONE) {
        e->watch = sandbox_watch_start(sb, err);
        if (!e->watch) {
            spawner_destroy(&e->sp);
            pthread_rwlock_destroy(&e->forks);
            pthread_mutex_destroy(&e->lock);
            free(e);
            return NULL;
        }
        e->sb = sb;
        e->sb_words = sandbox_policy_words(sb, &e->nsb_words);
    }
    e->want_spares = 1;
    deadline_init(&e->dl, timeout_ms);
    if (mode != ISO_NONE)
        groups_watch();
    if (mode != ISO_NONE)
        bounds_harness_start();
    if (mode != ISO_NONE && reaper_become_subreaper() != 0)
        warn("cannot make the harness a child subreaper (%s): what a dead worker's candidate "
             "left running is not found", strerror(errno));
    e->nslots = mode == ISO_NONE ? 1 : (nslots < 1 ? 1 : nslots);
    e->path = xstrdup(path);
    e->exe = engine_worker_exe();
    e->timeout_ms = timeout_ms;
    e->slots = xcalloc((size_t)e->nslots + ENGINE_MORE_SLOTS, sizeof *e->slots);
    e->done = xcalloc((size_t)e->nslots, sizeof *e->done);
    e->spares = xcalloc((size_t)e->nslots + 1, sizeof *e->spares);
    e->big_src = big_src;
    e->big_dst = big_dst;
    signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < e->nslots + ENGINE_MORE_SLOTS; i++) {
        e->slots[i].ar.fd = -1;
        e->slots[i].limit = ARENA_CELLS;
    }
    /* the first process loads and checks the candidate, then waits as a
     * spare; one more per slot loads meanwhile (each becomes a slot's
     * zygote, or its worker when the candidate cannot be forked), and
     * while they load the parent makes the arenas, so none is waited for */
    if (mode != ISO_NONE) {
        if (proc_spawn(e, &e->spares[0], err) != 0) {
            engine_stop(e);
            return NULL;
        }
        e->nspares = 1;
        engine_top_up_spares(e, e->nslots);
    }
    for (int i = 0; i < e->nslots; i++) {
        if (slot_arena(e, &e->slots[i], err) != 0) {
            engine_stop(e);
            return NULL;
        }
        arena_populate_cells(&e->slots[i].ar, e->slots[i].ar.pview, 0);
    }
    if (mode == ISO_NONE) {
        arena_populate_cells(&e->slots[0].ar, e->slots[0].ar.wview, 1);
        e->inproc = candidate_open(e->path, probe);
        if (!e->inproc) {
            *err = xstrdup(probe->message);
            engine_stop(e);
            return NULL;
        }
        return e;
    }
    if (proc_await_ready(e, &e->spares[0], err) != 0) {
        *probe = e->hello.probe;
        e->spares[0] = e->spares[--e->nspares];
        engine_stop(e);
        return NULL;
    }
    *probe = e->hello.probe;
    /* bind every slot now, so that the run starts with loaded workers */
    for (int i = 0; i < e->nslots; i++)
        if (engine_bind_worker(e, i, err) != 0) {
            engine_stop(e);
            return NULL;
        }
    for (int i = 0; i < e->nslots; i++)
        proc_await_bound(e, &e->slots[i].w);
    return e;
}

int engine_sandbox_summary(engine *e, sandbox_summary *out)
{
    if (!e->watch)
        return -1;
    sandbox_watch_summary(e->watch, out);
    return 0;
}

int engine_add_slot(engine *e, int full, char **err)
{
    pthread_mutex_lock(&e->lock);
    int i = -1, *made = full ? &e->nfull : &e->nrun;
    slot *s = &e->slots[engine_made(e)];
    if (*made >= (full ? ENGINE_FULL_SLOTS : ENGINE_MORE_RUN_SLOTS)) {
        *err = xasprintf("%s slots are made already", full ? "all full-budget" : "all added");
    } else if (slot_arena(e, s, err) == 0) {
        s->full = full;
        if (!full)      /* a full-budget slot runs one request at a time */
            arena_populate_cells(&s->ar, s->ar.pview, 0);
        i = engine_made(e);
        __atomic_store_n(made, *made + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&e->lock);
    return i;
}

int64_t engine_cpu_ns(engine *e)
{
    struct rusage self, children;
    int64_t ns = 0;
    if (getrusage(RUSAGE_SELF, &self) == 0 && getrusage(RUSAGE_CHILDREN, &children) == 0)
        ns = ((int64_t)self.ru_utime.tv_sec + self.ru_stime.tv_sec + children.ru_utime.tv_sec +
              children.ru_stime.tv_sec) * 1000000000 +
             ((int64_t)self.ru_utime.tv_usec + self.ru_stime.tv_usec +
              children.ru_utime.tv_usec + children.ru_stime.tv_usec) * 1000;
    long hz = sysconf(_SC_CLK_TCK);
    int n = engine_made(e);
    for (int i = 0; e->mode != ISO_NONE && i < n; i++) {
        pid_t z = __atomic_load_n(&e->slots[i].z.pid, __ATOMIC_RELAXED);
        unsigned long long ticks;
        if (z > 0 && proc_cpu_ticks(z, &ticks) == 0)
            ns += (int64_t)(ticks * 1000000000ull / (unsigned long long)(hz > 0 ? hz : 100));
    }
    return ns;
}

int engine_added_slots(const engine *e)
{
    return __atomic_load_n(&e->nrun, __ATOMIC_RELAXED);
}

int engine_slots(const engine *e)
{
    return e->nslots;
}

pid_t engine_worker_pid(const engine *e, int i)
{
    if (e->mode == ISO_NONE)
        return getpid();
    const proc *p = &e->slots[i].w;
    return p->pid > 0 && p->ready ? p->pid : 0;
}

isolation engine_isolation(const engine *e)
{
    return e->mode;
}

arena *engine_arena(engine *e, int i)
{
    return &e->slots[i].ar;
}

int engine_batch_limit(const engine *e, int i)
{
    if (e->mode == ISO_FORK || __atomic_load_n(&e->chatty, __ATOMIC_RELAXED) ||
        __atomic_load_n(&e->forky, __ATOMIC_RELAXED))
        return 1;
    return e->mode == ISO_NONE ? ARENA_CELLS : e->slots[i].limit;
}

int engine_threads_end(const engine *e)
{
    return __atomic_load_n(&e->threads_end, __ATOMIC_RELAXED);
}

/* Describes the staged requests of slot `s` for the deadline rule. */
static void describe_batch(slot *s, const int *cells, int n)
{
    for (int k = 0; k < n; k++) {
        const cell *cl = &s->ar.cells[cells[k]];
        const wire_request *q = arena_request(cl, s->ar.pview);
        long calls = q->kind == REQ_REPEAT ? (long)q->warmup + q->calls
                     : q->kind == REQ_THREADS ? (long)q->ncalls * q->iters : 1;
        deadline_describe(&s->req[k], q->call[0].op, q->call[0].special_zero,
                          cl->src_size + cl->dst_size, calls);
        /* not the phase an earlier request of the cell ended in */
        __atomic_store_n(&arena_response(cl, s->ar.pview)->phase, PHASE_IDLE, __ATOMIC_RELAXED);
        if (q->kind == REQ_THREADS)
            s->req[k].own_ns = (int64_t)q->budget_ms * 1000000;
        if (s->full)
            s->req[k].short_ns = INT64_MAX;     /* never short (deadline.h) */
    }
}

int engine_submit(engine *e, int i, const int *cells, int n, char **err)
{
    slot *s = &e->slots[i];
    wire_batch *b = arena_batch(s->ar.pview);
    b->seq = __atomic_add_fetch(&e->seq, 1, __ATOMIC_RELAXED);
    b->n = n;
    memcpy(b->cells, cells, (size_t)n * sizeof *cells);
    __atomic_store_n(&b->running, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->started_ns, engine_mono_ns(), __ATOMIC_RELEASE);
    s->n = n;
    if (e->mode == ISO_NONE) {
        exec_batch(&s->ar, s->ar.wview, e->inproc);
        e->done[e->ndone++] = i;
        return 0;
    }
    /* a process no earlier request touched: retire one that ran a batch */
    if (s->w.pid > 0 && s->w.batches > 0 && (e->mode == ISO_FORK || s->want_fresh))
        proc_leave_dying(e, &s->w);
    s->want_fresh = 0;
    if (s->w.pid == 0 && engine_bind_worker(e, i, err) != 0)
        return -1;
    s->fresh_batch = s->w.batches++ == 0;
    describe_batch(s, cells, n);
    census_batch(s, i, cells, n);
    s->out_bytes = s->attr_bytes = s->head_len = 0;
    s->attr_at = 0;
    s->head[0] = '\0';
    s->busy = 1;
    /* the submit time counts against request 0 until the worker starts it;
     * the parent's own copies bound what the worker writes (wait.c) */
    memcpy(s->cells, cells, (size_t)n * sizeof *cells);
    s->submit_ns = engine_mono_ns();
    for (int k = 0; k < n; k++) {
        int64_t full = deadline_full_ns(&e->dl, &s->req[k]);
        int64_t before = k ? s->cap_ns[k - 1] : s->submit_ns;
        s->cap_ns[k] = before > INT64_MAX - full ? INT64_MAX : before + full;
    }
    __atomic_store_n(&b->started_ns, s->submit_ns, __ATOMIC_RELEASE);
    char c = 'q';
    if (write(s->w.req_w, &c, 1) != 1) {
        /* it died between batches; the poll loop reports it */
    }
    return 0;
}

void engine_fresh(engine *e, int i)
{
    e->slots[i].want_fresh = 1;
}

int engine_load_worker(engine *e, int i, char **err)
{
    slot *s = &e->slots[i];
    if (e->mode == ISO_NONE || (s->w.pid > 0 && s->w.ready))
        return 0;
    if (s->w.pid == 0 && engine_bind_worker(e, i, err) != 0)
        return -1;
    proc_await_bound(e, &s->w);
    return 0;
}

pid_t engine_zygote_pid(const engine *e, int i)
{
    return e->mode == ISO_NONE ? 0 : e->slots[i].z.pid;
}

void engine_finish(engine *e)
{
    for (int i = 0, n = engine_made(e); i < n; i++) {
        proc *all[3] = {&e->slots[i].w, &e->slots[i].z, &e->slots[i].spare};
        for (int k = 0; k < 3; k++)
            if (all[k]->pid > 0 && all[k]->req_w >= 0) {
                close(all[k]->req_w);   /* EOF: it exits by itself */
                all[k]->req_w = -1;
            }
    }
    /* spares have nothing to finish, and one may still be loading a
     * candidate that hangs */
    for (int k = 0; k < e->nspares; k++) {
        proc *p = &e->spares[k];
        if (p->pid > 0 && p->req_w >= 0) {
            kill(p->pid, SIGKILL);
            close(p->req_w);
            p->req_w = -1;
        }
    }
}

int engine_stop(engine *e)
{
    proc *all[4 * (256 + ENGINE_MORE_SLOTS) + 1];
    int np = 0, nslots = engine_made(e);
    engine_finish(e);
    for (int i = 0; i < nslots; i++) {
        all[np++] = &e->slots[i].w;
        all[np++] = &e->slots[i].z;
    }
    for (int i = 0; i < nslots; i++)
        all[np++] = &e->slots[i].spare;
    for (int k = 0; k < e->nspares; k++)
        all[np++] = &e->spares[k];
    for (int k = 0; k < np; k++) {
        proc *p = all[k];
        if (p->pid > 0) {
            int st;
            while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
                ;
            /* a zygote ends by itself at EOF; one that was killed meanwhile
             * had no fork to make since */
            if (k % 2 && k < 2 * nslots && WIFSIGNALED(st))
                warn("the zygote of slot %d (pid %ld) was killed during the run: signal %d (%s)",
                     k / 2, (long)p->pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
            groups_remove(p->pid);
            close(p->resp_r);
            close(p->out_r);
            p->pid = 0;
        }
    }
    engine_reap_dying(e, 1);
    if (e->mode != ISO_NONE)
        engine_sweep(e);
    free(e->dying);
    if (e->mode != ISO_NONE)
        bounds_harness_stop();
    for (int i = 0, n = engine_made(e); i < n; i++) {
        arena_destroy(&e->slots[i].ar);
        free(e->slots[i].samples);
    }
    free(e->slots);
    free(e->spares);
    free(e->done);
    free(e->path);
    free(e->exe);
    pthread_mutex_destroy(&e->lock);
    pthread_rwlock_destroy(&e->forks);
    spawner_destroy(&e->sp);
    sandbox_watch_stop(e->watch);
    sandbox_words_free(e->sb_words);
    int strays = e->strays;
    free(e);
    return strays;
}
