/*
 * forks_sleeping_child.c - on its first execute the kernel forks a "helper"
 * that sleeps for ten minutes and is never waited for: a process that
 * would outlive the run.  The child names itself "broken-stray" (its comm)
 * so that tests/broken can look for survivors.
 */
#include <sys/prctl.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int started;
    (void)src;
    (void)dst;
    if (started++)
        return;
    if (fork() == 0) {
        prctl(PR_SET_NAME, "broken-stray");
        sleep(600);
        _exit(0);
    }
}

const struct broken_defect broken_defect = {
    .name = "forks_sleeping_child",
    .defect = "forks a child that sleeps 600 s on its first execute",
    .expect = "LEAK",
    .hooks = {.enter = enter},
};
