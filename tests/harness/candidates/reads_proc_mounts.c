/* reads_proc_mounts.c - the base candidate reading /proc/mounts on every
 * execute, as OpenVINO's CPU plugin does while it starts (2026.4.1, to find
 * its cgroup's cpuset).  /proc/mounts is a link to self/mounts: the process's
 * own entry, no act to refuse, although the parent following the link
 * itself would land in its own /proc entry. */
#include <fcntl.h>
#include <unistd.h>

static int read_mounts(void)
{
    char buf[64];
    int fd = open("/proc/mounts", O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    return n > 0 ? 0 : -1;
}

#define DEFECT_EXECUTE(p, src, dst)                                              \
    do {                                                                         \
        if (read_mounts() != 0)                                                  \
            return RESHAPE_E_INTERNAL;                                           \
    } while (0)
#include "base.h"
