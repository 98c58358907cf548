/*
 * room.c - room for more suspects that wait (room.h).  Depends on Linux
 * /proc and POSIX.
 */
#include "room.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

int room_rule(const room_view *v)
{
    if (v->wall_ticks <= 0 || v->unknown || v->suspects_ticks < 0)
        return 0;
    if ((double)v->suspects_ticks > ROOM_SUSPECTS_CPU * (double)v->wall_ticks)
        return 0;
    if (v->mem_available_kb < 256 * 1024 || 4 * v->mem_available_kb < v->mem_total_kb)
        return 0;
    if (4 * (v->tasks + v->tasks_each) >= 3 * v->tasks_limit)
        return 0;
    return 4 * (v->fds_open + v->fds_each) < 3 * v->fds_limit;
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

/* The machine's tasks (the 4th field of /proc/loadavg, "running/total")
 * and the least of pid_max and RLIMIT_NPROC's soft limit (which counts
 * this user's tasks only, fewer than the machine's: so the bound is
 * conservative); -1 when they cannot be read. */
static int read_tasks(long *tasks, long *limit)
{
    FILE *f = fopen("/proc/loadavg", "re");
    if (!f)
        return -1;
    int n = fscanf(f, "%*s %*s %*s %*d/%ld", tasks);
    fclose(f);
    f = fopen("/proc/sys/kernel/pid_max", "re");
    if (!f)
        return -1;
    n += fscanf(f, "%ld", limit);
    fclose(f);
    struct rlimit lim;
    if (n == 2 && getrlimit(RLIMIT_NPROC, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
        lim.rlim_cur < (rlim_t)*limit)
        *limit = (long)lim.rlim_cur;
    return n == 2 && *limit > 0 ? 0 : -1;
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

/* The suspects' CPU time since they were last seen into v, each one's
 * `seen` brought up to now. */
static void suspects_since(room_view *v, room_suspect *s, int n)
{
    pid_t self = getpid();
    for (int i = 0; i < n; i++) {
        unsigned long long now;
        if (s[i].pid == 0)
            continue;
        if (s[i].pid < 0 || s[i].pid == self)
            v->unknown++;
        else if (proc_cpu_ticks(s[i].pid, &now) == 0) {
            if (now > s[i].seen)
                v->suspects_ticks += (long long)(now - s[i].seen);
            s[i].seen = now;
        }
    }
}

int room_look(room *r, long fds_each, long tasks_each, room_suspect *s, int n)
{
    int64_t now_ns = mono_ns();
    if (r->last_ns && now_ns - r->last_ns < ROOM_INTERVAL_NS)
        return 0;
    long hz = sysconf(_SC_CLK_TCK);
    room_view v = {.fds_each = fds_each, .tasks_each = tasks_each,
                   .wall_ticks = r->last_ns ? (now_ns - r->last_ns) * (hz > 0 ? hz : 100) /
                                              1000000000 : 0};
    r->last_ns = now_ns;
    suspects_since(&v, s, n);
    struct rlimit lim;
    if (read_mem(&v.mem_available_kb, &v.mem_total_kb) != 0 ||
        read_tasks(&v.tasks, &v.tasks_limit) != 0 || getrlimit(RLIMIT_NOFILE, &lim) != 0 ||
        (v.fds_open = open_fds()) < 0)
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
