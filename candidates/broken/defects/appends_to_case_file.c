/*
 * appends_to_case_file.c - on its first execute the kernel appends a line
 * to the file RESHAPE_HOSTILE_TARGET names (the tests name a copy of a
 * case file of the run): a candidate that rewrites the suite.  The sandbox
 * refuses the open for writing and stops the worker.  Without the
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
    int fd = open(target, O_WRONLY | O_APPEND);
    if (fd >= 0) {
        if (write(fd, "# tampered\n", 11) != 11) {
            /* the changed bytes are the finding, whatever came through */
        }
        close(fd);
    }
}

const struct broken_defect broken_defect = {
    .name = "appends_to_case_file",
    .defect = "appends a line to a case file of the run on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
