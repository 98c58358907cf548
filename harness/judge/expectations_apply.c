/*
 * expectations_apply.c - matching results against the expectations
 * (expectations.h): the first entry whose globs match a result judges it
 * (WAIVED, UNEXPECTED_PASS, or the expected verdict named in the detail);
 * entries that match no case; stale entries.  Depends on fnmatch, job.h
 * and base/.
 */
#include <fnmatch.h>
#include <stdlib.h>

#include "base/base.h"
#include "suite/suite.h"
#include "expectations.h"

static int entry_matches(const expectation *e, const char *id, const char *variant_s)
{
    return fnmatch(e->id_glob, id, 0) == 0 &&
           (!e->variant_glob || !variant_s || fnmatch(e->variant_glob, variant_s, 0) == 0);
}

int expectations_warn_unmatched(const expectations *x, const case_set *set)
{
    int n = 0;
    for (int i = 0; i < x->n; i++) {
        int hit = 0;
        for (int c = 0; c < set->ncases && !hit; c++)
            hit = entry_matches(&x->v[i], set->cases[c].id, NULL);
        if (!hit) {
            warn("expectation '%s' matches no case %s:%d:%d", x->v[i].pattern, x->path,
                 x->v[i].line, x->v[i].column);
            n++;
        }
    }
    return n;
}

static const char *expected_name(const expectation *e)
{
    return e->verdict == EXPECT_ANY_VERDICT ? "any failure" : verdict_name((verdict)e->verdict);
}

const expectation *expectations_apply(expectations *x, const char *id, result *r)
{
    expectation *e = NULL;
    for (int i = 0; i < x->n && !e; i++)
        if (entry_matches(&x->v[i], id, variant_name(r->v)))
            e = &x->v[i];
    if (!e)
        return NULL;
    e->matched++;
    char *detail = NULL;
    if (r->vd == VD_PASS) {
        e->unexpected_passes++;
        r->vd = VD_UNEXPECTED_PASS;
        detail = xasprintf("passed, but expectation '%s' (%s:%d) expects %s: remove the entry",
                           e->pattern, x->path, e->line, expected_name(e));
    } else if (!verdict_counts_against(r->vd)) {
        return e;
    } else if (e->verdict == EXPECT_ANY_VERDICT || e->verdict == (int)r->vd) {
        e->waived++;
        detail = xasprintf("waived %s: %s", verdict_name(r->vd), r->detail ? r->detail : "");
        r->vd = VD_WAIVED;
    } else {
        e->other++;
        detail = xasprintf("%s (expectation '%s' expects %s)", r->detail ? r->detail : "",
                           e->pattern, expected_name(e));
    }
    free(r->detail);
    r->detail = detail;
    return e;
}

int expectation_is_stale(const expectation *e)
{
    return e->unexpected_passes > 0 && e->waived == 0 && e->other == 0;
}
