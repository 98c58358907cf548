/*
 * spawned_only.c - correct, but execute fails with INTERNAL unless it runs
 * in a process whose command line is the harness's `__worker` one: one it
 * spawned, or a fork of that (a zygote's worker, wire/channel.h), never a
 * fork of the harness itself.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static int in_spawned_worker(void)
{
    char cmd[512] = {0};
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, cmd, sizeof cmd - 1);
    close(fd);
    /* argv[0] NUL argv[1] NUL ... */
    size_t first = n > 0 ? strlen(cmd) + 1 : 0;
    return n > 0 && first < (size_t)n && strcmp(cmd + first, "__worker") == 0;
}

#define DEFECT_EXECUTE(p, src, dst) \
    do { if (!in_spawned_worker()) return RESHAPE_E_INTERNAL; } while (0)
#include "base.h"
