/*
 * bounds.h - what a run's workers may take of the machine (bounds.c):
 * processes and memory, so that a candidate that forks without end or
 * allocates without end stops at a bound, and the kernel's OOM killer
 * picks a worker, never the harness.  Part of the proc/ door (proc.h):
 * the parent and the worker side (bounds_worker) both use it.  Depends
 * on sandbox.h.
 *
 *   - every worker raises its oom_score_adj to 1000 (the most); a root
 *     harness lowers its own to BOUNDS_HARNESS_OOM_ADJ (its workers
 *     inherit that and raise it again);
 *   - processes: where the cgroup v1 "pids" hierarchy is mounted and
 *     writable, the harness makes a cgroup of its own beside itself,
 *     reshape-conform.PID, with pids.max BOUNDS_PIDS_MAX (tasks: threads
 *     count), which every worker joins before the candidate loads, and in
 *     it one per slot, slot-N, with pids.max BOUNDS_SLOT_PIDS_MAX, which
 *     the parent moves a slot's zygote into when it binds it (its forks
 *     are born there) and each spawned worker before its first batch (so
 *     that a fork bomb in one slot leaves the run room for the other
 *     slots' zygotes and workers); without it, a worker whose sandbox drops it to
 *     a uid of its own (a root harness) sets RLIMIT_NPROC to BOUNDS_NPROC
 *     (per uid: every run's workers of that uid count together); the
 *     cgroups a harness that no longer runs left behind are removed when
 *     the next one starts;
 *   - memory: RLIMIT_DATA (private writable mappings: malloc and mmap,
 *     not the arena, which is shared) of half the machine's memory, except
 *     in a build with AddressSanitizer (its shadow is private memory).
 */
#ifndef HARNESS_BOUNDS_H
#define HARNESS_BOUNDS_H

#include <sys/types.h>

#include "sandbox.h"

#define BOUNDS_PIDS_MAX 4096
#define BOUNDS_SLOT_PIDS_MAX 1024
#define BOUNDS_NPROC 8192
#define BOUNDS_HARNESS_OOM_ADJ (-500)

/* For the harness as it starts an engine: its own oom_score_adj, and the
 * pids cgroup its workers join (when it can make one).  Never fails: a
 * bound it cannot set is not set. */
void bounds_harness_start(void);

/* Moves process `pid` of slot `slot` (its zygote, or a spawned worker)
 * into the slot's pids cgroup (made on first use), when the harness has
 * its own: before the process makes its first call of the candidate.
 * Thread-safe; never fails. */
void bounds_slot_join(int slot, pid_t pid);

/* Moves process `pid` (a slot's zygote whose slot's cgroup has no room
 * for another fork) back into the run's pids cgroup, when the harness has
 * its own.  Thread-safe; never fails. */
void bounds_run_join(pid_t pid);

/* Removes the harness's pids cgroups (once its workers are gone). */
void bounds_harness_stop(void);

/* For a worker process (wire/channel.h) before it confines itself and
 * loads the candidate: joins the pids cgroup of harness `parent` (when
 * there is one), and sets its oom_score_adj and limits as above (`sb`:
 * its sandbox policy, NULL when off).  Never fails. */
void bounds_worker(pid_t parent, const sandbox_policy *sb);

#endif
