/*
 * suite_commit.c - the commit of the suite a run used (report.h,
 * suite_commit): `git rev-parse HEAD` in the source tree, or, where there
 * is no checkout (an installed tree), the commit stamped when the harness
 * was built (build/gen/suite_commit.h, written by install/build.mk).
 * Depends on host.c (git_commit) and util.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "report.h"

#ifndef SUITE_COMMIT_STAMP
#define SUITE_COMMIT_STAMP "unknown"
#endif

char *suite_commit(void)
{
    char *c = git_commit(source_dir());
    if (strcmp(c, "unknown"))
        return c;
    free(c);
    return xstrdup(SUITE_COMMIT_STAMP);
}
