/*
 * opens_proc_mem_for_write.c - on its first execute the kernel opens the
 * memory of its parent (the slot's zygote, or the harness), /proc/PPID/mem,
 * for writing: the way to change another process's code.  The kernel refuses
 * it (no ptrace access); the observer stops the worker for trying.
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
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)getppid());
    int fd = open(path, O_RDWR);
    if (fd >= 0)
        close(fd);
}

const struct broken_defect broken_defect = {
    .name = "opens_proc_mem_for_write",
    .defect = "opens its parent's /proc/PPID/mem for writing on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
