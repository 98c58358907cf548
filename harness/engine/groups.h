/*
 * groups.h - the process groups of the engine's processes (private to
 * engine/), so that an interrupted harness takes what they started with
 * it.
 *
 * Every zygote and worker leads a process group of its own (zygote.h), so
 * the terminal's SIGINT no longer reaches the processes a candidate
 * started below a worker; the workers themselves die with the harness
 * (PR_SET_PDEATHSIG), their children would not.  While an engine runs,
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT (when nobody else handles them)
 * SIGKILL every group registered here, then end the harness as they would
 * have.  Depends on POSIX signals and C11 atomics.
 */
#ifndef HARNESS_GROUPS_H
#define HARNESS_GROUPS_H

#include <sys/types.h>

/* Registers the group led by `pid`; best effort (a full table skips it). */
void groups_add(pid_t pid);

/* Forgets the group led by `pid` (once it is reaped). */
void groups_remove(pid_t pid);

/* Installs the handler (once per process; later calls do nothing). */
void groups_watch(void);

#endif
