/* uses_scratch.c - execute writes, renames, reads back and removes a file
 * in $TMPDIR, which must be $HOME and its working folder too, on the
 * trigger case, and returns RESHAPE_E_INTERNAL when any of it does not
 * work: the scratch folder is the candidate's. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int scratch_works(void)
{
    const char *tmp = getenv("TMPDIR"), *home = getenv("HOME");
    char cwd[4096], a[4200], b[4200], buf[8];
    if (!tmp || !home || strcmp(tmp, home) || !getcwd(cwd, sizeof cwd) || strcmp(cwd, tmp))
        return 0;
    snprintf(a, sizeof a, "%s/a", tmp);
    snprintf(b, sizeof b, "%s/b", tmp);
    int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int ok = fd >= 0 && write(fd, "scratch", 7) == 7;
    if (fd >= 0)
        close(fd);
    ok = ok && rename(a, b) == 0;
    fd = ok ? open(b, O_RDONLY) : -1;
    ok = fd >= 0 && read(fd, buf, 7) == 7 && !memcmp(buf, "scratch", 7);
    if (fd >= 0)
        close(fd);
    return ok && unlink(b) == 0;
}
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src) && !scratch_works()) return RESHAPE_E_INTERNAL; } while (0)
#include "base.h"
