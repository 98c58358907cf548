/*
 * kills_harness.c - for inputs whose first dim is 3 (OpenVINO Examples 4
 * and 5, and more) the kernel sends SIGKILL to its parent process: the
 * harness, for a worker.
 */
#include <signal.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)dst;
    if (src->rank >= 1 && src->dims[0] == 3)
        kill(getppid(), SIGKILL);
}

const struct broken_defect broken_defect = {
    .name = "kills_harness",
    .defect = "kill(getppid(), SIGKILL) when dims[0] == 3",
    .expect = "CRASH",
    .hooks = {.enter = enter},
};
