/*
 * census_sleep.h - whether a worker's thread sleeps past a moment
 * (census_sleep.c), so that the parent's wait for a worker's threads to
 * park (census.c, CENSUS_SETTLE_MS) ends at once for a thread that cannot
 * park in time; whether it sleeps at a request's first look; what its
 * ended threads ran (census_dead.c).  Private to engine/.  Depends on Linux /proc and
 * process_vm_readv.
 */
#ifndef HARNESS_CENSUS_SLEEP_H
#define HARNESS_CENSUS_SLEEP_H

#include <stdint.h>
#include <sys/types.h>

/*
 * 1 when thread `tid` (a name in /proc/PID/task) of process `pid` is
 * blocked in nanosleep or clock_nanosleep (/proc/PID/task/TID/syscall)
 * with a sleep that cannot end before CLOCK_MONOTONIC `by` (ns): a
 * relative sleep of T that began at `since` (ns, CLOCK_MONOTONIC: the
 * parent's submit of the batch, before which no thread of the batch
 * slept) or later, when since + T > by; an absolute one (TIMER_ABSTIME on
 * CLOCK_REALTIME, CLOCK_MONOTONIC or CLOCK_BOOTTIME) whose end is past
 * `by`.  The timespec is read from the worker's memory (process_vm_readv),
 * the candidate's to rewrite: a forged one can only make its own thread
 * be counted as left running sooner, never let one go.  0 otherwise (not
 * asleep, another system call, an unreadable entry or memory).
 */
int census_sleeps_past(pid_t pid, const char *tid, int64_t since, int64_t by);

/*
 * 1 when worker `pid` sleeps (census_asleep.c): every thread of it and of
 * its children is in interruptible sleep or stopped (the state letter of
 * /proc/TID/stat, which the kernel writes: S, T or t), none running,
 * runnable or in uninterruptible sleep; 0 when one is not, or -1 when the
 * threads cannot be read.  For the first look at a request
 * (deadline_first_look_ns): a hang asleep costs no CPU and is found then;
 * a call that computes, even slowly beside other work, is runnable.
 */
int census_asleep(pid_t pid);

/*
 * The CPU time in ns that the ended threads of process `pid` ran
 * (census_dead.c): its CPU clock less the runtime of each live thread
 * (/proc/PID/task/TID/schedstat).  Read while the threads run, it errs one
 * way only: with `upper` 1 it is at least what it was when the call began,
 * with 0 at most what it is when the call returns, so a figure after a
 * batch (0) above the one before it (1) proves that a thread of the worker
 * ended in between.  -1 when it cannot be read (the process is gone).
 */
int64_t census_dead_ns(pid_t pid, int upper);

#endif
