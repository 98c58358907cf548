/*
 * reads_shadow.c - on its first execute the kernel reads /etc/shadow and
 * keeps its first 64 bytes in a file of its scratch folder ($TMPDIR): a
 * candidate that steals a secret.  The sandbox refuses the read (Landlock
 * carves it out of /etc; a dropped root cannot open it either) and stops
 * the worker.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int done;
    (void)src;
    (void)dst;
    if (done++)
        return;
    char buf[64];
    int fd = open("/etc/shadow", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
    if (fd >= 0)
        close(fd);
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/shadow", tmp ? tmp : "/tmp");
    int out = n > 0 ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600) : -1;
    if (out >= 0) {
        if (write(out, buf, (size_t)n) != n) {
            /* what it kept is the finding */
        }
        close(out);
    }
}

const struct broken_defect broken_defect = {
    .name = "reads_shadow",
    .defect = "reads /etc/shadow into its scratch folder on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
