/*
 * exec_seal.c - sealing the pages a call wrote the moment it returned
 * (exec_seal.h): mprotect read-only in the worker's address space, the
 * record of what of the candidate's could still run then, and the lookup
 * the fault handler makes.  Depends on exec_seal.h and Linux (/proc/self,
 * /proc/PID/task/TID/children (proc/reaper.h), the timer system calls).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "exec_seal.h"
#include "proc/proc.h"

/* One cell's sealed pages, and the response of the request they are
 * of.  Read by the fault handler, in any thread or process sharing the
 * worker's memory: each field is written before `len` is stored. */
typedef struct seal {
    uint8_t *at;
    size_t len;                         /* 0: not sealed */
    uint64_t off;
    wire_response *r;
} seal;

static seal seals[ARENA_CELLS + 1];
static pid_t worker_pid;
static pid_t worker_tid;
/* /proc/self/timers, opened once per worker at its first seal, after the
 * mprotect (an open is the sandbox observer's to allow, a round trip to
 * the parent: one at each worker's start cost a candidate that crashes on
 * every call a third of its run), and read again from offset 0 at each
 * seal; -1 when it could not be opened.  The candidate may close it: its
 * timers are then unknown, no finding. */
static int timers_fd = -1, timers_tried;
/* The worker's threads at its last seal (or when it began serving): what
 * a call begins with, since between calls only the candidate's own threads
 * run, and a thread they start shows at the next seal all the same. */
static int last_threads;

/* /proc/self/task, opened at the worker's second seal (after the
 * mprotect: an open is a round trip to the sandbox observer, which a
 * worker that serves one request should not pay) and its device and inode
 * then; -1 before, or when it could not be opened. */
static int task_fd = -1, seals_done;
static dev_t task_dev;
static ino_t task_ino;

/* The worker's threads, from the link count of /proc/self/task (2 and one
 * per thread, as num_threads of /proc/self/stat counts them): an fstat of
 * task_fd when it is still that directory (the candidate may have closed
 * it or put another file in its place), else a stat of the path; no
 * sandbox observer sees either.  The fstat is the shorter, with no path
 * to walk (on this project's 2-core machine 0.24 to 0.32 us against 1.4 to
 * 1.6 us, 200,000 of each): less time between the return and the count,
 * where a preempted worker lets a thread write and end unseen.  0 when it
 * cannot be read. */
static int threads_of(const struct stat *st)
{
    return st->st_nlink < 3 ? 0 : (int)(st->st_nlink - 2);
}

static int threads_now(void)
{
    struct stat st;
    if (task_fd < 0 || fstat(task_fd, &st) != 0 || st.st_ino != task_ino ||
        st.st_dev != task_dev)
        if (stat("/proc/self/task", &st) != 0)
            return 0;
    return threads_of(&st);
}

/* What the window did for the next exec_seal (exec_seal_window): the
 * thread count it took, -1: none; 1 when its mprotect already sealed. */
static int counted = -1, presealed;

int exec_seal_task_fd(void)
{
    return task_fd;
}

void exec_seal_window(const struct stat *st, int sealed)
{
    /* a stat of the path before the descriptor is open; of the descriptor
     * only while it is still that directory */
    counted = st && (task_fd < 0 || (st->st_ino == task_ino && st->st_dev == task_dev))
                  ? threads_of(st) : -1;
    presealed = sealed;
}

/* `fd` moved to a number of at least SEAL_FD_LOW when the limit allows,
 * out of the way of the descriptors the candidate opens (the lowest free
 * one is its, as in a process of its own: fds 0-4 are the worker's). */
#define SEAL_FD_LOW 512
static int high(int fd)
{
    if (fd < 0 || fd >= SEAL_FD_LOW)
        return fd;
    int h = fcntl(fd, F_DUPFD_CLOEXEC, SEAL_FD_LOW);
    if (h < 0)
        return fd;
    close(fd);
    return h;
}

/* Opens task_fd, at the worker's second seal. */
static void open_task(void)
{
    struct stat st;
    int fd = high(open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd >= 0 && fstat(fd, &st) == 0) {
        task_dev = st.st_dev;
        task_ino = st.st_ino;
        task_fd = fd;
    } else if (fd >= 0) {
        close(fd);
    }
}

void exec_seal_worker(void)
{
    worker_pid = getpid();
    worker_tid = (pid_t)syscall(SYS_gettid);
    if (timers_fd >= 0)
        close(timers_fd);
    timers_fd = -1;
    timers_tried = 0;
    if (task_fd >= 0)
        close(task_fd);
    task_fd = -1;
    seals_done = 0;
    last_threads = threads_now();
}

/* The most children of the worker one look takes in. */
#define SEAL_KIDS 256

/* The worker's children (proc/reaper.h's reaper_children_of) into
 * out[0..SEAL_KIDS]; how many, or -1 when they cannot be listed or there
 * are more than SEAL_KIDS.  Only for a worker that had a child when its
 * call began, which an honest candidate never leaves: each of its opens
 * is the sandbox observer's. */
static int children_now(pid_t out[SEAL_KIDS + 1])
{
    int n = 0;
    if (reaper_children_of(worker_pid, out, &n, SEAL_KIDS + 1) != 0 || n > SEAL_KIDS)
        return -1;
    return n;
}

/* The worker's children when the call began: whether it had any
 * (reaper_has_child), and then which (children_now; -1: not known). */
