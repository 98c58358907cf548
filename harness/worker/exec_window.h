/*
 * exec_window.h - a call whose first instructions after the return are the
 * worker's (issue 42), private to worker/.  For every execute: two
 * instructions after the return it copies dst's head and tail, counts its
 * threads and seals dst, and a byte that differs from the copy after the
 * seal was written in between (exec_window_changed).  For a request run
 * once more alone because a thread
 * that ran at the return had ended when the parent looked (run/batch_end.c):
 * that leaves what a thread joined just before the return leaves, and no
 * count of tasks tells the two apart.  Here every task of the worker shares
 * one CPU, and a restartable sequence (rseq(2): the kernel moves the
 * instruction pointer to an abort handler when it switches the thread out,
 * migrates it or delivers it a signal inside the sequence) runs from the
 * return to just after the mprotect that seals the output.  When it is not
 * aborted, the calling thread held the only CPU the candidate's tasks may
 * run on from the return until the seal took effect, so nothing else of the
 * candidate's ran there: what the parent judges is what the call left.
 * What it cannot rule out: the two instructions between the return and the
 * sequence's start.  Depends on exec.h and Linux (rseq as glibc registers
 * it, sched_setaffinity, libseccomp).
 */
#ifndef HARNESS_EXEC_WINDOW_H
#define HARNESS_EXEC_WINDOW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/*
 * Pins every thread of the worker to the CPU the calling thread runs on,
 * and from then on refuses sched_setaffinity (EPERM) to every thread and
 * process of the worker's (a seccomp filter, inherited by what they start),
 * so that nothing of the candidate's can run on another CPU.  For a worker
 * that serves this one request: the parent replaces it afterwards.  Returns
 * 1 when all of it was done and this thread has a restartable sequence
 * area (x86-64, registered by glibc); 0 when any part failed or there is
 * none (then call the candidate directly: no call is proven quiet).
 */
int exec_window_pin(void);

/* The candidate's execute or infer_shape, cast: the window's assembly
 * calls it with four pointer arguments (a function of three ignores the
 * fourth), never C through this type. */
typedef void (*exec_window_fn)(void);

/* How many bytes of dst's head, and as many of its tail, the window
 * copies right after the return (exec_window_call). */
#define EXEC_WINDOW_SNAP 4096

/* 1 where the window is there (x86-64): exec_window_call may be called. */
int exec_window_available(void);

/* One call through the window. */
typedef struct exec_window_req {
    exec_window_fn fn;          /* called with arg[0..3] */
    void *arg[4];
    uint8_t *seal_at;           /* sealed read-only: page-aligned */
    size_t seal_len;
    const uint8_t *dst;         /* its first and last EXEC_WINDOW_SNAP bytes
                                   (the whole when shorter) copied right
                                   after the return; NULL: none */
    size_t dst_len;
    int task_fd;                /* /proc/self/task, stat'ed into *task_st
                                   after the copies, before the seal (the
                                   worker's threads, exec_seal.c): an fstat
                                   of this descriptor, or of the path when
                                   it is -1 */
    struct stat *task_st;
} exec_window_req;

/*
 * Only where exec_window_available.  Calls q->fn and, from two
 * instructions after its return, in a restartable sequence: copies dst's
 * head and tail, stats /proc/self/task, seals.  Returns fn's status.  *quiet is
 * 1 when the worker is pinned (exec_window_pin returned 1), the sequence
 * ran to its end and the seal took effect: nothing of the candidate's ran
 * between the return and the seal; else 0 (the kernel switched the thread
 * out, migrated it or delivered it a signal in there, the mprotect failed,
 * or the worker is not pinned).  *counted is 1 when the stat succeeded,
 * *sealed when the mprotect did.
 * The caller then calls exec_seal (exec_seal.h) as usual, told what the
 * window did (exec_seal_window), which records the seal for the fault
 * handler, and then asks exec_window_changed.
 */
int exec_window_call(const exec_window_req *q, int *quiet, int *counted, int *sealed);

/*
 * After the last exec_window_call's seal: 1 when a byte it copied right
 * after the return differs from that byte now (*at: its offset from dst),
 * so something wrote dst after the return and before the seal took effect;
 * 0 when none does, or when the copies were not both made (the sequence
 * was aborted in them).
 */
int exec_window_changed(size_t *at);

#endif
