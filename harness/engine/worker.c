/*
 * worker.c - the engine of worker.h, the parent's side: starting workers
 * (worker_proc.h; one spare always started and loaded in advance, so that
 * replacing a dead worker costs no spawn and no dlopen), binding them to
 * slots, the poll loop, per-request timeouts, output capture.  Depends on
 * exec.h, wire.h, worker_proc.h and POSIX/Linux process calls.
 */
#define _GNU_SOURCE
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#include "base/base.h"
#include "deadline.h"
#include "exec.h"
#include "reaper.h"
#include "spawner.h"
#include "worker_proc.h"

/* A worker process and the parent's ends of its pipes. */
typedef struct proc {
    pid_t pid;              /* 0: none */
    int req_w, resp_r, out_r;
    int ready;              /* it said it loaded the candidate */
} proc;

typedef struct slot {
    arena ar;
    proc w;
    int busy, n;
    size_t out_bytes;       /* the batch's output */
    int attr_at;            /* the request its latest output is pinned on */
    size_t attr_bytes;      /* output pinned on request attr_at */
    size_t head_len;
    char head[ENGINE_OUTPUT_HEAD + 1];
    deadline_req req[ARENA_CELLS];  /* the batch's requests, for deadline.h */
} slot;

struct engine {
    pthread_mutex_t lock;               /* spares, dying and hello: the slots'
                                           threads share them (schedule.c) */
    isolation mode;
    int nslots;
    slot *slots;
    char *path;
    int timeout_ms;
    uint32_t seq;
    proc *spares;                       /* forked, not yet bound to a slot */
    int nspares;
    pid_t *dying;                       /* killed or dying, not yet reaped */
    int ndying, capdying;
    size_t big_src, big_dst;            /* of each arena's big cell */
    worker_hello hello;                 /* the latest worker's, when it loaded */
    int chatty;
    int sandbox;                        /* workers install sandbox.h's filter */
    int forky;                          /* a worker left children running */
    int sweep_due;
    int want_spares;                    /* spares to keep loaded: 1, or a slot's
                                           worth once workers hang */                      /* a worker ended: its orphans come here */
    int strays;                         /* processes killed that no result counts */
    deadline dl;
    char load_tail[ENGINE_OUTPUT_HEAD + 1];     /* end of a loading worker's output */
    pthread_t owner;                    /* the thread that started the engine */
    spawner sp;                         /* starts workers for the other threads */
    const reshape_candidate *inproc;    /* ISO_NONE */
    int *done;                          /* ISO_NONE: finished slots */
    int ndone;
};

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* ----------------------------------------------------------- the parent */

static void reap(proc *p, int *wstatus)
{
    int st = 0;
    if (p->pid > 0)
        while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
            ;
    if (wstatus)
        *wstatus = st;
    if (p->pid > 0) {
        close(p->req_w);
        close(p->resp_r);
        close(p->out_r);
    }
    p->pid = 0;
    p->ready = 0;
}

/* Kills a worker and everything below it; returns how many processes
 * below it were running. */
static int kill_proc(proc *p, int *wstatus)
{
    int below = 0;
    if (p->pid > 0) {
        kill(p->pid, SIGKILL);
        below = reaper_kill_descendants(p->pid);
    }
    reap(p, wstatus);
    return below;
}

static char *describe_status(int st)
{
    if (WIFSIGNALED(st))
        return xasprintf("signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    return xasprintf("exit status %d", WEXITSTATUS(st));
}

/* Moves `fd` to a number of at least 10 (close-on-exec), so that setting
 * up a worker's fds 0-4 never overwrites a source still to be copied. */
static int move_high(int fd)
{
    if (fd >= 10)
        return fd;
    int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    close(fd);
    return h;
}

/* The forked worker of --isolation fork: it gives up the parent's views
 * of every arena (it maps its own slot's view when bound) and serves. */
static _Noreturn void forked_worker(engine *e, const worker_args *w, int req, int resp, int out)
{
    for (int i = 0; i < e->nslots; i++) {
        arena_drop_pview(&e->slots[i].ar);
        arena_drop_wview(&e->slots[i].ar);
    }
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
        dup2(req, WORKER_FD_REQ) < 0 || dup2(resp, WORKER_FD_RESP) < 0)
        _exit(127);
    worker_serve(w);
}

