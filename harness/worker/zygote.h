/*
 * zygote.h - a slot's zygote (private to worker/): the process that has
 * loaded the candidate, never calls it, and forks a worker for each
 * request of the parent, so that a crash costs a fork, not an exec and a
 * load.
 *
 * Protocol, after the wire/channel.h hello said `forkable` and the binding
 * gave the slot's arena memfd: the parent sends a zygote_request (wire/channel.h) on fd 3
 * with three descriptors attached (SCM_RIGHTS): the write end of the new
 * worker's output pipe, its end of a new socket pair (its fd 3) and the
 * write end of its answer pipe (its fd 4).  The zygote forks, closes its
 * copies and answers with the worker's pid (an int32_t; minus errno when
 * the fork failed) on its fd 4.  EOF on fd 3 ends it.  The answer is the
 * candidate's word (its code has run in the zygote): the parent believes
 * it only for an unreaped child of its own that no slot holds (spawn.c,
 * ARCHITECTURE.md "Trust boundary").
 *
 * A worker is a clone with CLONE_PARENT: the harness is its parent, as a
 * spawned worker's, so the harness reaps it, reads its wait status and
 * holds its pid until then (the zygote never reaps, so a pid is never
 * reused under the harness).  It dies with the harness's thread that
 * spawned the zygote (PR_SET_PDEATHSIG), not with the zygote; it gets a
 * process group of its own, its own descriptors (wire/channel.h, step 3),
 * its own signal rules (sandbox.c carries out only the signals a process
 * sends itself) and becomes a child subreaper.  The zygote has one thread
 * (the hello's `forkable`), so the clone copies no lock held elsewhere;
 * the candidate's pthread_atfork handlers do not run.  Depends on
 * wire/channel.h, exec.h, reaper.h and Linux clone.
 */
#ifndef HARNESS_ZYGOTE_H
#define HARNESS_ZYGOTE_H

#include <stddef.h>

#include "reshape_candidate.h"
#include "worker.h"

/* 1 when this build can clone a worker with the harness as its parent
 * (x86-64 and AArch64), else 0: the process then serves as a worker. */
int zygote_supported(void);

/* The number of threads of the calling process (/proc/self/task), or -1
 * when it cannot be read. */
int zygote_threads(void);

/*
 * Serves fork requests on fds 3 and 4 until EOF; each worker inherits the
 * candidate's view of the slot's arena `a` (attached lazily, cell 0 ready:
 * the cell of a batch of one) and the fault handler installed on it, and
 * runs worker_run(cand, a, 1).  Never returns.
 */
_Noreturn void zygote_serve(const worker_args *w, const reshape_candidate *cand, arena *a);

/*
 * The worker's part of wire/channel.h (steps 3 and 4) on the candidate's
 * view of the arena `a`, its fault handler installed; a `forked` one
 * writes no WORKER_BOUND and, at its first batch, leaves its zygote's CPU
 * for every CPU the zygote recorded (proc/cpus.h).  Never returns.  In
 * worker_loop.c.
 */
_Noreturn void worker_run(const reshape_candidate *cand, arena *a, int forked);

/* For on_exit(): a candidate that calls exit() ends the process at once
 * with its status; a worker that serves batches writes WORKER_EXITING to
 * fd 4 first.  In worker_loop.c. */
void worker_exit_now(int status, void *arg);

/* Receives a message of exactly `len` bytes on WORKER_FD_REQ into `data`,
 * and up to `maxfds` (at most FD_PASS_MAX, fd_pass.h) descriptors sent
 * with it (SCM_RIGHTS) into fds[]; any more are closed.  Returns how many
 * descriptors, or -1 at EOF or on an error (none kept).  In
 * worker_loop.c. */
int worker_receive(void *data, size_t len, int *fds, int maxfds);

/* Closes every descriptor from `lowest` up.  In worker_loop.c. */
void worker_close_from(int lowest);

#endif
