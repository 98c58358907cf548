/* leaves_deep_directory_chain.c - on the trigger case execute makes a
 * chain of folders in its scratch folder deeper than PATH_MAX (400 of 20
 * characters each, one at a time from the last) with 1 MiB at its bottom:
 * a removal by path (nftw) fails on it with ENAMETOOLONG. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
static void deep_chain(void)
{
    static int done;
    static char mib[1 << 20];
    const char *tmp = getenv("TMPDIR");
    int back = open(".", O_RDONLY | O_DIRECTORY);
    if (done++ || !tmp || back < 0 || chdir(tmp) != 0)
        return;
    for (int i = 0; i < 400; i++)
        if (mkdir("deep-chain-of-names", 0700) != 0 || chdir("deep-chain-of-names") != 0)
            break;
    int fd = open("bottom", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        if (write(fd, mib, sizeof mib) < 0) {
            /* what it could write stays */
        }
        close(fd);
    }
    if (fchdir(back) != 0) {
        /* the scratch folder is its working folder anyway */
    }
    close(back);
}
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) deep_chain(); } while (0)
#include "base.h"
