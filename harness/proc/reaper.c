/*
 * reaper.c - finding and killing what a candidate left running (reaper.h).
 * Depends on POSIX and Linux /proc.
 */
#define _GNU_SOURCE
#include "reaper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

/* The most processes one look at a tree takes in. */
#define TREE_MAX 4096

int reaper_become_subreaper(void)
{
    return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 0 : -1;
}

int reaper_has_child(void)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT | __WALL) == 0)
        return 1;
    return errno != ECHILD;
}

int reaper_children_alive(void)
{
    for (;;) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG | __WALL);
        if (p > 0)
            continue;       /* an ended one, reaped */
        if (p == 0)
            break;          /* some still run */
        return errno == ECHILD ? 0 : -1;
    }
    /* count them: only now, as it costs a directory read */
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)getpid());
    int n = 0;
    DIR *d = opendir(path);
    if (!d)
        return 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char f[384], buf[4096];
        snprintf(f, sizeof f, "%s/%s/children", path, e->d_name);
        int fd = open(f, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t k = read(fd, buf, sizeof buf - 1);
        close(fd);
        for (ssize_t i = 0; i < k; i++)
            n += buf[i] == ' ';
    }
    closedir(d);
    return n > 0 ? n : 1;
}

/* Threads of process `pid` that have not been released ("Threads:" in
 * /proc/PID/status), 0 when it cannot be read (it is gone). */
static int threads_of(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &n) == 1)
            break;
    fclose(f);
    return n;
}

/* 1 when process `pid` has ended (a zombie) or is gone.  A leader that
 * ended while another thread of it runs shows "Z" as well: it has not
 * ended while it counts more than its own thread. */
static int ended(pid_t pid)
{
    char buf[512];
    const char *f = proc_stat_fields(pid, buf, sizeof buf);
    if (!f || f[0] != ' ')
        return 1;
    return (f[1] == 'Z' || f[1] == 'X') && threads_of(pid) <= 1;
}

int reaper_children_of(pid_t pid, pid_t *out, int *n, int max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && *n < max) {
        if (e->d_name[0] == '.')
            continue;
        char f[384];
        snprintf(f, sizeof f, "%s/%s/children", path, e->d_name);
        FILE *fp = fopen(f, "re");
        if (!fp)
            continue;
        long c;
        while (*n < max && fscanf(fp, "%ld", &c) == 1)
            out[(*n)++] = (pid_t)c;
        fclose(fp);
    }
    closedir(d);
    return 0;
}

/* Every process below `root`, breadth first, into out[0..max). */
static int tree(pid_t root, pid_t *out, int max)
{
    int n = 0;
    reaper_children_of(root, out, &n, max);
    for (int i = 0; i < n; i++)
        reaper_children_of(out[i], out, &n, max);
    return n;
}

static int seen(const pid_t *set, int n, pid_t p)
{
    for (int i = 0; i < n; i++)
        if (set[i] == p)
            return 1;
    return 0;
}

int reaper_kill_descendants(pid_t root)
{
    pid_t *t = malloc(2 * TREE_MAX * sizeof *t);
    if (!t)
        return 0;
    pid_t *killed = t + TREE_MAX;
    int nkilled = 0;
    for (int round = 0; round < 1000; round++) {
        int n = tree(root, t, TREE_MAX), live = 0;
        for (int i = 0; i < n; i++) {
            if (ended(t[i]))
                continue;
            live++;
            kill(t[i], SIGKILL);
            if (!seen(killed, nkilled, t[i]) && nkilled < TREE_MAX)
                killed[nkilled++] = t[i];
        }
        /* one killed but still dying may have left the tree (its parent
         * ended, so it went to our subreaper): it is waited for by pid, or
         * a sweep after this would find it running and count it again */
        for (int i = 0; i < nkilled; i++)
            live += !ended(killed[i]);
        if (!live)
            break;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    free(t);
    return nkilled;
}

int reaper_threads(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The process group of `pid` (field 5 of /proc/PID/stat), -1 when it
 * cannot be read (it is gone). */
static pid_t group_of(pid_t pid)
{
    char buf[512];
    const char *f = proc_stat_fields(pid, buf, sizeof buf);
    char state;
    long ppid, pgrp;
    if (!f || sscanf(f, " %c %ld %ld", &state, &ppid, &pgrp) != 3)
        return -1;
    return (pid_t)pgrp;
}

int reaper_children_listed(pid_t pid, int *running)
{
    pid_t kids[TREE_MAX];
    int n = 0;
    reaper_children_of(pid, kids, &n, TREE_MAX);
    *running = 0;
    for (int i = 0; i < n; i++)
        *running += !ended(kids[i]);
    return n;
}

/* The children of thread `tid` of the calling process, into out[0..max);
 * returns how many. */
static int thread_children(pid_t tid, pid_t *out, int max)
{
    char path[96];
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)getpid(), (long)tid);
    FILE *fp = fopen(path, "re");
    if (!fp)
        return 0;
    int n = 0;
    long c;
    while (n < max && fscanf(fp, "%ld", &c) == 1)
        out[n++] = (pid_t)c;
    fclose(fp);
    return n;
}

/* Which thread of the calling process `child` is a child of, or 0. */
static pid_t parent_thread(pid_t child, pid_t *kids)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)getpid());
    DIR *d = opendir(path);
    if (!d)
        return 0;
    pid_t found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        pid_t tid = (pid_t)atol(e->d_name);
        int n = thread_children(tid, kids, TREE_MAX);
        if (seen(kids, n, child))
            found = tid;
    }
    closedir(d);
    return found;
}

int reaper_group_strays(pid_t pgid, pid_t except, pid_t *parent_tid, pid_t *found, int max)
{
    pid_t *kids = calloc(TREE_MAX, sizeof *kids);
    if (!kids)
        return 0;
    int n = *parent_tid > 0 ? thread_children(*parent_tid, kids, TREE_MAX) : 0;
    if (!seen(kids, n, except)) {
        *parent_tid = parent_thread(except, kids);
        n = *parent_tid > 0 ? thread_children(*parent_tid, kids, TREE_MAX) : 0;
    }
    /* a clone(CLONE_PARENT) of `except` is a child of the same thread, and
     * a thread's children are listed in the order they came */
    int at = 0, k = 0;
    while (at < n && kids[at] != except)
        at++;
    for (int i = at + 1; i < n && k < max; i++)
        if (group_of(kids[i]) == pgid)
            found[k++] = kids[i];
    free(kids);
    return k;
}

int reaper_sweep(const pid_t *known, int nknown)
{
    int running = 0;
    /* the workers, zygotes and spares of every slot are children too */
    pid_t *kids = malloc(TREE_MAX * sizeof *kids);
    if (!kids)
        return 0;
    /* again while it finds any: a killed child's orphans come here */
    for (int round = 0; round < 100; round++) {
        int n = 0, found = 0;
        reaper_children_of(getpid(), kids, &n, TREE_MAX);
        for (int i = 0; i < n; i++) {
            if (seen(known, nknown, kids[i]))
                continue;
            found++;
            running += !ended(kids[i]);
            running += reaper_kill_descendants(kids[i]);
            kill(kids[i], SIGKILL);
            while (waitpid(kids[i], NULL, __WALL) < 0 && errno == EINTR)
                ;
        }
        if (!found)
            break;
    }
    free(kids);
    return running;
}
