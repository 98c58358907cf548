/*
 * exec_window.h - a call after whose return the worker can prove that
 * nothing of the candidate's ran before its output was sealed (issue 42),
 * private to worker/.  For a request run once more alone because a thread
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

/* The candidate's execute or infer_shape, cast: exec_window_call's assembly
 * calls it with four pointer arguments (a function of three ignores the
 * fourth), never C through this type. */
typedef void (*exec_window_fn)(void);

/*
 * Only after exec_window_pin returned 1.  Calls fn(a0, a1, a2, a3) and
 * seals [at, at + len) read-only (`at` page-aligned) inside a restartable
 * sequence that begins two instructions after the return.  Returns fn's
 * status.  *quiet is 1 when the sequence ran to its end and the seal took
 * effect: nothing of the candidate's ran between the return and the seal;
 * else 0 (the kernel switched the thread out, migrated it or delivered it a
 * signal in there, or the mprotect failed), and the caller seals as usual
 * (exec_seal.h), which also records the seal for the fault handler.
 */
int exec_window_call(exec_window_fn fn, void *a0, void *a1, void *a2, void *a3, uint8_t *at,
                     size_t len, int *quiet);

#endif
