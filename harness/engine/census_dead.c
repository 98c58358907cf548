/*
 * census_dead.c - the CPU time of a worker's threads that have ended
 * (census_sleep.h, census_dead_ns), from the kernel's accounting alone: a
 * process's CPU clock (clock_getcpuclockid) is the runtime of every thread
 * it ever had, since the kernel adds a thread's runtime to its process's
 * when the thread ends, and /proc/PID/task/TID/schedstat's first field is
 * the runtime of each live one, the same per-thread sums.  The clock less
 * the live threads is what the ended ones ran: it grows only when a thread
 * ends.  Depends on census_sleep.h and Linux /proc.
 */
#define _GNU_SOURCE
#include "census_sleep.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Tries at reading the live threads twice alike around the clock, or
 * at all while threads end. */
#define DEAD_TRIES 3

/* Into *sum the runtime in ns of every live thread of `pid`, into *n
 * how many; 0, or -1 when one cannot be read (the process is gone). */
static int live_threads(pid_t pid, int64_t *sum, int *n)
{
    char path[96], buf[128];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    *sum = 0;
    *n = 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/%ld/task/%.16s/schedstat", (long)pid, e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t got = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        if (fd >= 0)
            close(fd);
        if (got <= 0) {     /* it ended between the listing and the read */
            rc = -1;
            break;
        }
        buf[got] = '\0';
        char *end;
        long long ns = strtoll(buf, &end, 10);
        if (end == buf || ns < 0) {
            rc = -1;
            break;
        }
        *sum += ns;
        ++*n;
    }
    closedir(d);
    return rc;
}

int64_t census_dead_ns(pid_t pid, int upper)
{
    clockid_t clock;
    if (pid <= 0 || clock_getcpuclockid(pid, &clock) != 0)
        return -1;
    for (int t = 0; t < DEAD_TRIES; t++) {
        int64_t before, after;
        int nb, na;
        struct timespec ts;
        if (live_threads(pid, &before, &nb) != 0 || clock_gettime(clock, &ts) != 0 ||
            live_threads(pid, &after, &na) != 0)
            continue;
        int64_t all = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
        /* the same threads with the same runtimes on both sides: the
         * clock was read among exactly these figures */
        if (nb == na && before == after)
            return all - before;
        /* else the side that can only err in the caller's favour: the
         * live threads read before the clock make the figure no smaller
         * than the ended threads' runtime when the first read began (a
         * thread that ended after its read is counted twice, one that
         * began after it not subtracted); read after the clock, no larger
         * than when the second read ended */
        if (t == DEAD_TRIES - 1)
            return all - (upper ? before : after);
    }
    return -1;
}