/*
 * Starts a worker into `p`; it loads the candidate on its own.  A worker
 * is the harness binary itself run as `__worker` (posix_spawn: no fork of
 * the parent's memory, whose pages would otherwise each take a
 * copy-on-write fault when the parent next writes them), or with
 * --isolation fork a fork() that serves one batch.  Returns 0, or -1 with
 * *err set.
 */
static int spawn_here(engine *e, proc *p, char **err)
{
    int req[2], resp[2], out[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, req)) {
        *err = xasprintf("cannot create a socket pair: %s", strerror(errno));
        return -1;
    }
    if (pipe2(resp, O_CLOEXEC)) {
        *err = xasprintf("cannot create pipes: %s", strerror(errno));
        close(req[0]);
        close(req[1]);
        return -1;
    }
    if (pipe2(out, O_CLOEXEC)) {
        *err = xasprintf("cannot create pipes: %s", strerror(errno));
        for (int k = 0; k < 2; k++) {
            close(req[k]);
            close(resp[k]);
        }
        return -1;
    }
    req[1] = move_high(req[1]);
    resp[1] = move_high(resp[1]);
    out[1] = move_high(out[1]);
    pid_t pid = -1;
    int rc = 0;
    worker_args w = {e->path, e->big_src, e->big_dst, getpid(), e->mode == ISO_FORK, e->sandbox};
    if (req[1] < 0 || resp[1] < 0 || out[1] < 0) {
        rc = errno;
    } else if (e->mode == ISO_FORK) {
        fflush(stdout);
        fflush(stderr);
        pid = fork();
        if (pid == 0)
            forked_worker(e, &w, req[1], resp[1], out[1]);
        rc = pid < 0 ? errno : 0;
    } else {
        char src[32], dst[32], parent[32], sandbox[2] = {e->sandbox ? '1' : '0', '\0'};
        snprintf(src, sizeof src, "%zu", e->big_src);
        snprintf(dst, sizeof dst, "%zu", e->big_dst);
        snprintf(parent, sizeof parent, "%ld", (long)w.parent);
        char *argv[] = {"reshape-conform", "__worker", e->path, src, dst, parent, sandbox, NULL};
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_adddup2(&fa, out[1], 2);
        posix_spawn_file_actions_adddup2(&fa, req[1], WORKER_FD_REQ);
        posix_spawn_file_actions_adddup2(&fa, resp[1], WORKER_FD_RESP);
        rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
    }
    close(req[1]);
    close(resp[1]);
    close(out[1]);
    if (rc != 0 || pid <= 0) {
        *err = xasprintf("cannot start a worker: %s", strerror(rc ? rc : EAGAIN));
        close(req[0]);
        close(resp[0]);
        close(out[0]);
        return -1;
    }
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    *p = (proc){pid, req[0], resp[0], out[0], 0};
    return 0;
}

struct spawn_request {
    engine *e;
    proc *p;
    char **err;
};

static int spawn_requested(void *arg)
{
    struct spawn_request *r = arg;
    return spawn_here(r->e, r->p, r->err);
}

/* Starts a worker into *p, on the thread that started the engine or else
 * through the engine's spawner: a worker dies with the thread that
 * started it (spawner.h). */
static int spawn(engine *e, proc *p, char **err)
{
    if (pthread_equal(pthread_self(), e->owner))
        return spawn_here(e, p, err);
    struct spawn_request r = {e, p, err};
    return spawner_call(&e->sp, spawn_requested, &r);
}

/* Reads what a worker printed before it was bound, keeping the last
 * ENGINE_OUTPUT_HEAD bytes in e->load_tail. */
