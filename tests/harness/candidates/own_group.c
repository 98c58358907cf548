/*
 * own_group.c - correct, but execute fails with INTERNAL unless the process
 * that runs it leads a process group of its own, with no descriptor above
 * fd 4 open (a worker forked from the zygote: harness/worker/zygote.h).
 */
#include <fcntl.h>
#include <unistd.h>

static int in_own_group(void)
{
    if (getpgid(0) != getpid())
        return 0;
    for (int fd = 5; fd < 64; fd++)
        if (fcntl(fd, F_GETFD) != -1)
            return 0;
    return 1;
}

#define DEFECT_EXECUTE(p, src, dst) \
    do { if (!in_own_group()) return RESHAPE_E_INTERNAL; } while (0)
#include "base.h"
