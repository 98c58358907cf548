/*
 * groups.h - the process groups of the engine's processes (part of the
 * proc/ door, proc.h: the parent and the sandbox's policy use it), so
 * that an interrupted harness takes what they started with it.
 *
 * Every zygote and worker leads a process group of its own (zygote.h), so
 * the terminal's SIGINT no longer reaches the processes a candidate
 * started below a worker; the workers themselves die with the harness
 * (PR_SET_PDEATHSIG), their children would not.  While an engine runs,
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT (when nobody else handles them)
 * SIGKILL every group registered here, then end the harness as they would
 * have, never the group of a pid at most 1, the harness's or its own
 * group, after removing the run's empty scratch folder.  Depends on POSIX
 * signals and threads and C11 atomics.
 */
#ifndef HARNESS_GROUPS_H
#define HARNESS_GROUPS_H

#include <sys/types.h>

/*
 * Registers the group led by `pid`, a process the harness itself started
 * (posix_spawn) or checked to be a new child of its own (spawn.c,
 * proc_fork).  The registry is also the engine's list of the processes it
 * knows: a pid is claimed once.  Returns 0; -1 when `pid` is already
 * registered, is at most 1, is the harness's pid or its process group's
 * (never a group to kill); -2 when the table (4096 places) is full, and
 * `pid` was not found in it (it is not registered then).
 */
int groups_claim(pid_t pid);

/* Forgets the group led by `pid` (once it is reaped). */
void groups_remove(pid_t pid);

/* Installs the handler (once per process; later calls do nothing). */
void groups_watch(void);

/*
 * Names `dir` (an absolute path shorter than PATH_MAX; NULL: none) as the
 * run's scratch folder, which the handler removes (rmdir) after its kills:
 * in a sandbox with a mount namespace its files are in each slot's tmpfs,
 * gone with the slot, and the folder itself is empty.  One folder at a
 * time; a later call replaces it.
 */
void groups_scratch(const char *dir);

#endif
