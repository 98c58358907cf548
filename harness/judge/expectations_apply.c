/*
 * expectations_apply.c - matching results against the expectations
 * (expectations.h): the first entry whose globs match a result judges it
 * (WAIVED, UNEXPECTED_PASS, or the expected verdict named in the detail);
 * entries that match no case; stale entries.  Depends on fnmatch, job.h
 * and base/.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

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

/* By pattern, then file order. */
static int cmp_exact(const void *a, const void *b)
{
    const expectation_key *x = a, *y = b;
    int c = strcmp(x->pattern, y->pattern);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int cmp_key(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const expectation_key *)elem)->pattern);
}

static void build_index(expectations *x)
{
    x->exact = xmalloc((size_t)(x->n ? x->n : 1) * sizeof *x->exact);
    x->globbed = xmalloc((size_t)(x->n ? x->n : 1) * sizeof *x->globbed);
    for (int i = 0; i < x->n; i++) {
        if (strpbrk(x->v[i].pattern, "*?[\\"))
            x->globbed[x->nglobbed++] = i;
        else
            x->exact[x->nexact++] = (expectation_key){x->v[i].pattern, i};
    }
    qsort(x->exact, (size_t)x->nexact, sizeof *x->exact, cmp_exact);
    x->indexed = 1;
}

/* The first entry in file order whose pattern is `key` exactly, or -1. */
static int first_exact(const expectations *x, const char *key)
{
    const expectation_key *hit =
        bsearch(key, x->exact, (size_t)x->nexact, sizeof *x->exact, cmp_key);
    if (!hit)
        return -1;
    while (hit > x->exact && !strcmp(hit[-1].pattern, key))
        hit--;
    return hit->index;
}

const expectation *expectations_apply(expectations *x, const char *id, result *r)
{
    if (!x->indexed)
        build_index(x);
    const char *vs = variant_name(r->v);
    char *key = xasprintf("%s/%s", id, vs);
    int best = first_exact(x, key), whole = first_exact(x, id);
    free(key);
    if (whole >= 0 && (best < 0 || whole < best))
        best = whole;
    for (int g = 0; g < x->nglobbed && (best < 0 || x->globbed[g] < best); g++)
        if (entry_matches(&x->v[x->globbed[g]], id, vs)) {
            best = x->globbed[g];
            break;
        }
    if (best < 0)
        return NULL;
    expectation *e = &x->v[best];
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
