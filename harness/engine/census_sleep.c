/*
 * census_sleep.c - a worker's thread asleep past a moment
 * (census_sleep.h): its system call and arguments from
 * /proc/PID/task/TID/syscall, the timespec they point to read with
 * process_vm_readv.  Depends on census_sleep.h and Linux.
 */
#define _GNU_SOURCE
#include "census_sleep.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Reads the timespec at `addr` of process `pid` into *ts.  Returns 0, or
 * -1 when it cannot be read or is no valid timespec. */
static int read_timespec(pid_t pid, unsigned long long addr, struct timespec *ts)
{
    struct iovec here = {ts, sizeof *ts}, there = {(void *)(uintptr_t)addr, sizeof *ts};
    if (process_vm_readv(pid, &here, 1, &there, 1, 0) != (ssize_t)sizeof *ts)
        return -1;
    return ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000 ? -1 : 0;
}

static int64_t ns_of(const struct timespec *ts)
{
    /* at most about 292 years; beyond that, the most */
    if (ts->tv_sec > INT64_MAX / 1000000000 - 1)
        return INT64_MAX;
    return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

int census_sleeps_past(pid_t pid, const char *tid, int64_t since, int64_t by)
{
    char path[320], buf[256];
    snprintf(path, sizeof path, "/proc/%ld/task/%s/syscall", (long)pid, tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    long long nr;
    unsigned long long a0, a1, a2;
    if (sscanf(buf, "%lld %llx %llx %llx", &nr, &a0, &a1, &a2) != 4)
        return 0;   /* "running", or not in a system call */
    struct timespec req;
    int absolute = 0;
    clockid_t clock = CLOCK_MONOTONIC;
#ifdef SYS_nanosleep
    if (nr == SYS_nanosleep) {
        if (read_timespec(pid, a0, &req) != 0)
            return 0;
    } else
#endif
    if (nr == SYS_clock_nanosleep) {
        clock = (clockid_t)a0;
        if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME)
            return 0;   /* a CPU-time clock: its end is not a moment */
        absolute = (a1 & TIMER_ABSTIME) != 0;
        if (read_timespec(pid, a2, &req) != 0)
            return 0;
    } else {
        return 0;
    }
    int64_t t = ns_of(&req);
    if (!absolute)
        return since > INT64_MAX - t || since + t > by;
    struct timespec now, mono;
    if (clock_gettime(clock, &now) != 0 || clock_gettime(CLOCK_MONOTONIC, &mono) != 0)
        return 0;
    int64_t left = t - ns_of(&now), at = ns_of(&mono);
    return left > 0 && (at > INT64_MAX - left || at + left > by);
}
