/*
 * worker.c - the engine of worker.h: spawning workers, the poll loop,
 * timeouts, output capture.  Depends on exec.h, wire.h and POSIX/Linux
 * process calls.
 */
#define _GNU_SOURCE
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"
#include "util.h"

typedef struct slot {
    arena ar;
    pid_t pid;              /* 0: no worker */
    int req_w, resp_r, out_r;
    int busy;
    double deadline;
    size_t out_bytes;
    size_t head_len;
    char head[ENGINE_OUTPUT_HEAD + 1];
} slot;

struct engine {
    isolation mode;
    int nslots;
    slot *slots;
    char *path;
    int timeout_ms;
    const reshape_candidate *inproc;    /* ISO_NONE */
    int *done;                          /* ISO_NONE: finished slots */
    int ndone;
};

/* ----------------------------------------------------------- the worker */

static void close_from(int lowest)
{
    if (close_range((unsigned)lowest, ~0u, 0) == 0)
        return;
    /* kernels before 5.9: one by one (slow with a high RLIMIT_NOFILE) */
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = lowest; fd < max; fd++)
        close(fd);
}

/* A candidate that calls exit() ends the worker here, at once and with
 * its status: later exit handlers (a sanitizer's leak check, the
 * candidate's destructors) would only slow the death down. */
static void exit_now(int status, void *arg)
{
    (void)arg;
    _exit(status);
}

/* The worker process: never returns. */
static void worker_main(engine *e, int idx, int req_r, int resp_w, int out_w, int oneshot)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGPIPE, SIG_DFL);
    int devnull = open("/dev/null", O_RDONLY);
    int r = fcntl(req_r, F_DUPFD, 10), w = fcntl(resp_w, F_DUPFD, 10);
    if (devnull < 0 || r < 0 || w < 0)
        _exit(127);
    dup2(devnull, 0);
    dup2(out_w, 1);
    dup2(out_w, 2);
    dup2(r, 3);
    dup2(w, 4);
    close_from(5);
    for (int i = 0; i < e->nslots; i++) {
        arena_drop_pview(&e->slots[i].ar);
        if (i != idx)
            arena_drop_wview(&e->slots[i].ar);
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    setvbuf(stderr, NULL, _IONBF, 0);
    on_exit(exit_now, NULL);
    arena *a = &e->slots[idx].ar;
    exec_install_fault_handler(a, a->wview);
    wire_response *resp = arena_response(a, a->wview);
    memset(resp, 0, sizeof *resp);
    const reshape_candidate *cand = candidate_open(e->path, &resp->probe);
    char c = 'r';
    if (write(4, &c, 1) != 1 || !cand)
        _exit(0);
    for (;;) {
        ssize_t n = read(3, &c, 1);
        if (n <= 0)
            _exit(0);
        exec_request(a, a->wview, cand);
        if (write(4, &c, 1) != 1 || oneshot)
            _exit(0);
    }
}

/* ----------------------------------------------------------- the parent */

static void reap(slot *s, int *wstatus)
{
    int st = 0;
    if (s->pid > 0)
        while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
            ;
    if (wstatus)
        *wstatus = st;
    close(s->req_w);
    close(s->resp_r);
    close(s->out_r);
    s->pid = 0;
    s->busy = 0;
}

static void kill_worker(slot *s, int *wstatus)
{
    if (s->pid > 0)
        kill(s->pid, SIGKILL);
    reap(s, wstatus);
}

/* Reads what the worker wrote to stdout/stderr; keeps the first bytes. */
static void drain(slot *s)
{
    char buf[16384];
    for (;;) {
        ssize_t n = read(s->out_r, buf, sizeof buf);
        if (n <= 0)
            return;
        if (s->head_len < ENGINE_OUTPUT_HEAD) {
            size_t k = ENGINE_OUTPUT_HEAD - s->head_len;
            if (k > (size_t)n)
                k = (size_t)n;
            memcpy(s->head + s->head_len, buf, k);
            s->head_len += k;
            s->head[s->head_len] = '\0';
        }
        s->out_bytes += (size_t)n;
    }
}

