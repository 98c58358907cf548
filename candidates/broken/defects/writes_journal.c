/*
 * writes_journal.c - on its first execute the kernel appends a forged
 * verdict to the file RESHAPE_HOSTILE_TARGET names (the tests name the
 * run's journal in its report folder): a candidate that writes its own
 * result.  The sandbox refuses the open for writing and stops the worker.
 * Without the variable it does nothing.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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
    static const char forged[] = "{\"id\": \"forged\", \"verdict\": \"PASS\"}\n";
    int fd = open(target, O_WRONLY | O_APPEND);
    if (fd >= 0) {
        if (write(fd, forged, strlen(forged)) < 0) {
            /* the changed bytes are the finding */
        }
        close(fd);
    }
}

const struct broken_defect broken_defect = {
    .name = "writes_journal",
    .defect = "appends a forged verdict to the run's journal on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
