/* fills_scratch.c - on the trigger case execute writes 1 MiB blocks to a
 * file of its scratch folder until a write fails or 64 MiB are written,
 * and keeps the file; it returns RESHAPE_E_INTERNAL when all 64 went in:
 * a run that bounds the scratch folder below that (--sandbox-scratch-mb
 * 16) sees it pass. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static int fill(void)
{
    static char mib[1 << 20];
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/fill", tmp ? tmp : ".");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int blocks = 0;
    while (fd >= 0 && blocks < 64 && write(fd, mib, sizeof mib) == (ssize_t)sizeof mib)
        blocks++;
    if (fd >= 0)
        close(fd);
    return blocks;
}
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src) && fill() >= 64) return RESHAPE_E_INTERNAL; } while (0)
#include "base.h"