static char *describe_status(int st)
{
    if (WIFSIGNALED(st))
        return xasprintf("signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    return xasprintf("exit status %d", WEXITSTATUS(st));
}

/* Forks a worker for slot `idx` and waits until it has loaded the
 * candidate.  Returns 0, or -1 with *err set. */
static int spawn(engine *e, int idx, wire_probe *probe, char **err)
{
    slot *s = &e->slots[idx];
    int req[2], resp[2], out[2];
    if (pipe2(req, O_CLOEXEC) || pipe2(resp, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
        *err = xasprintf("cannot create pipes: %s", strerror(errno));
        return -1;
    }
    wire_response *r = arena_response(&s->ar, s->ar.pview);
    memset(r, 0, sizeof *r);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        *err = xasprintf("cannot fork a worker: %s", strerror(errno));
        return -1;
    }
    if (pid == 0)
        worker_main(e, idx, req[0], resp[1], out[1], e->mode == ISO_FORK);
    close(req[0]);
    close(resp[1]);
    close(out[1]);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    s->pid = pid;
    s->req_w = req[1];
    s->resp_r = resp[0];
    s->out_r = out[0];
    s->out_bytes = s->head_len = 0;
    s->head[0] = '\0';

    double deadline = now_s() + e->timeout_ms / 1000.0;
    for (;;) {
        struct pollfd p[2] = {{s->resp_r, POLLIN, 0}, {s->out_r, POLLIN, 0}};
        int left = (int)((deadline - now_s()) * 1000);
        if (left < 0) {
            kill_worker(s, NULL);
            *err = xasprintf("candidate '%s' did not load within %d ms", e->path, e->timeout_ms);
            return -1;
        }
        if (poll(p, 2, left) < 0 && errno != EINTR) {
            kill_worker(s, NULL);
            *err = xasprintf("cannot poll a worker: %s", strerror(errno));
            return -1;
        }
        if (p[1].revents)
            drain(s);
        if (p[0].revents) {
            char c;
            ssize_t n = read(s->resp_r, &c, 1);
            if (n == 1 && r->probe.state == 1) {
                if (probe)
                    *probe = r->probe;
                return 0;
            }
            int st;
            if (n == 1)
                *err = xstrdup(r->probe.message);
            kill_worker(s, &st);
            if (n != 1) {
                char *how = describe_status(st);
                *err = xasprintf("candidate '%s' died while loading: %s", e->path, how);
                free(how);
            }
            return -1;
        }
    }
}

engine *engine_start(isolation mode, int nslots, const char *path, int timeout_ms,
                     size_t src_bytes, size_t dst_bytes, wire_probe *probe, char **err)
{
    engine *e = xcalloc(1, sizeof *e);
    e->mode = mode;
    e->nslots = mode == ISO_NONE ? 1 : (nslots < 1 ? 1 : nslots);
    e->path = xstrdup(path);
    e->timeout_ms = timeout_ms;
    e->slots = xcalloc((size_t)e->nslots, sizeof *e->slots);
    e->done = xcalloc((size_t)e->nslots, sizeof *e->done);
    signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < e->nslots; i++) {
        if (arena_create(&e->slots[i].ar, src_bytes, dst_bytes) != 0) {
            *err = xasprintf("cannot create shared memory of %zu bytes: %s",
                             src_bytes + dst_bytes, strerror(errno));
            e->nslots = i;
            engine_stop(e);
            return NULL;
        }
    }
    if (mode == ISO_NONE) {
        e->inproc = candidate_open(e->path, probe);
        if (!e->inproc) {
            *err = xstrdup(probe->message);
            engine_stop(e);
            return NULL;
        }
        return e;
    }
    if (spawn(e, 0, probe, err) != 0) {
        engine_stop(e);
        return NULL;
    }
    if (mode == ISO_FORK) {
        kill_worker(&e->slots[0], NULL);
    }
    return e;
}

