/*
 * reads_signing_key.c - on its first execute the kernel reads the file
 * RESHAPE_HOSTILE_TARGET names (the tests name a vendor.pem outside every
 * folder a candidate may read, as a signing key of certify --sign would
 * be).  The sandbox refuses the read and stops the worker.  Without the
 * variable it does nothing.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int done;
    (void)src;
    (void)dst;
    const char *target = getenv("RESHAPE_HOSTILE_TARGET");
    if (done++ || !target)
        return;
    char key[256];
    int fd = open(target, O_RDONLY);
    if (fd >= 0) {
        if (read(fd, key, sizeof key) < 0) {
            /* the open is the finding */
        }
        close(fd);
    }
}

const struct broken_defect broken_defect = {
    .name = "reads_signing_key",
    .defect = "reads a file named like a signing key on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
