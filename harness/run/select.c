/*
 * select.c - case selection, and the jobs of a shard (select.h).  Depends
 * on libcrypto (SHA-256 for shards), fnmatch, case.h and job.h.
 */
#include "select.h"

#include <fnmatch.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

int shard_of(const char *id, int n)
{
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!EVP_Digest(id, strlen(id), d, &len, EVP_sha256(), NULL))
        die(EXIT_HARNESS, "cannot compute sha256");
    uint64_t h = 0;
    for (int i = 0; i < 8; i++)
        h = h << 8 | d[i];
    return (int)(h % (uint64_t)n);
}

/* Nonzero when filter `f` (ID_GLOB or ID_GLOB/VARIANT_GLOB) matches id
 * `id` and, when `v` is not NULL, variant name `v`. */
static int filter_matches(const char *f, const char *id, const char *v)
{
    const char *slash = strrchr(f, '/');
    if (!slash)
        return fnmatch(f, id, 0) == 0;
    char *idg = xasprintf("%.*s", (int)(slash - f), f);
    int hit = fnmatch(idg, id, 0) == 0 && (!v || fnmatch(slash + 1, v, 0) == 0);
    free(idg);
    return hit;
}

int select_filter_matches(const run_options *o, const char *id, const char *variant_s)
{
    if (!o->nfilters)
        return 1;
    for (int i = 0; i < o->nfilters; i++)
        if (filter_matches(o->filters[i], id, variant_s))
            return 1;
    return 0;
}

static int has_tag(const rcase *c, const char *tag)
{
    for (int i = 0; i < c->ntags; i++)
        if (!strcmp(c->tags[i], tag))
            return 1;
    return 0;
}

/* The cases the selectors match, with or without --shard. */
static int *matching(const case_set *set, const run_options *o, int sharded, int *nsel)
{
    int *sel = xmalloc((size_t)(set->ncases ? set->ncases : 1) * sizeof *sel);
    int n = 0;
    for (int i = 0; i < set->ncases; i++) {
        const rcase *c = &set->cases[i];
        if (!select_filter_matches(o, c->id, NULL))
            continue;
        if (o->ntags) {
            int any = 0;
            for (int t = 0; t < o->ntags && !any; t++)
                any = has_tag(c, o->tags[t]);
            if (!any)
                continue;
        }
        if (o->ops && !(o->ops & (1u << c->op)))
            continue;
        if (sharded && o->shard_n > 1 && shard_of(c->id, o->shard_n) != o->shard_k - 1)
            continue;
        sel[n++] = i;
    }
    *nsel = n;
    return sel;
}

int *select_cases(const case_set *set, const run_options *o, int *nsel)
{
    return matching(set, o, 1, nsel);
}

job *select_jobs(const case_set *set, const run_options *o, int *njobs)
{
    int nsel, n = 0;
    int *sel = matching(set, o, 0, &nsel);
    job *jobs = plan_jobs(set, sel, nsel, o->variants, o->max_bytes, njobs);
    free(sel);
    for (int i = 0; i < *njobs; i++) {
        int hit = 0;
        for (int c = 0; c < jobs[i].ncases && !hit; c++)
            hit = select_filter_matches(o, set->cases[jobs[i].cases[c]].id,
                                        variant_name(jobs[i].v));
        if (hit && (o->shard_n <= 1 ||
                    shard_of(set->cases[jobs[i].cases[0]].id, o->shard_n) == o->shard_k - 1))
            jobs[n++] = jobs[i];
    }
    *njobs = n;
    return jobs;
}
