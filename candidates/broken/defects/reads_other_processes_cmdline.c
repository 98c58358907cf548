/*
 * reads_other_processes_cmdline.c - on its first execute the kernel reads
 * the command line of process 1 (init), which may hold another program's
 * secrets, and would publish it as its name.  The observer stops the worker:
 * /proc/1 is no process of the worker's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int done;
    (void)src;
    (void)dst;
    if (done++)
        return;
    char buf[256];
    int fd = open("/proc/1/cmdline", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, buf, sizeof buf) < 0) {
            /* refused or not, the attempt is the finding */
        }
        close(fd);
    }
}

const struct broken_defect broken_defect = {
    .name = "reads_other_processes_cmdline",
    .defect = "reads /proc/1/cmdline (another process's command line) on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