static void discard_output(engine *e, proc *p)
{
    char buf[4096];
    ssize_t n;
    while ((n = read(p->out_r, buf, sizeof buf)) > 0) {
        size_t have = strlen(e->load_tail), k = (size_t)n, cap = ENGINE_OUTPUT_HEAD;
        if (k >= cap) {
            memcpy(e->load_tail, buf + k - cap, cap);
            e->load_tail[cap] = '\0';
            continue;
        }
        if (have + k > cap) {
            memmove(e->load_tail, e->load_tail + (have + k - cap), cap - k);
            have = cap - k;
        }
        memcpy(e->load_tail + have, buf, k);
        e->load_tail[have + k] = '\0';
    }
}

/* Appends the end of what a loading worker printed to *err. */
static void add_load_tail(engine *e, char **err)
{
    char *t = e->load_tail;
    size_t n = strlen(t);
    while (n > 0 && (t[n - 1] == '\n' || t[n - 1] == '\r'))
        t[--n] = '\0';
    if (!n)
        return;
    for (char *c = t; *c; c++)
        if ((unsigned char)*c < 32 && *c != '\n')
            *c = ' ';
    char *m = xasprintf("%s; its output ended with:\n%s", *err, t);
    free(*err);
    *err = m;
}

/* Waits until worker `p` has loaded the candidate.  Returns 0, or -1 with
 * *err set and the worker gone; e->hello.probe.state is then 2 when it is
 * the candidate's doing (it refused, died or hung while loading). */
static int await_ready(engine *e, proc *p, char **err)
{
    e->load_tail[0] = '\0';
    char stage = 0;
    /* loading is not a request: a short --timeout-ms must not make a busy
     * machine's slow spawn a failure */
    int load_ms = e->timeout_ms > ENGINE_LOAD_MIN_MS ? e->timeout_ms : ENGINE_LOAD_MIN_MS;
    int64_t deadline = mono_ns() + (int64_t)load_ms * 1000000;
    while (!p->ready) {
        struct pollfd f[2] = {{p->resp_r, POLLIN, 0}, {p->out_r, POLLIN, 0}};
        int64_t left = (deadline - mono_ns()) / 1000000;
        if (left < 0) {
            discard_output(e, p);
            kill_proc(p, NULL);
            *err = xasprintf("candidate '%s' did not load within %d ms (killed)", e->path,
                             load_ms);
            e->hello.probe.state = 2;
            add_load_tail(e, err);
            return -1;
        }
        if (poll(f, 2, (int)left + 1) < 0 && errno != EINTR) {
            kill_proc(p, NULL);
            *err = xasprintf("cannot poll a worker: %s", strerror(errno));
            return -1;
        }
        if (f[1].revents)
            discard_output(e, p);
        if (!f[0].revents)
            continue;
        char first;
        int got = read_full(p->resp_r, &first, 1) == 0;
        if (got && (first == EXEC_STAGE_DLOPEN || first == EXEC_STAGE_ENTRY)) {
            stage = first;
            continue;
        }
        e->hello.state = first;
        got = got && read_full(p->resp_r, (char *)&e->hello + 1, sizeof e->hello - 1) == 0;
        if (got && e->hello.state == 'r') {
            p->ready = 1;
            break;
        }
        int st;
        discard_output(e, p);
        kill_proc(p, &st);
        if (got && e->hello.state == 's') {
            e->hello.probe.state = 0;   /* the harness's failure, not the candidate's */
            *err = xstrdup(e->hello.probe.message);
        } else if (got) {
            *err = xstrdup(e->hello.probe.state == 2 ? e->hello.probe.message
                                                     : "candidate refused to load");
            e->hello.probe.state = 2;
        } else {
            char *how = describe_status(st);
            *err = xasprintf("candidate '%s' died while loading, %s: %s", e->path,
                             stage == EXEC_STAGE_ENTRY ? "in " RESHAPE_CANDIDATE_ENTRY "()"
                             : stage == EXEC_STAGE_DLOPEN ? "in dlopen (its constructors)"
                                                          : "before dlopen", how);
            free(how);
            e->hello.probe.state = 2;
        }
        add_load_tail(e, err);
        return -1;
    }
    discard_output(e, p);
    return 0;
}

