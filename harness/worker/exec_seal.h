/*
 * exec_seal.h - sealing what a call wrote the moment it returned (issue
 * 42), private to engine/: right after execute (or infer_shape) returns,
 * the worker makes the pages the parent judges read-only in its address
 * space, which every thread, every clone(CLONE_VM) child and every signal
 * handler of the candidate shares, so that a later write faults and is
 * named instead of landing (exec_fault.c), and records what of the
 * candidate's could still run then: its threads, its children, its
 * armed timers.  Depends on wire.h.
 */
#ifndef HARNESS_EXEC_SEAL_H
#define HARNESS_EXEC_SEAL_H

#include <stdint.h>
#include <sys/stat.h>

#include "wire/wire.h"

/*
 * Reads the worker's threads (the link count of /proc/self/task: the first
 * system call after the return, unless exec_seal_window gave the count the
 * window took, exec_window.h), makes [off, off + len) of `view` (the candidate's view of
 * `a`) read-only for the request whose response is `r`, in cell `ci`
 * (0..ARENA_BIG), then records into `r` those threads, whether it had a
 * child the call started (one it did not have when the call began,
 * exec_seal_begin: running, or ended and not reaped, any kind of clone),
 * and whether an interval timer (setitimer, timer_create) was armed or a
 * handler for SIGALRM, SIGVTALRM or SIGPROF installed.  A failure of
 * mprotect leaves the pages as they were (sealed_ok 0).
 */
void exec_seal(const arena *a, int ci, uint8_t *view, size_t off, size_t len,
               wire_response *r);

/* The pages exec_seal seals for [off, off + len) of arena `a`: [*lo, *hi),
 * `off` rounded down and `off + len` up to a page. */
static inline void exec_seal_span(const arena *a, size_t off, size_t len, size_t *lo, size_t *hi)
{
    *lo = off / a->page * a->page;
    *hi = (off + len + a->page - 1) / a->page * a->page;
}

/* The descriptor of /proc/self/task the worker counts its threads with
 * (its link count), from the worker's second seal on; -1 before. */
int exec_seal_task_fd(void);

/* What the window did right after the return (exec_window.h), for the
 * next exec_seal, which must be of the same pages: its thread count is
 * taken from `st` (NULL: none), a stat of /proc/self/task, of
 * exec_seal_task_fd when that is open and still that directory, else of
 * the path; with `sealed` its mprotect is not made again. */
void exec_seal_window(const struct stat *st, int sealed);

/* 1 in a worker process (exec_seal_worker ran), 0 with --isolation none,
 * where the calls run in the harness's own process. */
int exec_seal_active(void);

/* Records into `r` the worker's threads as its call begins
 * (call_threads: the count of the worker's last seal), to tell afterwards
 * whether the call left one running, and notes the worker's children then
 * (one waitid; their pids only when it has one), to tell at the seal which
 * the call started. */
void exec_seal_begin(wire_response *r);

/* Gives cell `ci`'s sealed pages their access back (read-write) before
 * the cell's next request; does nothing for a cell not sealed. */
void exec_unseal(int ci, uint8_t *view);

/*
 * For the fault handler (async-signal-safe): the response of the request
 * whose sealed pages hold arena offset `off`, or NULL; *who is then
 * WIRE_LATE_THREAD, WIRE_LATE_PROCESS or WIRE_LATE_WORKER (wire.h) for
 * the task that faulted.
 */
wire_response *exec_seal_owner(uint64_t off, int *who);

#endif
