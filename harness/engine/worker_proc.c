/*
 * worker_proc.c - the worker process (worker_proc.h).  Depends on exec.h,
 * wire.h and POSIX/Linux process calls.
 */
#define _GNU_SOURCE
#include "worker_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/base.h"
#include "exec.h"
#include "fd_pass.h"
#include "reaper.h"
#include "sandbox.h"

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

/* Receives the binding: the slot index and the arena's memfd.  Returns the
 * fd, or -1. */
static int receive_binding(void)
{
    int idx, fd;
    ssize_t n = fd_recv(WORKER_FD_REQ, &idx, sizeof idx, &fd, 0);
    if (n != (ssize_t)sizeof idx && fd >= 0)
        close(fd);
    return n == (ssize_t)sizeof idx ? fd : -1;
}

_Noreturn void worker_serve(const worker_args *w)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != w->parent)
        _exit(0);
    signal(SIGPIPE, SIG_DFL);
    close_from(w->sb ? SANDBOX_FD_WATCH + 1 : SANDBOX_FD_WATCH);
    setvbuf(stdout, NULL, _IONBF, 0);
    setvbuf(stderr, NULL, _IONBF, 0);
    on_exit(exit_now, NULL);

    worker_hello hello;
    memset(&hello, 0, sizeof hello);
    if (reaper_become_subreaper() != 0) {
        hello.state = 's';
        snprintf(hello.probe.message, sizeof hello.probe.message,
                 "cannot make the worker a child subreaper: %s", strerror(errno));
    } else if (w->sb) {
        sandbox_facts facts;
        if (sandbox_confine(w->sb, &facts, hello.probe.message, sizeof hello.probe.message) != 0 ||
            sandbox_install(hello.probe.message, sizeof hello.probe.message) != 0)
            hello.state = 's';
    }
    if (hello.state == 's') {
        if (write(WORKER_FD_RESP, &hello, sizeof hello) != (ssize_t)sizeof hello) {
            /* the parent reads the death */
        }
        _exit(0);
    }
    char stage = EXEC_STAGE_DLOPEN;
    if (write(WORKER_FD_RESP, &stage, 1) != 1)
        _exit(0);
    candidate_stage_fd = WORKER_FD_RESP;
    const reshape_candidate *cand = candidate_open(w->candidate, &hello.probe);
    candidate_stage_fd = -1;
    hello.state = cand ? 'r' : 'x';
    if (write(WORKER_FD_RESP, &hello, sizeof hello) != (ssize_t)sizeof hello || !cand)
        _exit(0);

    int fd = receive_binding();
    arena a;
    if (fd < 0 || arena_attach(&a, fd, w->big_src, w->big_dst) != 0)
        _exit(0);
    arena_populate_cells(&a, a.wview, 1);
    exec_install_fault_handler(&a, a.wview, WORKER_FD_RESP);
    char c = WORKER_BOUND;
    if (write(WORKER_FD_RESP, &c, 1) != 1)
        _exit(0);
    for (;;) {
        ssize_t n = read(WORKER_FD_REQ, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            channel_failed(WORKER_FD_REQ, errno);
        if (n == 0)
            _exit(0);
        exec_batch(&a, a.wview, cand);
        if (reaper_children_alive() != 0)
            c = WORKER_STRAYS;
        if (write(WORKER_FD_RESP, &c, 1) != 1)
            channel_failed(WORKER_FD_RESP, errno);
        if (w->once)
            _exit(0);
    }
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = (size_t)v;
    return 0;
}

int cmd_worker(int argc, char **argv)
{
    static sandbox_policy policy;   /* the parent's: never freed here */
    worker_args w = {0};
    size_t parent;
    size_t sandbox;
    if (argc < 6 || parse_size(argv[2], &w.big_src) || parse_size(argv[3], &w.big_dst) ||
        parse_size(argv[4], &parent) || parse_size(argv[5], &sandbox) ||
        (sandbox && sandbox_policy_parse(&policy, argc - 6, argv + 6) != 0)) {
        fprintf(stderr, "reshape-conform: '__worker' is started by the harness itself, "
                        "not by hand\n");
        return EXIT_USAGE;
    }
    w.candidate = argv[1];
    w.parent = (pid_t)parent;
    w.sb = sandbox ? &policy : NULL;
    worker_serve(&w);
}