/* Leaves a worker that is dying to be reaped later, so that its teardown
 * (slow under a hypervisor) does not hold the run up. */
static void leave_dying(engine *e, proc *p)
{
    pthread_mutex_lock(&e->lock);
    if (p->pid > 0) {
        kill(p->pid, SIGKILL);
        if (e->ndying == e->capdying) {
            e->capdying = e->capdying ? 2 * e->capdying : 16;
            e->dying = xrealloc(e->dying, (size_t)e->capdying * sizeof *e->dying);
        }
        e->dying[e->ndying++] = p->pid;
        close(p->req_w);
        close(p->resp_r);
        close(p->out_r);
    }
    p->pid = 0;
    p->ready = 0;
    pthread_mutex_unlock(&e->lock);
}

/* Kills and reaps the children of the harness that are no worker of the
 * engine's: what dead workers' candidates left running (reaper.h).  Under
 * the lock, or from the one thread driving every slot. */
static void sweep(engine *e)
{
    __atomic_store_n(&e->sweep_due, 0, __ATOMIC_RELAXED);
    pid_t *known = xmalloc(((size_t)2 * e->nslots + 1 + (size_t)e->ndying) * sizeof *known);
    int n = 0;
    for (int i = 0; i < e->nslots; i++)
        if (e->slots[i].w.pid > 0)
            known[n++] = e->slots[i].w.pid;
    for (int k = 0; k < e->nspares; k++)
        if (e->spares[k].pid > 0)
            known[n++] = e->spares[k].pid;
    for (int k = 0; k < e->ndying; k++)
        known[n++] = e->dying[k];
    e->strays += reaper_sweep(known, n);
    free(known);
}

/* Kills what runs below a hung or flooding worker, then the worker, and
 * leaves it to be reaped later (its teardown is slow under a hypervisor);
 * from now on a spare per slot is kept, as more hangs are likely.  Returns
 * how many processes below it ran. */
static int kill_late(engine *e, proc *p)
{
    int below = p->pid > 0 ? reaper_kill_descendants(p->pid) : 0;
    __atomic_store_n(&e->want_spares, e->nslots, __ATOMIC_RELAXED);
    leave_dying(e, p);
    return below;
}

/* Reaps the dying workers that have ended (all of them with `block`),
 * then sweeps up what they left. */
