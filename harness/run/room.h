/*
 * room.h - whether the machine has room for more processes that wait: a
 * suspect (confirm.h) that hangs asleep costs its full budget in wall
 * time and nothing else, so the confirmer runs more of them at once while
 * the CPUs are mostly idle and memory and descriptors are to spare; one
 * that spins keeps the CPUs busy, and no more start.  Private to run/
 * (used by confirm.c).  Depends on Linux /proc (stat, meminfo, self/fd).
 */
#ifndef HARNESS_ROOM_H
#define HARNESS_ROOM_H

#include <stdint.h>

/* The CPU time of the whole machine (/proc/stat's "cpu" line), in clock
 * ticks: idle (idle + iowait) and total (every field). */
typedef struct room_cpu {
    unsigned long long idle, total;
} room_cpu;

/* What the rule looks at.  mem_*: kB of /proc/meminfo (MemAvailable,
 * MemTotal); fds_*: descriptors this process has open and may have
 * (RLIMIT_NOFILE's soft limit); fds_each: what one more waiting process
 * costs us in descriptors. */
typedef struct room_view {
    room_cpu before, now;
    long long mem_available_kb, mem_total_kb;
    long fds_open, fds_limit, fds_each;
} room_view;

/* Idle share of the CPU time between two samples, below which no more
 * start: half. */
#define ROOM_IDLE_SHARE 0.5

/*
 * The rule: 1 when, between v->before and v->now, at least ROOM_IDLE_SHARE
 * of the CPU time was idle (no tick passed: 0), a quarter of the memory
 * and at least 256 MiB of it are available, and fds_each more descriptors
 * keep this process under three quarters of its limit.  Pure.
 */
int room_rule(const room_view *v);

/* A sampler: the CPU sample the next look compares with. */
typedef struct room {
    room_cpu last;
    int64_t last_ns;        /* CLOCK_MONOTONIC of `last`; 0: none yet */
} room;

/* Minimum time between two looks: a shorter one says no, as it has seen
 * too few ticks to tell. */
#define ROOM_INTERVAL_NS ((int64_t)50 * 1000000)

/*
 * A look at the machine now: room_rule over the CPU time since the last
 * look (at least ROOM_INTERVAL_NS ago, else 0 and the sample is kept),
 * the memory and this process's descriptors.  0 as well when /proc cannot
 * be read.  Not thread-safe: one caller at a time per `room`.
 */
int room_look(room *r, long fds_each);

/* Raises this process's soft limit of descriptors to its hard one (at
 * most 65536), so that more waiting processes fit (processes started
 * after it inherit it); what it cannot raise it leaves. */
void room_raise_fd_limit(void);

#endif
