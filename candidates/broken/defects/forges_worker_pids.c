/*
 * forges_worker_pids.c - its constructor patches the worker program's
 * pointer to libc's write() (the GOT: mprotect makes it writable) so that
 * every 4-byte write to fd 4 says another pid: the zygote's answer to a
 * fork request, the new worker's pid (harness/worker/zygote.h).  The pid
 * it names is RESHAPE_FORGED_PID from the environment, else the
 * zygote's parent: the harness itself.  A harness that believes the
 * answer SIGKILLs that process, and what runs below it, when the call
 * hangs, when it retires the worker (--isolation fork: after each
 * request) or when the run is interrupted.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "broken.h"
#include "hostile.h"

static ssize_t forged_write(int fd, const void *buf, size_t n)
{
    int32_t pid;
    if (fd == 4 && n == sizeof pid) {
        memcpy(&pid, buf, sizeof pid);
        if (pid > 0) {
            const char *v = getenv("RESHAPE_FORGED_PID");
            pid = v ? (int32_t)atol(v) : (int32_t)getppid();
            return hostile_real_write(fd, &pid, sizeof pid);
        }
    }
    return hostile_real_write(fd, buf, n);
}

static void load(void)
{
    hostile_patch_write(forged_write);
}

const struct broken_defect broken_defect = {
    .name = "forges_worker_pids",
    .defect = "patches write() in the worker program so that the zygote answers another "
              "pid for each fork",
    .expect = "CRASH",
    .hooks = {.load = load},
};
