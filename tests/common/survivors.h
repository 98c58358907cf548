/*
 * survivors.h - how many processes still carry a marker in their
 * environment (/proc/PID/environ): a test sets a unique NAME=VALUE before
 * it starts the harness, which its workers and whatever a candidate starts
 * inherit, and counts them afterwards.  For Criterion tests; header only.
 */
#ifndef TESTS_COMMON_SURVIVORS_H
#define TESTS_COMMON_SURVIVORS_H

#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* 1 when the environment in /proc/`dir`/environ holds `mark`, 0 when it
 * does not, -1 when it cannot be read or is empty (a kernel thread, or a
 * leader that ended). */
static inline int environ_holds(const char *dir, const char *mark)
{
    char path[600], buf[65536];
    snprintf(path, sizeof path, "/proc/%s/environ", dir);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    size_t len = strlen(mark);
    for (ssize_t i = 0; i + (ssize_t)len <= n; i++)
        if (memcmp(buf + i, mark, len) == 0)
            return 1;
    return 0;
}

/* 1 when process `pid`'s environment holds `mark`.  One whose main thread
 * has ended (a "zombie" that runs) shows none of its own: then any other
 * thread's counts. */
static inline int env_holds(const char *pid, const char *mark)
{
    int own = environ_holds(pid, mark);
    if (own >= 0)
        return own;
    char tasks[300];
    snprintf(tasks, sizeof tasks, "/proc/%s/task", pid);
    DIR *d = opendir(tasks);
    if (!d)
        return 0;
    int held = 0;
    struct dirent *e;
    while (!held && (e = readdir(d)) != NULL) {
        char dir[600];
        snprintf(dir, sizeof dir, "%s/task/%s", pid, e->d_name);
        held = isdigit((unsigned char)e->d_name[0]) && environ_holds(dir, mark) == 1;
    }
    closedir(d);
    return held;
}

/* How many processes hold `mark` now. */
static inline int holders(const char *mark)
{
    int n = 0;
    DIR *d = opendir("/proc");
    cr_assert_not_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (isdigit((unsigned char)e->d_name[0]) && env_holds(e->d_name, mark))
            n++;
    closedir(d);
    return n;
}

/* How many processes hold `mark`, after waiting up to a second for the
 * killed to be gone. */
static inline int survivors(const char *mark)
{
    int n = 0;
    for (int tries = 0; tries < 20; tries++) {
        if ((n = holders(mark)) == 0)
            break;
        struct timespec ms = {0, 50000000};
        nanosleep(&ms, NULL);
    }
    return n;
}

#endif
