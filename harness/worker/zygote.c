/*
 * zygote.c - a slot's zygote (zygote.h): fork requests, the clone that
 * makes a worker, and the worker's first steps.  Depends on zygote.h,
 * reaper.h and Linux clone, prctl and /proc.
 */
#define _GNU_SOURCE
#include "zygote.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc/proc.h"

#if defined(__x86_64__) || defined(__aarch64__)
#define ZYGOTE_CAN_CLONE 1
#else
#define ZYGOTE_CAN_CLONE 0
#endif

int zygote_supported(void)
{
    return ZYGOTE_CAN_CLONE;
}

int zygote_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* What the clone must give the child so that glibc's view of its one
 * thread is right: the address glibc keeps the thread's id at (the kernel
 * writes the child's id there, as glibc's own fork has it do) and the
 * robust-futex list head, which a new process does not inherit. */
typedef struct thread_state {
    int *tid_addr;
    void *robust_head;
    size_t robust_len;
} thread_state;

static void thread_state_read(thread_state *t)
{
    memset(t, 0, sizeof *t);
    if (prctl(PR_GET_TID_ADDRESS, &t->tid_addr) != 0)
        t->tid_addr = NULL;
    if (syscall(SYS_get_robust_list, 0, &t->robust_head, &t->robust_len) != 0)
        t->robust_head = NULL;
}

/* A clone of the calling process whose parent is the caller's parent:
 * returns the child's pid in the caller, 0 in the child, -1 with errno. */
static pid_t clone_beside(const thread_state *t)
{
#if ZYGOTE_CAN_CLONE
    unsigned long flags = CLONE_PARENT | SIGCHLD;
    if (t->tid_addr)
        flags |= CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID;
#if defined(__x86_64__)
    /* flags, stack, parent_tid, child_tid, tls */
    return (pid_t)syscall(SYS_clone, flags, NULL, NULL, t->tid_addr, NULL);
#else
    /* flags, stack, parent_tid, tls, child_tid */
    return (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, t->tid_addr);
#endif
#else
    (void)t;
    errno = ENOSYS;
    return -1;
#endif
}

/* The new worker's first steps (wire/channel.h, step 3), then its batches.
 * `fds` are its output pipe, its socket and its answer pipe. */
static _Noreturn void become_worker(const worker_args *w, const reshape_candidate *cand,
                                    const thread_state *t, arena *a, const int fds[3])
{
    if (t->robust_head)
        syscall(SYS_set_robust_list, t->robust_head, t->robust_len);
    if (dup2(fds[0], 1) < 0 || dup2(fds[0], 2) < 0 || dup2(fds[1], WORKER_FD_REQ) < 0 ||
        dup2(fds[2], WORKER_FD_RESP) < 0)
        _exit(127);
    /* the arena stays mapped; its memfd is the parent's business */
    worker_close_from(WORKER_FD_RESP + 1);
    a->fd = -1;
    setpgid(0, 0);
    /* dies with the harness's thread that is its parent; exits if that
     * thread ended before this line */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != w->parent)
        _exit(0);
    reaper_become_subreaper();
    worker_run(cand, a, 1);
}

_Noreturn void zygote_serve(const worker_args *w, const reshape_candidate *cand, arena *a)
{
    thread_state t;
    thread_state_read(&t);
    /* fd 0 is the one descriptor a worker keeps from its zygote: /dev/null
     * again, whatever the constructors put there (an fd whose owner, the
     * process its signals go to, they made the zygote) */
    int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (nul < 0 || dup2(nul, 0) != 0)
        _exit(0);
    close(nul);
    for (;;) {
        /* what the constructors left running was killed by the parent */
        while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
            ;
        zygote_request q;
        int fds[3];
        int k = worker_receive(&q, sizeof q, fds, 3);
        if (k < 0)
            _exit(0);
        int32_t answer = -EINVAL;
        if (q.op == ZYGOTE_FORK && k == 3) {
            pid_t pid = clone_beside(&t);
            if (pid == 0)
                become_worker(w, cand, &t, a, fds);
            answer = pid > 0 ? (int32_t)pid : -errno;
        }
        for (int j = 0; j < k; j++)
            close(fds[j]);
        if (write(WORKER_FD_RESP, &answer, sizeof answer) != (ssize_t)sizeof answer)
            _exit(0);
    }
}
