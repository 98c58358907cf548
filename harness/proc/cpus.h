/*
 * cpus.h - the CPU a slot's processes start on (cpus.c): a slot's thread
 * in the harness, its zygote and each worker the zygote forks share one
 * CPU until the worker's first batch, so that sending a request, forking
 * the next worker and reaping a dead one each wake a process on the CPU
 * that is already running, not one across the machine (a candidate that
 * crashes on every call, through the whole suite: a fifth less time on
 * the 2-core VM, bench/README.md).  A worker gets back every CPU of the
 * set before the candidate runs, so that what a candidate sees
 * (sched_getaffinity, a thread pool's size) is the harness's own set.
 * Part of the proc/ door (proc.h): the parent and the zygote both use it.
 * Process-wide: cpus_remember runs once, before any thread pins itself.
 * Depends on Linux sched_getaffinity and sched_setaffinity.
 */
#ifndef HARNESS_CPUS_H
#define HARNESS_CPUS_H

/* Records the CPUs the calling thread may run on: the set the calls
 * below count in.  Before it, cpus_of_slot returns -1 and the others do
 * nothing.  Never fails: a set it cannot read leaves nothing recorded. */
void cpus_remember(void);

/* The CPU of slot `slot` (0 or more): the (slot mod n)-th of the n CPUs
 * recorded, counted from the lowest number, so that the harness and a
 * zygote that recorded the same set pick the same CPU.  Returns -1 when
 * nothing is recorded or `slot` is negative. */
int cpus_of_slot(int slot);

/* Pins the calling thread to cpus_of_slot(slot).  Returns 0, or -1
 * (errno EINVAL when there is no such CPU, or sched_setaffinity's) with
 * the thread left as it was. */
int cpus_pin(int slot);

/* Lets the calling thread run on every CPU recorded again: for a worker
 * before its first call of the candidate, and for a thread another,
 * pinned one started.  Returns 0 (also when nothing is recorded), or -1
 * with sched_setaffinity's errno. */
int cpus_release(void);

#endif
