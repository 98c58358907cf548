/*
 * forks_without_limit.c - on its first execute the kernel forks children
 * that sleep for ten minutes, named "broken-stray", until fork fails (at
 * most 5000 of them): a fork bomb, held only by the run's bounds on
 * processes.
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
    for (int k = 0; k < 5000; k++) {
        pid_t p = fork();
        if (p < 0)
            break;
        if (p == 0) {
            prctl(PR_SET_NAME, "broken-stray");
            sleep(600);
            _exit(0);
        }
    }
}

const struct broken_defect broken_defect = {
    .name = "forks_without_limit",
    .defect = "forks children that sleep 600 s until fork fails (at most 5000)",
    .expect = "LEAK",
    .hooks = {.enter = enter},
};
