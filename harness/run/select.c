/*
 * select.c - case selection (select.h).  Depends on
 * libcrypto (SHA-256 for shards), fnmatch and case.h.
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

static int has_tag(const rcase *c, const char *tag)
{
    for (int i = 0; i < c->ntags; i++)
        if (!strcmp(c->tags[i], tag))
            return 1;
    return 0;
}

int *select_cases(const case_set *set, const run_options *o, int *nsel)
{
    int *sel = xmalloc((size_t)(set->ncases ? set->ncases : 1) * sizeof *sel);
    int n = 0;
    for (int i = 0; i < set->ncases; i++) {
        const rcase *c = &set->cases[i];
        if (o->filter && fnmatch(o->filter, c->id, 0) != 0)
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
        if (o->shard_n > 1 && shard_of(c->id, o->shard_n) != o->shard_k - 1)
            continue;
        sel[n++] = i;
    }
    *nsel = n;
    return sel;
}
