/*
 * truncates_reference.c - on its first execute the kernel truncates the
 * file RESHAPE_HOSTILE_TARGET names to 0 bytes (the tests name a copy of
 * the reference library beside a copy of the harness), else the reference
 * beside the harness binary that runs it (/proc/self/exe).  The sandbox
 * refuses the truncate and stops the worker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int done;
    (void)src;
    (void)dst;
    if (done++)
        return;
    const char *target = getenv("RESHAPE_HOSTILE_TARGET");
    char path[4096];
    if (target) {
        snprintf(path, sizeof path, "%s", target);
    } else {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 32);
        path[n > 0 ? n : 0] = '\0';
        char *slash = strrchr(path, '/');
        if (!slash)
            return;
        strcpy(slash, "/libreshape_ref.so");
    }
    if (truncate(path, 0) != 0) {
        /* refused: the sandbox says so */
    }
}

const struct broken_defect broken_defect = {
    .name = "truncates_reference",
    .defect = "truncates the reference library to 0 bytes on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