int engine_slots(const engine *e)
{
    return e->nslots;
}

arena *engine_arena(engine *e, int i)
{
    return &e->slots[i].ar;
}

int engine_submit(engine *e, int i, char **err)
{
    slot *s = &e->slots[i];
    if (e->mode == ISO_NONE) {
        exec_request(&s->ar, s->ar.wview, e->inproc);
        e->done[e->ndone++] = i;
        return 0;
    }
    if (s->pid == 0 && spawn(e, i, NULL, err) != 0)
        return -1;
    s->out_bytes = s->head_len = 0;
    s->head[0] = '\0';
    s->busy = 1;
    s->deadline = now_s() + e->timeout_ms / 1000.0;
    char c = 'q';
    if (write(s->req_w, &c, 1) != 1) {
        /* it died between requests; the poll loop reports it */
    }
    return 0;
}

static void complete(slot *s, int idx, done_kind kind, int wstatus, completion *out)
{
    out->slot = idx;
    out->kind = kind;
    out->wstatus = wstatus;
    out->output_bytes = s->out_bytes;
    memcpy(out->output_head, s->head, s->head_len + 1);
    s->busy = 0;
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
        return 0;
    }
    struct pollfd *p = xmalloc((size_t)e->nslots * 2 * sizeof *p);
    for (;;) {
        int n = 0, busy = 0;
        double now = now_s(), next = now + 3600;
        for (int i = 0; i < e->nslots; i++) {
            slot *s = &e->slots[i];
            if (!s->busy)
                continue;
            busy++;
            if (s->deadline < next)
                next = s->deadline;
            p[n++] = (struct pollfd){s->out_r, POLLIN, 0};
            p[n++] = (struct pollfd){s->resp_r, POLLIN, 0};
        }
        if (!busy) {
            free(p);
            return -1;
        }
        int left = (int)((next - now) * 1000) + 1;
        int got = poll(p, (nfds_t)n, left < 0 ? 0 : left);
        if (got < 0 && errno != EINTR)
            die(EXIT_HARNESS, "cannot poll the workers: %s", strerror(errno));
        now = now_s();
        for (int i = 0, k = 0; i < e->nslots; i++) {
            slot *s = &e->slots[i];
            if (!s->busy)
                continue;
            struct pollfd *po = &p[k++], *pr = &p[k++];
            if (po->revents)
                drain(s);
            if (s->out_bytes > ENGINE_FLOOD_BYTES) {
                int st;
                kill_worker(s, &st);
                complete(s, i, DONE_FLOOD, st, out);
                free(p);
                return 0;
            }
            if (pr->revents) {
                char c;
                ssize_t r = read(s->resp_r, &c, 1);
                drain(s);
                int st = 0;
                if (r == 1) {
                    if (e->mode == ISO_FORK)
                        reap(s, NULL);
                    if (s->out_bytes > ENGINE_FLOOD_BYTES) {
                        complete(s, i, DONE_FLOOD, 0, out);
                        if (s->pid)
                            kill_worker(s, NULL);
                    } else {
                        complete(s, i, DONE_OK, 0, out);
                    }
                } else {
                    reap(s, &st);
                    complete(s, i, DONE_DIED, st, out);
                }
                free(p);
                return 0;
            }
            if (now >= s->deadline) {
                int st;
                kill_worker(s, &st);
                complete(s, i, DONE_TIMEOUT, st, out);
                free(p);
                return 0;
            }
        }
    }
}

void engine_stop(engine *e)
{
    for (int i = 0; i < e->nslots; i++) {
        slot *s = &e->slots[i];
        if (s->pid > 0) {
            close(s->req_w);  /* EOF: the worker exits by itself */
            s->req_w = -1;
            int st;
            while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
                ;
            close(s->resp_r);
            close(s->out_r);
            s->pid = 0;
        }
        arena_destroy(&s->ar);
    }
    free(e->slots);
    free(e->done);
    free(e->path);
    free(e);
}
