/*
 * worker_loop.c - a worker's batches (wire/channel.h, steps 3 and 4), the
 * end of a worker whose candidate calls exit() or closes its channel,
 * receiving a message with descriptors on fd 3, and closing inherited
 * descriptors.  For the spawned process (worker_proc.c)
 * and a zygote's forks (zygote.c).  Depends on exec.h, fd_pass.h, reaper.h,
 * zygote.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"
#include "wire/wire.h"
#include "proc/proc.h"
#include "zygote.h"

void worker_close_from(int lowest)
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

int worker_receive(void *data, size_t len, int *fds, int maxfds)
{
    int k;
    ssize_t n = fd_recv_n(WORKER_FD_REQ, data, len, fds, maxfds, &k, 0);
    if (n == (ssize_t)len)
        return k;
    while (k > 0)
        close(fds[--k]);
    return -1;
}

/* The worker's pid once it serves batches, else 0. */
static pid_t serving;

/* A candidate that calls exit() ends the process here, at once and with
 * its status: later exit handlers (a sanitizer's leak check, the
 * candidate's destructors) would only slow the death down.  A worker says
 * so first (not a child the candidate forked, which shares its fds). */
void worker_exit_now(int status, void *arg)
{
    (void)arg;
    char c = WORKER_EXITING;
    if (serving && getpid() == serving && write(WORKER_FD_RESP, &c, 1) != 1) {
        /* fd 4 is gone: the parent finds the end without it */
    }
    _exit(status);
}

/* The worker's fd `fd` to the parent failed with `err`: EBADF means the
 * candidate closed it.  Says so on stderr and exits with
 * WORKER_EXIT_LOST_CHANNEL; any other failure (the parent is gone) exits
 * quietly. */
static _Noreturn void channel_failed(int fd, int err)
{
    if (err == EBADF) {
        char line[160];
        int n = snprintf(line, sizeof line, "reshape-conform: worker: lost its channel to the "
                         "harness: fd %d was closed (by the candidate)\n", fd);
        if (write(2, line, (size_t)n) < 0) {
            /* stderr is gone too: the exit status still says it */
        }
        _exit(WORKER_EXIT_LOST_CHANNEL);
    }
    _exit(0);
}

_Noreturn void worker_run(const reshape_candidate *cand, arena *a, int forked)
{
    serving = getpid();
    int on_zygote_cpu = forked;
    exec_set_sampler(WORKER_FD_REQ, WORKER_FD_RESP);
    exec_seal_worker();     /* its calls' output is sealed as they return */
    /* a fork has nothing to warm up: it says nothing */
    char c = WORKER_BOUND;
    if (!forked && write(WORKER_FD_RESP, &c, 1) != 1)
        _exit(0);
    for (;;) {
        ssize_t n = read(WORKER_FD_REQ, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            channel_failed(WORKER_FD_REQ, errno);
        if (n == 0)
            _exit(0);
        /* the children the last batch left ended (or the parent killed
         * them) are reaped only now, after the parent looked: a zombie is
         * the kernel's record that a call started a process and did not
         * wait for it (engine/census_final.c) */
        while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
            ;
        /* a fork woke on its zygote's CPU, where the harness's thread of
         * the slot runs; the candidate gets every CPU (proc/cpus.h) */
        if (on_zygote_cpu) {
            (void)cpus_release();
            on_zygote_cpu = 0;
        }
        exec_batch(a, a->wview, cand);
        if (reaper_has_child())
            c = WORKER_STRAYS;
        if (write(WORKER_FD_RESP, &c, 1) != 1)
            channel_failed(WORKER_FD_RESP, errno);
    }
}
