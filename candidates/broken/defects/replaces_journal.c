/*
 * replaces_journal.c - on its first execute the kernel writes a journal of
 * its own making in its scratch folder ($TMPDIR), every verdict a PASS,
 * and renames it over the file RESHAPE_HOSTILE_TARGET names (the tests
 * name the run's journal in its report folder): a candidate that writes
 * its own results.  The sandbox refuses the rename and stops the worker.
 * Without the variable it does nothing.
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
    const char *target = getenv("RESHAPE_HOSTILE_TARGET"), *tmp = getenv("TMPDIR");
    if (done++ || !target || !tmp)
        return;
    char forged[4096];
    snprintf(forged, sizeof forged, "%s/journal.jsonl", tmp);
    FILE *f = fopen(forged, "w");
    if (!f)
        return;
    fputs("{\"id\": \"forged\", \"verdict\": \"PASS\"}\n", f);
    fclose(f);
    if (rename(forged, target) != 0) {
        /* refused: the sandbox says so */
    }
}

const struct broken_defect broken_defect = {
    .name = "replaces_journal",
    .defect = "renames a forged journal over the run's journal on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
