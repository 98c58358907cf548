/*
 * expectations_update.c - `--update-expectations` (expectations.h): stale
 * entries' results back to PASS, and the file rewritten without those
 * entries and their comment lines, every other byte kept.  Depends on
 * base/.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "expectations.h"

/* Writes `x->text` without the ranges of stale entries to x->path, through
 * a temporary file renamed over it. */
static int rewrite(const expectations *x, char **err)
{
    char *tmp = xasprintf("%s.tmp", x->path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        *err = xasprintf("cannot write '%s': %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    size_t at = 0;
    for (int i = 0; i < x->n; i++) {
        if (!expectation_is_stale(&x->v[i]))
            continue;
        fwrite(x->text + at, 1, x->v[i].cut_start - at, f);
        at = x->v[i].cut_end;
    }
    fwrite(x->text + at, 1, x->len - at, f);
    if (fclose(f) != 0 || rename(tmp, x->path) != 0) {
        *err = xasprintf("cannot replace '%s': %s", x->path, strerror(errno));
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int expectations_update(expectations *x, result *res, const expectation **waivers, int n,
                        char **err)
{
    int stale = 0;
    for (int i = 0; i < x->n; i++)
        stale += expectation_is_stale(&x->v[i]);
    if (!stale)
        return 0;
    if (!x->block) {
        *err = xasprintf("cannot rewrite '%s': its 'expectations' list is not one entry per "
                         "block of lines; write it as a block list ('- id: ...')", x->path);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (!waivers[i] || !expectation_is_stale(waivers[i]))
            continue;
        if (res[i].vd == VD_UNEXPECTED_PASS) {
            res[i].vd = VD_PASS;
            free(res[i].detail);
            res[i].detail = xstrdup("");
        }
        waivers[i] = NULL;
    }
    if (rewrite(x, err))
        return -1;
    for (int i = 0; i < x->n; i++)
        if (expectation_is_stale(&x->v[i]))
            printf("expectations: removed '%s' (%s:%d): its %ld result%s pass now\n",
                   x->v[i].pattern, x->path, x->v[i].line, x->v[i].unexpected_passes,
                   x->v[i].unexpected_passes == 1 ? "" : "s");
    return stale;
}
