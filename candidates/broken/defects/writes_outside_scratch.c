/*
 * writes_outside_scratch.c - on its first execute the kernel creates a
 * file outside its scratch folder: reshape_tamper_probe in the folder of
 * the file RESHAPE_HOSTILE_TARGET names, else in /tmp.  The sandbox
 * refuses the create and stops the worker.
 */
#include <fcntl.h>
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
    char path[4096] = "/tmp/reshape_tamper_probe";
    const char *slash = target ? strrchr(target, '/') : NULL;
    if (slash)
        snprintf(path, sizeof path, "%.*s/reshape_tamper_probe", (int)(slash - target), target);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, "tampered\n", 9) != 9) {
            /* nothing to do: the file's presence is the finding */
        }
        close(fd);
    }
}

const struct broken_defect broken_defect = {
    .name = "writes_outside_scratch",
    .defect = "creates reshape_tamper_probe outside its scratch folder on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
