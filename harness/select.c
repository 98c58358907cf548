/*
 * select.c - case selection and expectations (select.h).  Depends on
 * libcrypto (SHA-256 for shards), fnmatch and case.h.
 */
#include "select.h"

#include <fnmatch.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

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

void expectations_load(expectations *x, const char *path, case_set *set)
{
    memset(x, 0, sizeof *x);
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        case_set_error(set, path, 0, 0, "cannot read expectations '%s'", path);
        return;
    }
    int line = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        char *p = l + strspn(l, " \t");
        if (!*p || *p == '#')
            continue;
        size_t idlen = strcspn(p, " \t");
        char *rest = p + idlen;
        rest += strspn(rest, " \t");
        char *id = xasprintf("%.*s", (int)idlen, p);
        int v = -1;
        char *slash = strchr(id, '/');
        if (slash) {
            *slash = '\0';
            v = variant_parse(slash + 1);
            if (v < 0) {
                case_set_error(set, path, line, (int)(p - l) + (int)(slash - id) + 2,
                               "unknown variant '%s'", slash + 1);
                free(id);
                continue;
            }
        }
        if (!*rest) {
            case_set_error(set, path, line, (int)(p - l) + 1,
                           "expectation '%s' has no reason", id);
            free(id);
            continue;
        }
        x->v = xrealloc(x->v, (size_t)(x->n + 1) * sizeof *x->v);
        x->v[x->n++] = (expectation){id, v, xstrdup(rest)};
    }
    free(text);
}

const char *expectations_match(const expectations *x, const char *id, variant v)
{
    for (int i = 0; i < x->n; i++)
        if (!strcmp(x->v[i].id, id) && (x->v[i].variant < 0 || x->v[i].variant == (int)v))
            return x->v[i].reason;
    return NULL;
}

void expectations_apply(const char *reason, result *r)
{
    if (!reason || r->vd == VD_NOT_SUPPORTED)
        return;
    if (r->vd == VD_PASS) {
        r->vd = VD_UNEXPECTED_PASS;
        free(r->detail);
        r->detail = xasprintf("passed, but the expectations say it fails (%s): remove the entry",
                              reason);
    } else if (verdict_counts_against(r->vd)) {
        char *d = xasprintf("expected %s: %s", verdict_name(r->vd), r->detail);
        free(r->detail);
        r->detail = d;
        r->vd = VD_WAIVED;
    }
}

void expectations_free(expectations *x)
{
    for (int i = 0; i < x->n; i++) {
        free(x->v[i].id);
        free(x->v[i].reason);
    }
    free(x->v);
    memset(x, 0, sizeof *x);
}
