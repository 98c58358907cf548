/*
 * room.h - whether there is room for more suspects (confirm.h) to wait
 * at once: a suspect that hangs asleep, paused or blocked costs its full
 * budget in wall time, a process and some memory and descriptors, and no
 * CPU; one that spins costs CPU.  So the rule looks at the CPU time the
 * running suspects' own processes used since the last look (their
 * /proc/PID/stat, which the kernel writes and the candidate cannot),
 * never at the machine's idle time: a machine busy with other work still
 * has room for processes that sleep.  Memory, descriptors and the
 * machine's count of tasks bound them too.  Private to run/ (used by
 * confirm.c).  Depends on Linux /proc (PID/stat, meminfo, loadavg,
 * sys/kernel/pid_max, self/fd) and POSIX.
 */
#ifndef HARNESS_ROOM_H
#define HARNESS_ROOM_H

#include <stdint.h>
#include <sys/types.h>

/* What the rule looks at.  suspects_ticks: CPU time (user + system, in
 * clock ticks, sysconf(_SC_CLK_TCK)) the running suspects' processes used
 * between the last look and this one, wall_ticks: that span of wall time
 * in the same ticks; unknown: a running suspect whose process could not be
 * told (none yet, or the harness itself with --isolation none); mem_*: kB
 * of /proc/meminfo (MemAvailable, MemTotal); fds_*: descriptors this
 * process has open and may have (RLIMIT_NOFILE's soft limit); fds_each:
 * what one more suspect costs us in descriptors; tasks: processes and
 * threads on the machine (/proc/loadavg), tasks_limit: pid_max, or
 * RLIMIT_NPROC's soft limit when that is less;
 * tasks_each: what one more suspect adds to them. */
typedef struct room_view {
    long long suspects_ticks, wall_ticks;
    int unknown;
    long long mem_available_kb, mem_total_kb;
    long fds_open, fds_limit, fds_each;
    long tasks, tasks_limit, tasks_each;
} room_view;

/* The CPU the running suspects may use together, in CPUs (a share of one
 * CPU's time), for more to start: a quarter.  Hangs that spin use one
 * CPU each while they run, so 32 of them never pass it; hangs that sleep
 * use none. */
#define ROOM_SUSPECTS_CPU 0.25

/*
 * The rule: 1 when at least one tick of wall time passed, the suspects'
 * processes used at most ROOM_SUSPECTS_CPU of it, none of them is unknown,
 * a quarter of the memory and at least 256 MiB of it are available,
 * fds_each more descriptors keep this process under three quarters of its
 * limit and tasks_each more tasks keep the machine under three quarters of
 * tasks_limit; else 0.  Pure.
 */
int room_rule(const room_view *v);

/* A confirming slot's suspect: the process that runs it, as the slot's
 * thread saw it after handing it the request (pid 0: the slot runs none
 * now), and that process's CPU time (clock ticks) when last seen: at that
 * hand-over, then at each look. */
typedef struct room_suspect {
    pid_t pid;
    unsigned long long seen;
} room_suspect;

/* A sampler: when the last look was. */
typedef struct room {
    int64_t last_ns;        /* CLOCK_MONOTONIC of the last look; 0: none yet */
} room;

/* Minimum time between two looks: a shorter one says no, as too few ticks
 * passed to tell. */
#define ROOM_INTERVAL_NS ((int64_t)50 * 1000000)

/*
 * A look now: room_rule over the CPU time that suspects s[0..n) used since
 * the last look (at least ROOM_INTERVAL_NS ago, else 0 and nothing is
 * read), the memory, this process's descriptors and the machine's tasks.
 * Sets each s[i].seen to its process's CPU time now; one whose process
 * has ended counts nothing, one with a pid of 0 runs none and is skipped,
 * one with a negative pid or this process's own is unknown (`s` may be
 * NULL when `n` is 0: memory, descriptors and tasks only).  The first
 * look (nothing to compare with) says 0 as well, and so does one where
 * /proc cannot be read.  Not thread-safe: one caller at a time per `room`
 * and `s`.
 */
int room_look(room *r, long fds_each, long tasks_each, room_suspect *s, int n);

/* Raises this process's soft limit of descriptors to its hard one (at
 * most 65536), so that more waiting processes fit (processes started
 * after it inherit it); what it cannot raise it leaves. */
void room_raise_fd_limit(void);

#endif
