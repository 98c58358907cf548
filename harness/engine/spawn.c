/*
 * spawn.c - one worker process (worker_proc.h): starting it (posix_spawn
 * of the harness itself as `reshape-conform __worker`, or a fork with
 * --isolation fork), waiting for its hello (loaded or refused) with what
 * it printed while loading, killing it with what runs below it, reaping
 * it.  Depends on engine_int.h.
 */
#define _GNU_SOURCE
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

#include "base/base.h"
#include "engine_int.h"
#include "exec.h"
#include "reaper.h"

extern char **environ;

int64_t engine_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int engine_read_full(int fd, void *buf, size_t n)
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

void proc_reap(proc *p, int *wstatus)
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
int proc_kill(proc *p, int *wstatus)
{
    int below = 0;
    if (p->pid > 0) {
        kill(p->pid, SIGKILL);
        below = reaper_kill_descendants(p->pid);
    }
    proc_reap(p, wstatus);
    return below;
}

static char *proc_describe_status(int st)
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
    for (int i = 0; i < e->nslots + e->nfull; i++) {
        arena_drop_pview(&e->slots[i].ar);
        arena_drop_wview(&e->slots[i].ar);
    }
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
        dup2(req, WORKER_FD_REQ) < 0 || dup2(resp, WORKER_FD_RESP) < 0 ||
        (e->watch && dup2(sandbox_watch_worker_fd(e->watch), SANDBOX_FD_WATCH) < 0))
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
static int proc_spawn_here(engine *e, proc *p, char **err)
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
    worker_args w = {e->path, e->big_src, e->big_dst, getpid(), e->mode == ISO_FORK, e->sb};
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
        char src[32], dst[32], parent[32], sandbox[2] = {e->sb ? '1' : '0', '\0'};
        snprintf(src, sizeof src, "%zu", e->big_src);
        snprintf(dst, sizeof dst, "%zu", e->big_dst);
        snprintf(parent, sizeof parent, "%ld", (long)w.parent);
        char **argv = xcalloc((size_t)e->nsb_words + 8, sizeof *argv);
        char *head[] = {"reshape-conform", "__worker", e->path, src, dst, parent, sandbox};
        memcpy(argv, head, sizeof head);
        for (int k = 0; k < e->nsb_words; k++)
            argv[7 + k] = e->sb_words[k];
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_adddup2(&fa, out[1], 2);
        posix_spawn_file_actions_adddup2(&fa, req[1], WORKER_FD_REQ);
        posix_spawn_file_actions_adddup2(&fa, resp[1], WORKER_FD_RESP);
        if (e->watch)
            posix_spawn_file_actions_adddup2(&fa, sandbox_watch_worker_fd(e->watch),
                                             SANDBOX_FD_WATCH);
        rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        free(argv);
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
    return proc_spawn_here(r->e, r->p, r->err);
}

/* Starts a worker into *p, on the thread that started the engine or else
 * through the engine's spawner: a worker dies with the thread that
 * started it (spawner.h). */
int proc_spawn(engine *e, proc *p, char **err)
{
    if (pthread_equal(pthread_self(), e->owner))
        return proc_spawn_here(e, p, err);
    struct spawn_request r = {e, p, err};
    return spawner_call(&e->sp, spawn_requested, &r);
}

/* Reads what a worker printed before it was bound, keeping the last
 * ENGINE_OUTPUT_HEAD bytes in e->load_tail. */
static void proc_discard_output(engine *e, proc *p)
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
static void engine_add_load_tail(engine *e, char **err)
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
int proc_await_ready(engine *e, proc *p, char **err)
{
    e->load_tail[0] = '\0';
    char stage = 0;
    /* loading is not a request: a short --timeout-ms must not make a busy
     * machine's slow spawn a failure */
    int load_ms = e->timeout_ms > ENGINE_LOAD_MIN_MS ? e->timeout_ms : ENGINE_LOAD_MIN_MS;
    int64_t deadline = engine_mono_ns() + (int64_t)load_ms * 1000000;
    while (!p->ready) {
        struct pollfd f[2] = {{p->resp_r, POLLIN, 0}, {p->out_r, POLLIN, 0}};
        int64_t left = (deadline - engine_mono_ns()) / 1000000;
        if (left < 0) {
            proc_discard_output(e, p);
            proc_kill(p, NULL);
            *err = xasprintf("candidate '%s' did not load within %d ms (killed)", e->path,
                             load_ms);
            e->hello.probe.state = 2;
            engine_add_load_tail(e, err);
            return -1;
        }
        if (poll(f, 2, (int)left + 1) < 0 && errno != EINTR) {
            proc_kill(p, NULL);
            *err = xasprintf("cannot poll a worker: %s", strerror(errno));
            return -1;
        }
        if (f[1].revents)
            proc_discard_output(e, p);
        if (!f[0].revents)
            continue;
        char first;
        int got = engine_read_full(p->resp_r, &first, 1) == 0;
        if (got && (first == EXEC_STAGE_DLOPEN || first == EXEC_STAGE_ENTRY)) {
            stage = first;
            continue;
        }
        e->hello.state = first;
        got = got && engine_read_full(p->resp_r, (char *)&e->hello + 1, sizeof e->hello - 1) == 0;
        if (got && e->hello.state == 'r') {
            p->ready = 1;
            break;
        }
        int st;
        pid_t pid = p->pid;
        proc_discard_output(e, p);
        proc_kill(p, &st);
        if (got && e->hello.state == 's') {
            e->hello.probe.state = 0;   /* the harness's failure, not the candidate's */
            *err = xstrdup(e->hello.probe.message);
        } else if (got) {
            *err = xstrdup(e->hello.probe.state == 2 ? e->hello.probe.message
                                                     : "candidate refused to load");
            e->hello.probe.state = 2;
        } else {
            char *how = proc_describe_status(st);
            char what[SANDBOX_ACT_BYTES];
            const char *at = stage == EXEC_STAGE_ENTRY ? "in " RESHAPE_CANDIDATE_ENTRY "()"
                             : stage == EXEC_STAGE_DLOPEN ? "in dlopen (its constructors)"
                                                          : "before dlopen";
            if (e->watch && sandbox_watch_take_stop(e->watch, pid, what, sizeof what))
                *err = xasprintf("the sandbox stopped candidate '%s' while loading, %s: it %s",
                                 e->path, at, what);
            else
                *err = xasprintf("candidate '%s' died while loading, %s: %s", e->path, at, how);
            free(how);
            e->hello.probe.state = 2;
        }
        engine_add_load_tail(e, err);
        return -1;
    }
    proc_discard_output(e, p);
    return 0;
}
