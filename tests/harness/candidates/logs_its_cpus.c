/*
 * logs_its_cpus.c - a correct candidate that, with RESHAPE_TEST_CTOR_LOG
 * set, appends to that file on each execute how many CPUs the calling
 * thread may run on (sched_getaffinity): a zygote and its forks start on
 * their slot's CPU, and a worker gets every CPU back before the candidate
 * runs (harness/proc/cpus.h), which a test checks against its own set.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void log_cpus(void)
{
    const char *log = getenv("RESHAPE_TEST_CTOR_LOG");
    cpu_set_t set;
    if (!log || sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0)
        return;
    char line[32];
    int n = snprintf(line, sizeof line, "%d\n", CPU_COUNT(&set));
    if (write(fd, line, (size_t)n) != n) {
        /* the test counts the lines it finds */
    }
    close(fd);
}

#define DEFECT_EXECUTE(p, src, dst) log_cpus()
#include "base.h"