static void reap_dying(engine *e, int block)
{
    int n = 0, reaped = 0;
    for (int k = 0; k < e->ndying; k++) {
        int st;
        pid_t r;
        while ((r = waitpid(e->dying[k], &st, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
            ;
        if (r == 0)
            e->dying[n++] = e->dying[k];
        else
            reaped = 1;
    }
    e->ndying = n;
    if (reaped || __atomic_load_n(&e->sweep_due, __ATOMIC_RELAXED))
        sweep(e);
}

/* Forks spares until there are `want`; a failure only leaves fewer. */
static void top_up_spares(engine *e, int want)
{
    while (e->nspares < want) {
        char *err = NULL;
        if (spawn(e, &e->spares[e->nspares], &err) != 0) {
            free(err);
            return;
        }
        e->nspares++;
    }
}

/* Index of a spare that has said it loaded, polling without waiting, or
 * the oldest one (which then has to be waited for). */
static int pick_spare(engine *e)
{
    for (int k = 0; k < e->nspares; k++) {
        proc *p = &e->spares[k];
        if (p->ready)
            return k;
        struct pollfd f = {p->resp_r, POLLIN, 0};
        if (poll(&f, 1, 0) == 1)
            return k;
    }
    return 0;
}

/* Sends a worker its slot index and the slot's arena memfd.  A worker
 * that died after loading is left for the submit's poll to report. */
static void send_binding(proc *p, int idx, int fd)
{
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    memset(&u, 0, sizeof u);
    struct iovec io = {&idx, sizeof idx};
    struct msghdr m = {0};
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    while (sendmsg(p->req_w, &m, MSG_NOSIGNAL) < 0 && errno == EINTR)
        ;
}

/* Gives slot `i` a worker: a spare (waiting for it to load if none has
 * yet), then forks the next spare.  Returns 0, or -1 with *err set. */
static int bind_worker(engine *e, int i, char **err)
{
    slot *s = &e->slots[i];
    top_up_spares(e, 1);
    if (e->nspares == 0) {
        *err = xasprintf("cannot fork a worker: %s", strerror(errno));
        return -1;
    }
    int k = pick_spare(e);
    proc p = e->spares[k];
    e->spares[k] = e->spares[--e->nspares];
    if (await_ready(e, &p, err) != 0)
        return -1;
    s->w = p;
    send_binding(&s->w, i, s->ar.fd);
    return 0;   /* the next spare is forked while the parent would wait anyway */
}

/* Waits, up to the timeout, for a freshly bound worker to say it is warm
 * (WORKER_BOUND), so that the first batch does not wait for that.  A worker
 * that dies or says nothing meanwhile is left for the first batch's poll
 * to report; a late WORKER_BOUND is skipped there. */
static void await_bound(engine *e, proc *p)
{
    struct pollfd f = {p->resp_r, POLLIN, 0};
    if (poll(&f, 1, e->timeout_ms) != 1)
        return;
    char c;
    if (read(p->resp_r, &c, 1) == 1 && c != WORKER_BOUND) {
        /* EXEC_DYING: the candidate's own thread crashed it; the poll
         * reports the death */
    }
}

engine *engine_start(isolation mode, int nslots, const char *path, int timeout_ms, int sandbox,
                     size_t big_src, size_t big_dst, wire_probe *probe, char **err)
{
    engine *e = xcalloc(1, sizeof *e);
    pthread_mutex_init(&e->lock, NULL);
    e->owner = pthread_self();
    spawner_init(&e->sp);
    e->mode = mode;
    e->sandbox = sandbox;
    e->want_spares = 1;
    deadline_init(&e->dl, timeout_ms);
    memset(probe, 0, sizeof *probe);
    if (mode != ISO_NONE && reaper_become_subreaper() != 0)
        warn("cannot make the harness a child subreaper (%s): what a dead worker's candidate "
             "left running is not found", strerror(errno));
    e->nslots = mode == ISO_NONE ? 1 : (nslots < 1 ? 1 : nslots);
    e->path = xstrdup(path);
    e->timeout_ms = timeout_ms;
    e->slots = xcalloc((size_t)e->nslots, sizeof *e->slots);
    e->done = xcalloc((size_t)e->nslots, sizeof *e->done);
    e->spares = xcalloc((size_t)e->nslots + 1, sizeof *e->spares);
    e->big_src = big_src;
    e->big_dst = big_dst;
    signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < e->nslots; i++)
        e->slots[i].ar.fd = -1;
    /* the first worker loads and checks the candidate, then waits as a
     * spare; one more per slot load meanwhile, and while they load the
     * parent makes the arenas, so none is waited for */
    if (mode != ISO_NONE) {
        if (spawn(e, &e->spares[0], err) != 0) {
            engine_stop(e);
            return NULL;
        }
        e->nspares = 1;
        top_up_spares(e, e->nslots + 1);
    }
    for (int i = 0; i < e->nslots; i++) {
        if (arena_create(&e->slots[i].ar, big_src, big_dst) != 0) {
            *err = xasprintf("cannot create shared memory of %zu bytes: %s",
                             big_src + big_dst, strerror(errno));
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
    if (await_ready(e, &e->spares[0], err) != 0) {
        *probe = e->hello.probe;
        e->spares[0] = e->spares[--e->nspares];
        engine_stop(e);
        return NULL;
    }
    *probe = e->hello.probe;
    /* bind every slot now, so that the run starts with loaded workers */
    for (int i = 0; i < e->nslots; i++)
        if (bind_worker(e, i, err) != 0) {
            engine_stop(e);
            return NULL;
        }
    for (int i = 0; i < e->nslots; i++)
        await_bound(e, &e->slots[i].w);
    return e;
}

int engine_slots(const engine *e)
{
    return e->nslots;
}

isolation engine_isolation(const engine *e)
{
    return e->mode;
}

arena *engine_arena(engine *e, int i)
{
    return &e->slots[i].ar;
}

int engine_batch_limit(const engine *e)
{
    return e->mode == ISO_FORK || __atomic_load_n(&e->chatty, __ATOMIC_RELAXED) ||
                   __atomic_load_n(&e->forky, __ATOMIC_RELAXED)
               ? 1
               : ARENA_CELLS;
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
            s->req[k].short_ns += (int64_t)q->budget_ms * 1000000;
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
    __atomic_store_n(&b->started_ns, mono_ns(), __ATOMIC_RELEASE);
    s->n = n;
    if (e->mode == ISO_NONE) {
        exec_batch(&s->ar, s->ar.wview, e->inproc);
        e->done[e->ndone++] = i;
        return 0;
    }
    if (s->w.pid == 0) {
        pthread_mutex_lock(&e->lock);
        int rc = bind_worker(e, i, err);
        pthread_mutex_unlock(&e->lock);
        if (rc != 0)
            return -1;
    }
    describe_batch(s, cells, n);
    s->out_bytes = s->attr_bytes = s->head_len = 0;
    s->attr_at = 0;
    s->head[0] = '\0';
    s->busy = 1;
    /* the submit time counts against request 0 until the worker starts it */
    __atomic_store_n(&b->started_ns, mono_ns(), __ATOMIC_RELEASE);
    char c = 'q';
    if (write(s->w.req_w, &c, 1) != 1) {
        /* it died between batches; the poll loop reports it */
    }
    return 0;
}

/* The request slot `s` is running now (n - 1 once all have run). */
static int running_now(slot *s)
{
    int k = __atomic_load_n(&arena_batch(s->ar.pview)->running, __ATOMIC_ACQUIRE);
    return k < 0 ? 0 : k >= s->n ? s->n - 1 : k;
}

/* Reads what the worker wrote to stdout/stderr and pins it on the request
 * running now; keeps the first bytes of each request's. */
static void drain(engine *e, slot *s)
{
    char buf[16384];
    for (;;) {
        ssize_t n = read(s->w.out_r, buf, sizeof buf);
        if (n <= 0)
            return;
        __atomic_store_n(&e->chatty, 1, __ATOMIC_RELAXED);
        int at = running_now(s);
        if (at != s->attr_at) {
            s->attr_at = at;
            s->attr_bytes = s->head_len = 0;
            s->head[0] = '\0';
        }
        if (s->head_len < ENGINE_OUTPUT_HEAD) {
            size_t k = ENGINE_OUTPUT_HEAD - s->head_len;
            if (k > (size_t)n)
                k = (size_t)n;
            memcpy(s->head + s->head_len, buf, k);
            s->head_len += k;
            s->head[s->head_len] = '\0';
        }
        s->attr_bytes += (size_t)n;
        s->out_bytes += (size_t)n;
    }
}

static void complete(slot *s, int idx, done_kind kind, int at, int wstatus, completion *out)
{
    out->strays = 0;
    out->budget_ms = 0;
    out->slot = idx;
    out->kind = kind;
    out->n = s->n;
    out->at = kind == DONE_OK ? s->n : at;
    out->wstatus = wstatus;
    out->output_bytes = s->out_bytes;
    if (kind != DONE_OK && s->attr_at != at)
        out->output_head[0] = '\0';
    else
        memcpy(out->output_head, s->head, s->head_len + 1);
    s->busy = 0;
}

/* The phase (wire_phase) request `at` of slot `s` is in. */
static int phase_of(slot *s, int at)
{
    const cell *cl = &s->ar.cells[arena_batch(s->ar.pview)->cells[at]];
    return __atomic_load_n(&arena_response(cl, s->ar.pview)->phase, __ATOMIC_RELAXED);
}

/* The deadline of the request slot `s` is running (deadline.h). */
static int64_t deadline_of(const engine *e, slot *s)
{
    int64_t started = __atomic_load_n(&arena_batch(s->ar.pview)->started_ns, __ATOMIC_ACQUIRE);
    int at = running_now(s);
    return started + deadline_budget_ns(&e->dl, &s->req[at], phase_of(s, at),
                                        mono_ns() - started);
}

/* When the parent looks at slot `s` again: the running request's
 * deadline, or sooner, when the batch's running or later requests may get
 * a short budget meanwhile (deadline_recheck_ns). */
static int64_t look_at(const engine *e, slot *s)
{
    int at = running_now(s);
    int64_t d = deadline_of(e, s);
    int64_t again = mono_ns() + deadline_recheck_ns(&e->dl, &s->req[at], s->n - at);
    return again < d ? again : d;
}


/* Checks slot `i` after a poll; returns 1 and fills `out` when its batch
 * ended. */
static int check_slot(engine *e, int i, const struct pollfd *po, const struct pollfd *pr,
                      completion *out)
{
    slot *s = &e->slots[i];
    if (po->revents)
        drain(e, s);
    if (s->attr_bytes > ENGINE_FLOOD_BYTES) {
        int at = s->attr_at;
        int below = kill_late(e, &s->w);
        complete(s, i, DONE_FLOOD, at, 0, out);
        out->strays = below;
        return 1;
    }
    if (pr->revents) {
        char c;
        ssize_t r = read(s->w.resp_r, &c, 1);
        /* what the worker wrote before answering was in the pipe when
         * poll looked (po->revents); a death may leave last words after */
        if (r != 1 || c == EXEC_DYING)
            drain(e, s);
        if (r == 1 && c == WORKER_BOUND) {
            /* a worker bound during the run says it is warm: no answer */
            return 0;
        }
        if (r == 1 && c == EXEC_DYING) {
            /* the fault handler recorded the signal in the response and
             * said so: the death is known without waiting for the end */
            int at = running_now(s);
            const cell *cl = &s->ar.cells[arena_batch(s->ar.pview)->cells[at]];
            int sig = arena_response(cl, s->ar.pview)->fault_signal;
            leave_dying(e, &s->w);
            complete(s, i, DONE_DIED, at, sig > 0 && sig < 128 ? sig : SIGKILL, out);
        } else if (r == 1) {
            if (e->mode == ISO_FORK)
                reap(&s->w, NULL);
            if (s->attr_bytes > ENGINE_FLOOD_BYTES) {
                int at = s->attr_at;
                kill_proc(&s->w, NULL);
                complete(s, i, DONE_FLOOD, at, 0, out);
            } else {
                int below = 0;
                if (c == WORKER_STRAYS) {
                    /* the worker stays; from now on every batch is one
                     * request, so the next finding is pinned exactly */
                    below = reaper_kill_descendants(s->w.pid);
                    __atomic_store_n(&e->forky, 1, __ATOMIC_RELAXED);
                }
                complete(s, i, DONE_OK, s->n, 0, out);
                out->strays = below;
            }
        } else {
            int st, at = running_now(s);
            reap(&s->w, &st);
            __atomic_store_n(&e->sweep_due, 1, __ATOMIC_RELAXED);
            complete(s, i, DONE_DIED, at, st, out);
        }
        return 1;
    }
    int64_t started = __atomic_load_n(&arena_batch(s->ar.pview)->started_ns, __ATOMIC_ACQUIRE);
    int64_t now = mono_ns();
    if (now >= deadline_of(e, s)) {
        int at = running_now(s), phase = phase_of(s, at);
        int64_t budget = deadline_budget_ns(&e->dl, &s->req[at], phase, now - started);
        int below = kill_late(e, &s->w);
        deadline_timed_out(&e->dl, &s->req[at], phase);
        complete(s, i, DONE_TIMEOUT, at, 0, out);
        out->budget_ms = budget / 1000000;
        out->strays = below;
        return 1;
    }
    return 0;
}

int engine_wait(engine *e, completion *out)
{
    if (e->mode == ISO_NONE) {
        if (e->ndone == 0)
            return -1;
        int i = e->done[--e->ndone];
        memset(out, 0, sizeof *out);
        out->slot = i;
        out->kind = DONE_OK;
        out->n = out->at = e->slots[i].n;
        return 0;
    }
    struct pollfd p[2 * 256];
    int map[256], forked = 0;
    for (;;) {
        int n = 0, busy = 0;
        int64_t now = mono_ns(), next = now + (int64_t)3600 * 1000000000;
        for (int i = 0; i < e->nslots; i++) {
            slot *s = &e->slots[i];
            if (!s->busy)
                continue;
            int64_t d = look_at(e, s);
            next = d < next ? d : next;
            map[busy++] = i;
            p[n++] = (struct pollfd){s->w.out_r, POLLIN, 0};
            p[n++] = (struct pollfd){s->w.resp_r, POLLIN, 0};
        }
        if (!busy)
            return -1;
        /* about to wait: the moment to fork a spare and reap the dead */
        if (e->nspares < e->want_spares && !forked) {
            forked = 1;
            top_up_spares(e, e->want_spares);
            continue;
        }
        if (e->ndying || __atomic_load_n(&e->sweep_due, __ATOMIC_RELAXED))
            reap_dying(e, 0);
        int64_t left = (next - now) / 1000000 + 1;
        if (poll(p, (nfds_t)n, left < 0 ? 0 : (int)left) < 0 && errno != EINTR)
            die(EXIT_HARNESS, "cannot poll the workers: %s", strerror(errno));
        for (int k = 0; k < busy; k++)
            if (check_slot(e, map[k], &p[2 * k], &p[2 * k + 1], out))
                return 0;
    }
}

int engine_wait_slot(engine *e, int i, completion *out)
{
    slot *s = &e->slots[i];
    if (e->mode == ISO_NONE)
        return engine_wait(e, out);
    if (!s->busy)
        return -1;
    for (;;) {
        /* about to wait: the moment to start a spare and reap the dead,
         * unless another slot's thread is at it (a contended lock would
         * cost a futex call each way) */
        if (pthread_mutex_trylock(&e->lock) == 0) {
            int want = __atomic_load_n(&e->want_spares, __ATOMIC_RELAXED);
            if (e->nspares < want)
                top_up_spares(e, want);
            if (e->ndying || __atomic_load_n(&e->sweep_due, __ATOMIC_RELAXED))
                reap_dying(e, 0);
            pthread_mutex_unlock(&e->lock);
        }
        struct pollfd p[2] = {{s->w.out_r, POLLIN, 0}, {s->w.resp_r, POLLIN, 0}};
        int64_t left = (look_at(e, s) - mono_ns()) / 1000000 + 1;
        if (poll(p, 2, left < 0 ? 0 : (int)left) < 0 && errno != EINTR)
            die(EXIT_HARNESS, "cannot poll a worker: %s", strerror(errno));
        if (check_slot(e, i, &p[0], &p[1], out))
            return 0;
    }
}

void engine_finish(engine *e)
{
    for (int i = 0; i < e->nslots; i++) {
        proc *p = &e->slots[i].w;
        if (p->pid > 0 && p->req_w >= 0) {
            close(p->req_w);        /* EOF: the worker exits by itself */
            p->req_w = -1;
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
    proc *all[2 * 256 + 1];
    int np = 0;
    engine_finish(e);
    for (int i = 0; i < e->nslots; i++)
        all[np++] = &e->slots[i].w;
    for (int k = 0; k < e->nspares; k++)
        all[np++] = &e->spares[k];
    for (int k = 0; k < np; k++) {
        proc *p = all[k];
        if (p->pid > 0) {
            int st;
            while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
                ;
            close(p->resp_r);
            close(p->out_r);
            p->pid = 0;
        }
    }
    reap_dying(e, 1);
    if (e->mode != ISO_NONE)
        sweep(e);
    free(e->dying);
    for (int i = 0; i < e->nslots; i++)
        arena_destroy(&e->slots[i].ar);
    free(e->slots);
    free(e->spares);
    free(e->done);
    free(e->path);
    pthread_mutex_destroy(&e->lock);
    spawner_destroy(&e->sp);
    int strays = e->strays;
    free(e);
    return strays;
}
