/*
 * exec_window.c - a call whose return the worker proves nothing else of
 * the candidate's ran after, until its output was sealed (exec_window.h):
 * the pin to one CPU, the restartable sequence area, the copies of dst's
 * head and tail made right after the return and compared after the seal;
 * the call itself is exec_window_x86.c's assembly.  Depends on
 * exec_window_int.h, libseccomp and Linux.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "exec_window_int.h"

/* Sets (or, with `check`, compares) the affinity of every thread of the
 * worker listed in /proc/self/task to `set`.  1 when each one was set (or
 * matched), 0 otherwise. */
static int each_thread(const cpu_set_t *set, int check)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 0;
    int ok = 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        pid_t tid = (pid_t)strtol(e->d_name, NULL, 10);
        cpu_set_t now;
        if (tid <= 0)
            ok = 0;
        else if (!check)
            ok &= sched_setaffinity(tid, sizeof *set, set) == 0;
        else
            ok &= sched_getaffinity(tid, sizeof now, &now) == 0 && CPU_EQUAL(&now, set);
    }
    closedir(d);
    return ok;
}

/* A seccomp filter on every thread (TSYNC) that answers sched_setaffinity
 * with EPERM; calls of another architecture are left to the worker's own
 * filter (sandbox.h).  1 when loaded. */
static int refuse_affinity(void)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return 0;
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW);
    if (rc == 0)
        rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setaffinity), 0);
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc == 0;
}

/* 1 once exec_window_pin pinned this worker. */
static int pinned;

/* The last call's copies of dst's head and tail, and where they are from:
 * the worker's one thread that calls the candidate fills and reads them. */
static uint8_t snap[2 * EXEC_WINDOW_SNAP];
static const uint8_t *snap_dst, *snap_tail;
static size_t snap_head_len, snap_tail_len;
static int snap_made;

#if defined(__x86_64__)
#include <sys/rseq.h>

/* Reads each cache line of [p, p + n). */
static void touch(const uint8_t *p, size_t n)
{
    uint8_t sum = 0;
    for (size_t i = 0; i < n; i += 64)
        sum ^= __atomic_load_n(&p[i], __ATOMIC_RELAXED);
    sum ^= __atomic_load_n(&p[n - 1], __ATOMIC_RELAXED);
    __asm__ volatile("" : : "r"(sum));
}

/* This thread's restartable sequence area, when glibc registered one and
 * nothing inhibits its restarts; else NULL. */
static struct rseq *rseq_area(void)
{
    if (__rseq_size < offsetof(struct rseq, flags) + sizeof(uint32_t))
        return NULL;
    struct rseq *rs = (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
    if ((int32_t)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED) < 0 || rs->flags != 0)
        return NULL;
    return rs;
}

int exec_window_available(void)
{
    return 1;
}

int exec_window_call(const exec_window_req *q, int *quiet, int *counted, int *sealed)
{
    struct rseq *rs = rseq_area();
    uint64_t none;      /* no area: a store nothing reads */
    const uint8_t *dst = q->dst;
    size_t head = dst ? (q->dst_len < EXEC_WINDOW_SNAP ? q->dst_len : EXEC_WINDOW_SNAP) : 0;
    size_t rest = dst ? q->dst_len - head : 0;
    size_t tail = rest < EXEC_WINDOW_SNAP ? rest : EXEC_WINDOW_SNAP;
    snap_dst = dst;
    snap_head_len = head;
    snap_tail = dst ? dst + q->dst_len - tail : NULL;
    snap_tail_len = tail;
    window w = {q->fn, {q->arg[0], q->arg[1], q->arg[2], q->arg[3]}, q->seal_at, q->seal_len,
                rs ? (uint64_t *)&rs->rseq_cs : &none, 0, 1, 0, dst, head, snap, snap_tail,
                tail, 0, q->task_fd >= 0 ? q->task_fd : AT_FDCWD, q->task_st, 1,
                q->task_fd >= 0 ? "" : "/proc/self/task", q->task_fd >= 0 ? AT_EMPTY_PATH : 0};
    /* the copies' pages written first: a fault on them after the return
     * (a worker's first write to a page its zygote shares) would leave a
     * writer microseconds to overtake the copy */
    __atomic_store_n(&snap[0], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&snap[EXEC_WINDOW_SNAP], 0, __ATOMIC_RELAXED);
    /* and the bytes to copy read once, so that their pages are in the
     * TLB and their lines in this CPU's cache when the copies run: a call
     * that never touched dst would leave a page walk and a line's transfer
     * after the return, time for a writer to overtake the copy */
    if (head)
        touch(dst, head);
    if (tail)
        touch(snap_tail, tail);
    exec_window_run(&w);
    snap_made = w.snapped == 1;
    *counted = w.task_rc == 0;
    *sealed = w.sealed == 0;
    /* an area the candidate unregistered or flagged since the pin proves
     * nothing, and unpinned the sequence proves nothing of other CPUs */
    *quiet = pinned && rs && w.quiet == 1 && w.sealed == 0;
    return (int)w.status;
}

static int have_rseq(void)
{
    return rseq_area() != NULL;
}

#else

int exec_window_available(void)
{
    return 0;
}

int exec_window_call(const exec_window_req *q, int *quiet, int *counted, int *sealed)
{
    (void)q;
    *quiet = *counted = *sealed = 0;
    snap_made = 0;
    return -1;  /* exec_window_available is 0 here: the caller calls directly */
}

static int have_rseq(void)
{
    return 0;
}

#endif

int exec_window_changed(size_t *at)
{
    if (!snap_made)
        return 0;
    for (size_t i = 0; i < snap_head_len; i++)
        if (snap[i] != snap_dst[i]) {
            *at = i;
            return 1;
        }
    for (size_t i = 0; i < snap_tail_len; i++)
        if (snap[snap_head_len + i] != snap_tail[i]) {
            *at = (size_t)(snap_tail - snap_dst) + i;
            return 1;
        }
    return 0;
}

int exec_window_pin(void)
{
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE || !have_rseq())
        return 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    /* pinned, then no thread may change it, then each one checked: one
     * started meanwhile by a thread not yet pinned is found there */
    int ok = each_thread(&one, 0);
    ok &= refuse_affinity();
    pinned = ok && each_thread(&one, 1);
    return pinned;
}
