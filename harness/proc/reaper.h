/*
 * reaper.h - every process a candidate starts is found and killed.
 *
 * A worker is a child subreaper (PR_SET_CHILD_SUBREAPER): whatever the
 * candidate forks, setsid()s or double-forks stays below it while it
 * lives, and after each batch it tells whether it has a child
 * (reaper_has_child); the parent looks itself, then kills them
 * (reaper_kill_descendants) and judges the batch's request LEAK "left N
 * processes running".  The harness is a subreaper too, so that what a dead
 * worker left behind comes to it; reaper_sweep kills and reaps those.  The
 * worker's sandbox (sandbox.h) stops a candidate from giving up either.
 * Processes are found through /proc/PID/task/TID/children (Linux 3.5 and
 * CONFIG_PROC_CHILDREN).  Depends on POSIX and Linux /proc.
 */
#ifndef HARNESS_REAPER_H
#define HARNESS_REAPER_H

#include <sys/types.h>

/* Makes the calling process a child subreaper.  Returns 0, or -1 with
 * errno set. */
int reaper_become_subreaper(void);

/*
 * For a worker between batches: reaps its children that have ended
 * (without waiting) and returns the number still running, 0 when none is
 * (one wait4 call then), or -1 with errno set.  Counts only children: a
 * running child's own children count once they are orphaned to the worker.
 */
int reaper_children_alive(void);

/* 1 when the calling process has a child, any kind of clone, of any of
 * its threads: running, stopped, or ended and not reaped (waitid with
 * WNOWAIT, which takes nothing); 0 when it has none.  One system call. */
int reaper_has_child(void);

/*
 * For the parent: SIGKILLs every process below `root` (its children, their
 * children..., not `root` itself), again until none of them runs (a
 * subreaper `root` receives the orphans of the killed), the killed
 * included wherever they went (to our subreaper, when `root` ended), for
 * at most about a second.  Returns how many distinct processes it killed.
 * Those below a live `root` stay zombies until `root` reaps them.
 */
int reaper_kill_descendants(pid_t root);

/*
 * For the parent, a subreaper: each child of the calling process (any of
 * its threads) whose pid is not one of known[0..nknown) is killed with its
 * descendants and reaped.  Returns how many of them were running.
 */
int reaper_sweep(const pid_t *known, int nknown);

/* Threads of process `pid` (the entries of /proc/PID/task), 0 when it is
 * gone: read by the parent, so nothing the process writes changes it. */
int reaper_threads(pid_t pid);

/* Appends the children of `pid` (of every thread of it; running, or ended
 * and not reaped: /proc/PID/task/TID/children lists a zombie until it is
 * waited for) to out[*n..max), from /proc/PID/task; a thread that ends
 * meanwhile adds none.  Returns 0, or -1 when /proc/PID/task cannot be
 * read.  Directory reads: in a confined worker each open is the sandbox
 * observer's. */
int reaper_children_of(pid_t pid, pid_t *out, int *n, int max);

/* Children of `pid` (of any of its threads), running or ended and not
 * reaped (a zombie stays listed until its parent waits for it), read from
 * /proc by the parent; those of them that have not ended into *running.
 * One look at /proc/PID/task. */
int reaper_children_listed(pid_t pid, int *running);

/*
 * Children of the calling process in process group `pgid` that came after
 * `except` to the thread whose child `except` is, into found[0..max): for
 * the parent, the processes a worker (its own group `pgid`, pid `except`)
 * started with clone(CLONE_PARENT), which made them children of the
 * worker's parent thread, not of the worker.  Ended ones (zombies)
 * included.  *parent_tid names that thread (0: not known yet; it is found
 * and kept there), so that a look reads one file of /proc and the status
 * of the processes that came after `except`.  Returns how many.
 */
int reaper_group_strays(pid_t pgid, pid_t except, pid_t *parent_tid, pid_t *found, int max);

#endif
