/*
 * load_failure.c - every result CRASH when the candidate did not load
 * (load_failure.h).  Depends on job.h, util.h.
 */
#include "load_failure.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

void load_failure_results(const job *jobs, int njobs, const char *message, result_sink sink,
                          void *ctx)
{
    char *line = xasprintf("the candidate did not load: %s", message ? message : "unknown");
    for (char *c = line; *c; c++)
        if (*c == '\n')
            *c = '|';
        else if ((unsigned char)*c < 32)
            *c = ' ';
    for (int i = 0; i < njobs; i++) {
        const job *j = &jobs[i];
        int n = j->v == V_THREADS ? j->ncases : 1;
        for (int t = 0; t < n; t++) {
            int dup = 0;
            for (int u = 0; u < t; u++)
                dup |= j->cases[u] == j->cases[t];
            if (dup)
                continue;
            result r = {j->cases[t], j->v, VD_CRASH, xstrdup(line), xstrdup("load failure"), -1};
            sink(ctx, &r);
        }
    }
    free(line);
}
