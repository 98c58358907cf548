/*
 * worker_proc.h - the worker process: what runs the candidate, on the far
 * side of the wire (wire.h) from the parent (worker.c, spawn.c, pool.c,
 * wait.c).
 *
 * A worker is started by the parent as `reshape-conform __worker ...`
 * (posix_spawn of the harness binary itself, so the parent's memory is
 * never shared copy-on-write with it), or, with --isolation fork, by a
 * plain fork() that calls worker_serve.  Either way it finds:
 *   fd 0  /dev/null
 *   fd 1, 2  the write end of the output pipe the parent reads
 *   fd 3  WORKER_FD_REQ: a Unix socket from the parent
 *   fd 4  WORKER_FD_RESP: a pipe to the parent
 *   fd 5  SANDBOX_FD_WATCH: the sandbox's observer (unless it is off)
 * and speaks this protocol:
 *   0. becomes a child subreaper (reaper.h) and, unless the sandbox is
 *      off, confines itself (sandbox_confine: the observer gets its
 *      listener on fd 5) and installs its own seccomp filter
 *      (sandbox_install); if that fails, writes a worker_hello 's' and
 *      exits;
 *   1. writes EXEC_STAGE_DLOPEN, loads the candidate (writing
 *      EXEC_STAGE_ENTRY before it calls the entry function) and writes a worker_hello ('r' loaded, 'x'
 *      refused, with the probe) to fd 4, in one write;
 *   2. receives its binding on fd 3: the slot index (an int) with the
 *      slot's arena memfd attached (SCM_RIGHTS), maps the candidate's view
 *      of it (arena_attach, arena_populate_cells) and writes WORKER_BOUND
 *      to fd 4 (the parent waits for it at the start, and otherwise skips
 *      it: it is never a batch's answer);
 *   3. for each byte received on fd 3, carries out the batch in the arena
 *      (exec_batch) and writes one byte back to fd 4 (WORKER_STRAYS when
 *      children it started still run); with `once`, exits
 *      after the first batch.  EOF on fd 3 ends it.
 * Depends on exec.h and wire.h.
 */
#ifndef HARNESS_WORKER_PROC_H
#define HARNESS_WORKER_PROC_H

#include <stddef.h>
#include <sys/types.h>

#include "sandbox.h"
#include "wire.h"

#define WORKER_FD_REQ 3
#define WORKER_FD_RESP 4
/* The byte a worker writes once bound and warm. */
#define WORKER_BOUND 'b'
/* A batch's answer when children of the worker still run after it
 * (reaper.h); any other byte but EXEC_DYING and WORKER_BOUND is a plain
 * answer. */
#define WORKER_STRAYS 'S'
/* A worker's exit status when its fd 3 or 4 was closed under it (by the
 * candidate): it says so on stderr first. */
#define WORKER_EXIT_LOST_CHANNEL 121

/* What a worker says once it has tried to load the candidate. */
typedef struct worker_hello {
    char state;                 /* 'r' loaded, 'x' refused, 's' no sandbox
                                   (probe.message says why) */
    wire_probe probe;
} worker_hello;

typedef struct worker_args {
    const char *candidate;      /* path of the candidate .so */
    size_t big_src, big_dst;    /* the arena's big cell, as arena_create got them */
    pid_t parent;               /* the worker exits if its parent is another */
    int once;                   /* one batch, then exit (--isolation fork) */
    const sandbox_policy *sb;   /* confine the worker and install its filter
                                   (sandbox.h); NULL: no sandbox */
} worker_args;

/* Runs the protocol above on fds 0-4 as they are set up.  Never returns. */
_Noreturn void worker_serve(const worker_args *w);

/* `reshape-conform __worker CANDIDATE BIG_SRC BIG_DST PARENT_PID SANDBOX
 * [POLICY WORD...]` (SANDBOX 1 with the words of sandbox_policy_words, or
 * 0): the entry of a spawned worker (not a user command). */
int cmd_worker(int argc, char **argv);

#endif