static int begin_any, begin_n;
static pid_t begin_kids[SEAL_KIDS + 1];

/* 1 when the worker has a child now that it did not have when the call
 * began (exec_seal_begin): a process the call started, running or ended,
 * that nothing waited for before the return.  0 when it has none, or only
 * those of before, or when that cannot be told (the worker's word can only
 * add a finding). */
static int child_of_call(void)
{
    if (!reaper_has_child())
        return 0;
    if (!begin_any)
        return 1;
    if (begin_n < 0)
        return 0;
    pid_t now[SEAL_KIDS + 1];
    int n = children_now(now);
    for (int i = 0; i < n; i++) {
        int old = 0;
        for (int k = 0; k < begin_n && !old; k++)
            old = now[i] == begin_kids[k];
        if (!old)
            return 1;
    }
    return 0;
}

/* 1 when the candidate installed a handler for SIGALRM, SIGVTALRM or
 * SIGPROF, or one of the process's interval timers is armed: the three of
 * setitimer, and the POSIX timers /proc/self/timers lists (timer_create),
 * each asked with timer_gettime. */
static int timer_armed(void)
{
    /* a handler for an interval timer's signal may have run between the
     * return and the seal, when a one-shot timer fired there: it is not
     * armed any more, but the handler is still installed */
    static const int timer_signals[] = {SIGALRM, SIGVTALRM, SIGPROF};
    for (size_t k = 0; k < sizeof timer_signals / sizeof *timer_signals; k++) {
        struct sigaction sa;
        if (sigaction(timer_signals[k], NULL, &sa) == 0 &&
            sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)
            return 1;
    }
    static const int which[] = {ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF};
    for (size_t k = 0; k < sizeof which / sizeof *which; k++) {
        struct itimerval v;
        if (getitimer(which[k], &v) == 0 && (v.it_value.tv_sec || v.it_value.tv_usec))
            return 1;
    }
    if (!timers_tried) {
        timers_tried = 1;
        timers_fd = high(open("/proc/self/timers", O_RDONLY | O_CLOEXEC));
    }
    char buf[4096];
    ssize_t n = timers_fd < 0 ? -1 : pread(timers_fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    for (char *p = buf; (p = strstr(p, "ID: ")) != NULL; p += 4) {
        struct itimerspec v;
        long id = strtol(p + 4, NULL, 10);
        if (syscall(SYS_timer_gettime, (int)id, &v) == 0 &&
            (v.it_value.tv_sec || v.it_value.tv_nsec))
            return 1;
    }
    return 0;
}

void exec_seal(const arena *a, int ci, uint8_t *view, size_t off, size_t len, wire_response *r)
{
    if (!worker_pid || ci < 0 || ci > ARENA_BIG || len == 0)
        return;     /* not a worker process (isolation none): nothing to seal */
    /* the threads first: one that wrote after the return and then ended
     * must have ended before this read, microseconds of a thread's exit
     * against a system call's entry; a signal handler of a timer's signal
     * that runs before the seal is found by timer_armed below */
    int threads = counted >= 0 ? counted : threads_now();
    int done = presealed;
    counted = -1;
    presealed = 0;
    size_t lo, hi;
    exec_seal_span(a, off, len, &lo, &hi);
    if (!done && mprotect(view + lo, hi - lo, PROT_READ) != 0)
        return;
    seal *s = &seals[ci];
    s->at = view + lo;
    s->off = lo;
    s->r = r;
    __atomic_store_n(&s->len, hi - lo, __ATOMIC_RELEASE);
    r->sealed_ok = 1;
    r->sealed_threads = last_threads = threads;
    r->sealed_children = child_of_call();
    r->sealed_timer = timer_armed();
    if (++seals_done == 2)
        open_task();
}

int exec_seal_active(void)
{
    return worker_pid != 0;
}

void exec_seal_begin(wire_response *r)
{
    if (!worker_pid)
        return;
    r->call_threads = last_threads;
    /* one waitid when there is no child, as for an honest candidate */
    begin_any = reaper_has_child();
    begin_n = begin_any ? children_now(begin_kids) : 0;
}

void exec_unseal(int ci, uint8_t *view)
{
    (void)view;
    if (ci < 0 || ci > ARENA_BIG)
        return;
    seal *s = &seals[ci];
    size_t len = __atomic_load_n(&s->len, __ATOMIC_ACQUIRE);
    if (!len)
        return;
    __atomic_store_n(&s->len, 0, __ATOMIC_RELEASE);
    /* pages a large payload's hand-off unmapped (arena_unmap_pages) stay
     * so: ENOMEM there is no failure */
    mprotect(s->at, len, PROT_READ | PROT_WRITE);
}

wire_response *exec_seal_owner(uint64_t off, int *who)
{
    for (int ci = 0; ci <= ARENA_BIG; ci++) {
        const seal *s = &seals[ci];
        size_t len = __atomic_load_n(&s->len, __ATOMIC_ACQUIRE);
        if (len && off >= s->off && off - s->off < len) {
            pid_t pid = (pid_t)syscall(SYS_getpid), tid = (pid_t)syscall(SYS_gettid);
            *who = pid != worker_pid   ? WIRE_LATE_PROCESS
                   : tid != worker_tid ? WIRE_LATE_THREAD
                                       : WIRE_LATE_WORKER;
            return s->r;
        }
    }
    return NULL;
}
