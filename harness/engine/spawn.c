/*
 * spawn.c - one process of wire/channel.h: spawning it (posix_spawn of
 * reshape-conform-worker as `__worker`, in a process group of its own),
 * asking a zygote for a worker (zygote.h), killing a process with what
 * runs below it, reaping it.  Its hello is hello.c's.  Depends on
 * engine_int.h.
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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "engine_int.h"
#include "wire/wire.h"
#include "proc/proc.h"

extern char **environ;

int64_t engine_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int engine_read_full(int fd, void *buf, size_t n)
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
        groups_remove(p->pid);
        close(p->req_w);
        close(p->resp_r);
        close(p->out_r);
    }
    p->pid = 0;
    p->ready = 0;
}

/* Waits until `p` has ended or CLOCK_MONOTONIC passes `by` (ns), through
 * a pidfd (Linux 5.3; without one, until it ends), without reaping it.
 * Returns 0 when it ended, 1 when it still runs at `by`. */
int proc_await_end(proc *p, int64_t by)
{
    int fd = p->pid > 0 ? (int)syscall(SYS_pidfd_open, p->pid, 0) : -1;
    if (fd < 0) {
        siginfo_t si;
        while (p->pid > 0 && waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOWAIT) < 0 &&
               errno == EINTR)
            ;
        return 0;
    }
    for (;;) {
        int64_t left = (by - engine_mono_ns()) / 1000000;
        struct pollfd f = {fd, POLLIN, 0};
        int r = poll(&f, 1, left < 0 ? 0 : (int)left + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0 && left >= 0)
            continue;
        close(fd);
        return r == 0;
    }
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

/* Creates the three channels of a process (wire/channel.h): a socket pair
 * for fd 3, a pipe for fd 4 and one for fds 1 and 2; the child's ends are
 * req[1], resp[1] and out[1], with `high` moved above fd 9 (for
 * posix_spawn's dup2 onto fds 1-4).  Returns 0, or -1 with *err set and
 * nothing left open. */
static int make_channels(int req[2], int resp[2], int out[2], int high, char **err)
{
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
    if (!high)
        return 0;
    req[1] = move_high(req[1]);
    resp[1] = move_high(resp[1]);
    out[1] = move_high(out[1]);
    if (req[1] >= 0 && resp[1] >= 0 && out[1] >= 0)
        return 0;
    *err = xasprintf("cannot create pipes: %s", strerror(errno));
    int *all[] = {req, resp, out};
    for (int k = 0; k < 3; k++) {
        close(all[k][0]);
        if (all[k][1] >= 0)
            close(all[k][1]);
    }
    return -1;
}

/* Closes the child's ends; on failure (`ok` 0) the parent's too. */
static void close_channels(int req[2], int resp[2], int out[2], int ok)
{
    close(req[1]);
    close(resp[1]);
    close(out[1]);
    if (ok)
        return;
    close(req[0]);
    close(resp[0]);
    close(out[0]);
}

/*
 * Spawns a process of wire/channel.h into `p`: e->exe (engine_worker_exe)
 * with the harness's `__worker` command line (posix_spawn: no fork of the
 * parent's memory, whose pages would otherwise each take a copy-on-write
 * fault when the parent next writes them), in a process group of its own.
 * It loads the candidate on its own.  Returns 0, or -1 with *err set.
 */
static int proc_spawn_here(engine *e, proc *p, char **err)
{
    int req[2], resp[2], out[2];
    if (make_channels(req, resp, out, 1, err) != 0)
        return -1;
    char src[32], dst[32], parent[32], sandbox[2] = {e->sb ? '1' : '0', '\0'};
    snprintf(src, sizeof src, "%zu", e->big_src);
    snprintf(dst, sizeof dst, "%zu", e->big_dst);
    snprintf(parent, sizeof parent, "%ld", (long)getpid());
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
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, e->exe, &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    close_channels(req, resp, out, rc == 0 && pid > 0);
    if (rc != 0 || pid <= 0) {
        *err = xasprintf("cannot start a worker: %s", strerror(rc ? rc : EAGAIN));
        return -1;
    }
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    /* the kernel's pid: registered, unless the table is full */
    (void)groups_claim(pid);
    *p = (proc){.pid = pid, .req_w = req[0], .resp_r = resp[0], .out_r = out[0]};
    return 0;
}

/*
 * The zygote's answer is the candidate's word (its code runs there): a pid
 * is believed only when the kernel says it is a child of the harness
 * (waitid: a worker is a clone with CLONE_PARENT, zygote.h) that is not
 * reaped (so the pid cannot be reused while the harness holds it) and
 * that no slot has claimed yet (groups_claim: not a zygote, spare or
 * worker the harness knows, not the harness's own pid or group, not 1;
 * with its table full, the child check alone).
 * A child of the harness is something the run started: a process outside
 * the run is never one.  Claims it when it is.
 */
static int proc_is_new_child(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (pid <= 1 || waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
        return 0;
    /* a full table (-2) cannot say more than waitid did */
    return groups_claim(pid) != -1;
}

int proc_fork(engine *e, proc *z, proc *p, char **err)
{
    int req[2], resp[2], out[2];
    if (make_channels(req, resp, out, 0, err) != 0)
        return -1;
    zygote_request q = {ZYGOTE_FORK};
    int fds[3] = {out[1], req[1], resp[1]}, ok = 0;
    int32_t answer = -EPIPE;
    if (fd_send_n(z->req_w, &q, sizeof q, fds, 3) == 0) {
        struct pollfd f = {z->resp_r, POLLIN, 0};
        int ms = e->timeout_ms > ENGINE_LOAD_MIN_MS ? e->timeout_ms : ENGINE_LOAD_MIN_MS;
        int r;
        while ((r = poll(&f, 1, ms)) < 0 && errno == EINTR)
            ;
        ok = r == 1 && engine_read_full(z->resp_r, &answer, sizeof answer) == 0 && answer > 0;
    }
    close_channels(req, resp, out, ok);
    if (ok && !proc_is_new_child((pid_t)answer)) {
        /* the real worker is a child no one knows: the next sweep kills
         * it; it has lost its channels already */
        *err = xasprintf("answered pid %ld for the worker its zygote forked, which is no new "
                         "child of the harness (a forged pid)", (long)answer);
        close(req[0]);
        close(resp[0]);
        close(out[0]);
        return -2;
    }
    if (!ok && answer == -EAGAIN) {
        *err = xasprintf("the zygote (pid %ld) cannot fork a worker now: %s", (long)z->pid,
                         strerror(EAGAIN));
        return -3;
    }
    if (!ok) {
        *err = answer < 0 && answer != -EPIPE
                   ? xasprintf("the zygote (pid %ld) cannot fork a worker: %s", (long)z->pid,
                               strerror((int)-answer))
                   : xasprintf("the zygote (pid %ld) did not answer", (long)z->pid);
        return -1;
    }
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    *p = (proc){.pid = (pid_t)answer, .req_w = req[0], .resp_r = resp[0], .out_r = out[0],
                 .ready = 1, .forked = 1};
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
