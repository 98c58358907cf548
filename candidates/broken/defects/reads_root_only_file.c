/*
 * reads_root_only_file.c - on its first execute the kernel reads the file
 * $RESHAPE_HOSTILE_TARGET (the test makes it 0600, root's, below /etc): a
 * root-only file that no carve-out names.  The dropped uid cannot open it
 * (no capability is kept), and the observer stops the worker for trying.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int done;
    (void)src;
    (void)dst;
    if (done++)
        return;
    const char *path = getenv("RESHAPE_HOSTILE_TARGET");
    char buf[64];
    int fd = path ? open(path, O_RDONLY) : -1;
    if (fd >= 0) {
        if (read(fd, buf, sizeof buf) < 0) {
            /* the attempt is the finding */
        }
        close(fd);
    }
}

const struct broken_defect broken_defect = {
    .name = "reads_root_only_file",
    .defect = "reads a root-only 0600 file ($RESHAPE_HOSTILE_TARGET) on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
