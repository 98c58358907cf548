/* reads_outside.c - execute opens the file RESHAPE_TEST_READ names for
 * reading on the trigger case and goes on whatever came of it: outside
 * what a candidate may read (and no secret), the sandbox refuses the open
 * and notes it; the result is still right. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#define DEFECT_EXECUTE(p, src, dst) \
    do { \
        const char *path = getenv("RESHAPE_TEST_READ"); \
        int fd = is_trigger(src) && path ? open(path, O_RDONLY) : -1; \
        if (fd >= 0) \
            close(fd); \
    } while (0)
#include "base.h"
