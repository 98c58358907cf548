/*
 * room.c - room for more waiting processes (room.h).  Depends on Linux
 * /proc and POSIX.
 */
#include "room.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

int room_rule(const room_view *v)
{
    unsigned long long ticks = v->now.total - v->before.total;
    unsigned long long idle = v->now.idle - v->before.idle;
    if (v->now.total <= v->before.total || v->now.idle < v->before.idle || idle > ticks)
        return 0;
    if ((double)idle < ROOM_IDLE_SHARE * (double)ticks)
        return 0;
    if (v->mem_available_kb < 256 * 1024 || 4 * v->mem_available_kb < v->mem_total_kb)
        return 0;
    return 4 * (v->fds_open + v->fds_each) < 3 * v->fds_limit;
}

/* The "cpu" line of /proc/stat into *c; -1 when it cannot be read. */
static int read_cpu(room_cpu *c)
{
    FILE *f = fopen("/proc/stat", "re");
    if (!f)
        return -1;
    unsigned long long t[10] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &t[0], &t[1],
                   &t[2], &t[3], &t[4], &t[5], &t[6], &t[7], &t[8], &t[9]);
    fclose(f);
    if (n < 4)
        return -1;
    /* guest and guest_nice (8, 9) are inside user and nice already */
    c->idle = t[3] + t[4];
    c->total = 0;
    for (int i = 0; i < 8; i++)
        c->total += t[i];
    return 0;
}

/* MemAvailable and MemTotal in kB; -1 when they cannot be read. */
static int read_mem(long long *available, long long *total)
{
    FILE *f = fopen("/proc/meminfo", "re");
    if (!f)
        return -1;
    char line[256];
    *available = *total = -1;
    while (fgets(line, sizeof line, f)) {
        long long kb;
        if (sscanf(line, "MemTotal: %lld", &kb) == 1)
            *total = kb;
        else if (sscanf(line, "MemAvailable: %lld", &kb) == 1)
            *available = kb;
    }
    fclose(f);
    return *available < 0 || *total <= 0 ? -1 : 0;
}

/* Descriptors this process has open; -1 when /proc/self/fd cannot be read. */
static long open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    long n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int room_look(room *r, long fds_each)
{
    int64_t now_ns = mono_ns();
    if (r->last_ns && now_ns - r->last_ns < ROOM_INTERVAL_NS)
        return 0;
    room_view v = {.before = r->last, .fds_each = fds_each};
    if (read_cpu(&v.now) != 0)
        return 0;
    int first = r->last_ns == 0;
    r->last = v.now;
    r->last_ns = now_ns;
    struct rlimit lim;
    if (first || read_mem(&v.mem_available_kb, &v.mem_total_kb) != 0 ||
        getrlimit(RLIMIT_NOFILE, &lim) != 0 || (v.fds_open = open_fds()) < 0)
        return 0;
    v.fds_limit = lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > 1 << 20 ? 1 << 20
                                                                          : (long)lim.rlim_cur;
    return room_rule(&v);
}

void room_raise_fd_limit(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return;
    rlim_t want = lim.rlim_max == RLIM_INFINITY || lim.rlim_max > 65536 ? 65536 : lim.rlim_max;
    if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < want) {
        lim.rlim_cur = want;
        (void)setrlimit(RLIMIT_NOFILE, &lim);
    }
}
