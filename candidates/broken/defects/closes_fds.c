/*
 * closes_fds.c - on its first execute the kernel "cleans up" by closing
 * file descriptors 3 to 1023, which takes the worker's channel to the
 * harness with them.
 */
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int done;
    (void)src;
    (void)dst;
    if (done++)
        return;
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
}

const struct broken_defect broken_defect = {
    .name = "closes_fds",
    .defect = "closes file descriptors 3..1023 on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
