/*
 * worker_proc.h - the processes that run the candidate, on the far side of
 * the wire (wire.h) from the parent (worker.c, spawn.c, pool.c, wait.c).
 *
 * The parent starts one process per slot as `reshape-conform __worker ...`
 * (posix_spawn of the harness binary itself, in a process group of its
 * own, so the parent's memory is never shared copy-on-write with it).  It
 * finds:
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
 *      EXEC_STAGE_ENTRY before it calls the entry function) and writes a
 *      worker_hello ('r' loaded, 'x' refused, with the probe; `forkable`
 *      when it still has one thread: nothing the candidate started while
 *      loading would be missing from a fork; `strays`, the processes the
 *      constructors left running, which the parent kills) to fd 4, in one
 *      write;
 *   2. receives its binding on fd 3: the slot index (an int) with the
 *      slot's arena memfd attached (SCM_RIGHTS); WORKER_BIND_NO_ZYGOTE
 *      set in the index asks a `forkable` process to serve as a worker
 *      all the same (the parent believes no zygote's answer any more).
 * Then a `forkable` process is the slot's zygote (zygote.h): it never
 * calls the candidate, and forks a worker for each zygote_request; one
 * that is not serves batches itself, as a worker (step 3), and the parent
 * spawns its replacements.
 *
 * A worker, forked from the zygote (or the spawned process itself):
 *   3. has fds 0-4 as above, its own (and with a fork, its own process
 *      group and no other fd), and the candidate's view of the arena
 *      (arena_attach; a zygote's is arena_attach_lazy, cell 0 ready, and
 *      its forks make each other cell ready when a request first uses it)
 *      with the fault handler installed on it (exec.h); a spawned worker writes
 *      WORKER_BOUND to fd 4 once it has touched every page of its view (the
 *      parent waits for it at the start, and otherwise skips it: it is
 *      never a batch's answer);
 *   4. for each byte received on fd 3, carries out the batch in the arena
 *      (exec_batch) and writes one byte back to fd 4 (WORKER_STRAYS when
 *      children it started still run; the parent checks in /proc either
 *      way, census.h); at each memory sample of a repeat request it writes
 *      EXEC_SAMPLE and waits for a byte on fd 3 (exec.h).  EOF on fd 3 ends it.  A candidate
 *      that calls exit() ends it at once with its status, after writing
 *      WORKER_EXITING to fd 4 (when fd 4 is still open), so that the parent
 *      knows the death came during the running request.
 * Depends on exec.h and wire.h.
 */
#ifndef HARNESS_WORKER_PROC_H
#define HARNESS_WORKER_PROC_H

#include <stddef.h>
#include <sys/types.h>

#include "proc/sandbox.h"
#include "wire.h"

/* In the binding's slot index: serve batches, be no zygote. */
#define WORKER_BIND_NO_ZYGOTE 0x40000000

#define WORKER_FD_REQ 3
#define WORKER_FD_RESP 4
/* The byte a worker writes once bound and warm. */
#define WORKER_BOUND 'b'
/* A batch's answer when children of the worker still run after it
 * (reaper.h); any other byte but EXEC_DYING and WORKER_BOUND is a plain
 * answer. */
#define WORKER_STRAYS 'S'
/* What a worker writes when the candidate calls exit() during a request
 * (the exit status then comes with its end). */
#define WORKER_EXITING 'X'
/* A worker's exit status when its fd 3 or 4 was closed under it (by the
 * candidate): it says so on stderr first. */
#define WORKER_EXIT_LOST_CHANNEL 121

/* What a worker says once it has tried to load the candidate. */
typedef struct worker_hello {
    char state;                 /* 'r' loaded, 'x' refused, 's' no sandbox
                                   (probe.message says why) */
    wire_probe probe;
    char forkable;              /* one thread after loading: a zygote */
    int strays;                 /* processes the loading left running */
} worker_hello;

typedef struct worker_args {
    const char *candidate;      /* path of the candidate .so */
    size_t big_src, big_dst;    /* the arena's big cell, as arena_create got them */
    pid_t parent;               /* the worker exits if its parent is another */
    const sandbox_policy *sb;   /* confine the process and install its filter
                                   (sandbox.h); NULL: no sandbox */
} worker_args;

/* The program a slot's processes run: reshape-conform-worker beside the
 * running executable, else (installed) in ../libexec/reshape-conform/
 * from it, else the harness itself (/proc/self/exe), whose `__worker`
 * command runs the same code.  Allocated.  In worker_exe.c. */
char *engine_worker_exe(void);

/* Runs the protocol above on fds 0-4 as they are set up.  Never returns. */
_Noreturn void worker_serve(const worker_args *w);

/* `reshape-conform __worker CANDIDATE BIG_SRC BIG_DST PARENT_PID SANDBOX
 * [POLICY WORD...]` (SANDBOX 1 with the words of sandbox_policy_words, or
 * 0): the entry of a spawned worker (not a user command). */
int cmd_worker(int argc, char **argv);

#endif
