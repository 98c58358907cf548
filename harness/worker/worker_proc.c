/*
 * worker_proc.c - the process the parent spawns (wire/channel.h): loading
 * the candidate, then serving as the slot's zygote (zygote.c) or as its
 * worker (worker_loop.c).  Depends on exec.h, wire.h, zygote.h and
 * POSIX/Linux process calls.
 */
#define _GNU_SOURCE
#include "worker.h"

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
#include "proc/proc.h"
#include "exec.h"
#include "zygote.h"

/* Receives the binding: the slot index (into *idx) and the arena's memfd.
 * Returns the fd, or -1. */
static int receive_binding(int *idx)
{
    int fd;
    return worker_receive(idx, sizeof *idx, &fd, 1) == 1 ? fd : -1;
}

_Noreturn void worker_serve(const worker_args *w)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != w->parent)
        _exit(0);
    signal(SIGPIPE, SIG_DFL);
    worker_close_from(w->sb ? SANDBOX_FD_WATCH + 1 : SANDBOX_FD_WATCH);
    setvbuf(stdout, NULL, _IONBF, 0);
    setvbuf(stderr, NULL, _IONBF, 0);
    on_exit(worker_exit_now, NULL);

    bounds_worker(w->parent, w->sb);    /* before the sandbox hides /proc and /sys */
    worker_hello hello;
    memset(&hello, 0, sizeof hello);
    sandbox_facts facts = {.candidate_fd = -1};
    if (reaper_become_subreaper() != 0) {
        hello.state = 's';
        snprintf(hello.probe.message, sizeof hello.probe.message,
                 "cannot make the worker a child subreaper: %s", strerror(errno));
    } else if (w->sb) {
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
    char load[64];
    const reshape_candidate *cand = candidate_open_as(
        sandbox_load_path(&facts, w->candidate, load, sizeof load), w->candidate, &hello.probe);
    if (facts.candidate_fd >= 0)
        close(facts.candidate_fd);  /* mapped now, or refused */
    candidate_stage_fd = -1;
    hello.state = cand ? 'r' : 'x';
    /* a thread the candidate started while loading would be missing from
     * a fork, and a lock it holds would stay held there */
    hello.forkable = cand && zygote_supported() && zygote_threads() == 1;
    hello.strays = reaper_children_alive();
    if (write(WORKER_FD_RESP, &hello, sizeof hello) != (ssize_t)sizeof hello || !cand)
        _exit(0);
    /* the candidate's view of the slot's arena, with the fault handler: a
     * zygote's is made ready a cell at a time, by its forks, from cell 0 */
    int idx = 0, fd = receive_binding(&idx);
    if (idx & WORKER_BIND_NO_ZYGOTE)
        hello.forkable = 0;
    arena a;
    if (fd < 0 || (hello.forkable ? arena_attach_lazy(&a, fd, w->big_src, w->big_dst) ||
                                        arena_ready_cell(&a, 0)
                                  : arena_attach(&a, fd, w->big_src, w->big_dst)))
        _exit(0);
    exec_install_fault_handler(&a, a.wview, WORKER_FD_RESP);
    if (hello.forkable) {
        /* on the CPU of its slot's thread in the harness, which its forks
         * start on too; each gets every CPU back at its first batch
         * (proc/cpus.h) */
        cpus_remember();
        (void)cpus_pin(idx);
        zygote_serve(w, cand, &a);
    }
    arena_populate_cells(&a, a.wview, 1);
    worker_run(cand, &a, 0);
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
