/*
 * worker.h - the worker layer's door (harness/ARCHITECTURE.md): the code
 * that runs in the candidate's processes, sharing their address space
 * with code the harness does not trust.  The spawned process and its
 * protocol (wire/channel.h) in worker_proc.c, a slot's zygote in
 * zygote.c, a worker's batches in worker_loop.c, the candidate's side of
 * a request in exec.h (loading it, running one request), the
 * confinement and filter a process applies to itself in confine.h, the
 * device check's process in device_worker.c; the program
 * reshape-conform-worker is worker_main.c.  Nothing above this layer
 * includes it but the files harness/worker/callers.txt names (make
 * test-layers).  Private: zygote.h, exec_int.h, exec_device.h,
 * confine_int.h, self_signal.h.  Uses base/, suite/, proc/ and wire/.
 */
#ifndef HARNESS_WORKER_WORKER_H
#define HARNESS_WORKER_WORKER_H

#include <stddef.h>
#include <sys/types.h>

#include "proc/proc.h"
#include "wire/wire.h"
#include "exec.h"
#include "confine.h"

typedef struct worker_args {
    const char *candidate;      /* path of the candidate .so */
    size_t big_src, big_dst;    /* the arena's big cell, as arena_create got them */
    pid_t parent;               /* the worker exits if its parent is another */
    const sandbox_policy *sb;   /* confine the process and install its filter
                                   (confine.h); NULL: no sandbox */
} worker_args;

/* Runs the protocol of wire/channel.h on fds 0-4 as they are set up.
 * Never returns.  In worker_proc.c. */
_Noreturn void worker_serve(const worker_args *w);

/* `reshape-conform __worker CANDIDATE BIG_SRC BIG_DST PARENT_PID SANDBOX
 * [POLICY WORD...]` (SANDBOX 1 with the words of sandbox_policy_words, or
 * 0): the entry of a spawned worker (not a user command).  In
 * worker_proc.c. */
int cmd_worker(int argc, char **argv);

/* `reshape-conform __device CANDIDATE SANDBOX`: the device check's process
 * (engine/device_check.h; not a user command): loads the candidate, tries
 * its device (exec_device_try) and writes one JSON line on
 * DEVICE_CHECK_FD (wire/channel.h).  In device_worker.c. */
int cmd_device_worker(int argc, char **argv);

#endif
