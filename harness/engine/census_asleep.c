/*
 * census_asleep.c - whether a worker and its children sleep
 * (census_sleep.h, census_asleep): the state letter of each of their
 * threads in /proc.  Depends on census_sleep.h, base.h (proc_stat_fields),
 * reaper.h (reaper_children_of) and Linux /proc.
 */
#define _GNU_SOURCE
#include "census_sleep.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"
#include "proc/proc.h"

/* The most children of a worker looked at. */
#define ASLEEP_CHILDREN_MAX 64

/* 1 when every thread of `pid` is in state S, T or t, 0 when one is not,
 * -1 when none can be read (it ended). */
static int threads_asleep(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int seen = 0, asleep = 1;
    struct dirent *e;
    while (asleep && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        const char *f = proc_stat_fields(strtol(e->d_name, NULL, 10), buf, sizeof buf);
        if (!f)
            continue;   /* ended meanwhile */
        seen++;
        char state = f[0] == ' ' ? f[1] : f[0];
        asleep = state == 'S' || state == 'T' || state == 't';
    }
    closedir(d);
    return seen ? asleep : -1;
}

int census_asleep(pid_t pid)
{
    int me = threads_asleep(pid);
    if (me != 1)
        return me;
    pid_t kids[ASLEEP_CHILDREN_MAX];
    int n = 0;
    if (reaper_children_of(pid, kids, &n, ASLEEP_CHILDREN_MAX) != 0)
        return -1;
    for (int k = 0; k < n; k++)
        if (threads_asleep(kids[k]) == 0)
            return 0;
    return 1;
}
