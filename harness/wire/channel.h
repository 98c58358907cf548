/*
 * channel.h - the worker protocol's descriptors, bytes and messages: what
 * the parent (engine/: spawn.c, pool.c, hello.c, wait.c, census.c,
 * sandbox_watch.c, device_check.c) and the processes that run the
 * candidate (worker/: worker_proc.c, zygote.c, worker_loop.c, exec*.c,
 * sandbox_confine.c, device_worker.c) say to each other beside the arena
 * (wire.h).  Included by wire.h, at its end (worker_hello carries a
 * wire_probe): include "wire/wire.h", the layer's door.  Every value in it
 * that a worker writes is untrusted in the parent (harness/ARCHITECTURE.md,
 * "Trust boundary"; harness/wire/readers.txt names the files that read
 * them).
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
 *      it has a child, running or ended: it reaps the ended ones only when
 *      its next batch begins; the parent checks in /proc either way,
 *      census.h); at each memory sample of a repeat request it writes
 *      EXEC_SAMPLE and waits for a byte on fd 3 (exec.h).  EOF on fd 3 ends it.  A candidate
 *      that calls exit() ends it at once with its status, after writing
 *      WORKER_EXITING to fd 4 (when fd 4 is still open), so that the parent
 *      knows the death came during the running request.
 * Depends on wire.h.
 */
#ifndef HARNESS_CHANNEL_H
#define HARNESS_CHANNEL_H

#include <stdint.h>
#include <sys/types.h>

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

/* The stages of loading a spawned process writes on fd 4 before its
 * hello: EXEC_STAGE_DLOPEN before dlopen, EXEC_STAGE_ENTRY after dlopen
 * (and the constructors) returned and before the entry function is
 * called (candidate_stage_fd, worker/exec.h), so that the parent can say
 * at which stage a candidate died while loading. */
#define EXEC_STAGE_DLOPEN 'L'
#define EXEC_STAGE_ENTRY 'E'
/* What a worker's fault handler writes on fd 4 as the signal is about to
 * kill it (exec_install_fault_handler, worker/exec.h). */
#define EXEC_DYING '!'
/* What a worker writes on fd 4 at each memory sampling point of a repeat
 * request; it then waits for a byte on fd 3 while the parent reads its
 * /proc files (exec_set_sampler, worker/exec.h; engine/census.h). */
#define EXEC_SAMPLE 'm'

/* What a worker says once it has tried to load the candidate. */
typedef struct worker_hello {
    char state;                 /* 'r' loaded, 'x' refused, 's' no sandbox
                                   (probe.message says why) */
    wire_probe probe;
    char forkable;              /* one thread after loading: a zygote */
    int strays;                 /* processes the loading left running */
} worker_hello;

/* One request to a slot's zygote (worker/zygote.h): `op` is ZYGOTE_FORK,
 * with three descriptors attached; the answer on the zygote's fd 4 is the
 * new worker's pid, an int32_t (minus errno when the fork failed). */
typedef struct zygote_request {
    char op;
} zygote_request;
#define ZYGOTE_FORK 'f'

/* The fd on which a confined process finds the observer's socket
 * (sandbox_watch_worker_fd); closed by sandbox_confine. */
#define SANDBOX_FD_WATCH 5

/* What a confined process got: the layers in place. */
typedef struct sandbox_facts {
    int landlock_abi;       /* 0: no Landlock (kernel or LSM list) */
    int netns;              /* 1: a network namespace of its own (2: in a
                               user namespace); 0: no network sockets */
    int dropped;            /* SANDBOX_DROP_*: root dropped to `uid` */
    int observed;           /* 1: the observer gets its calls */
    unsigned uid;
    int candidate_fd;       /* SANDBOX_DROP_FD: the candidate, opened before
                               the drop, to load as /proc/self/fd/N
                               (sandbox_load_path); -1: by its path */
    int scratch_tmpfs;      /* 1: the scratch folder is a tmpfs of this
                               process's own mount namespace */
} sandbox_facts;

/* What a confined process writes the observer on SANDBOX_FD_WATCH: its
 * fd `fd` to take (its listener; -1: none), or with `probe` only to try
 * whether it can.  Which process wrote it the observer takes from the
 * kernel (SCM_CREDENTIALS), never from the hello.  The observer answers
 * with a signal (worker/sandbox_confine.c, engine/sandbox_watch.c). */
typedef struct sandbox_hello {
    int32_t fd;
    int32_t probe;
    sandbox_facts facts;
} sandbox_hello;

/* The fd on which `reshape-conform __device` writes its one JSON line
 * ({"usable": true, "name": ...}, {"usable": false, "why": ...} or
 * {"why": ...}) to the device check (engine/device_check.h). */
#define DEVICE_CHECK_FD 3

#endif
