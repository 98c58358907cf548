/*
 * shards.c - a set of reports checked to be one run's complete set of
 * shards (shards.h).  Depends on jansson and util.h.
 */
#include "shards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static const char *get_str(json_t *o, const char *a, const char *b)
{
    json_t *x = json_object_get(o, a);
    const char *s = json_string_value(b ? json_object_get(x, b) : x);
    return s ? s : "";
}

/* The options fields that neither change a verdict nor the selection. */
static int ignored_option(const char *key)
{
    static const char *const keys[] = {"argv", "shard", "jobs", "baseline", "allow_fixes"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strcmp(key, keys[i]))
            return 1;
    return 0;
}

/* "K/N" into *k, *n; 0, or -1 when it is not one with 1 <= K <= N. */
static int parse_kn(const char *s, int *k, int *n)
{
    char tail;
    return sscanf(s, "%d/%d%c", k, n, &tail) == 2 && *k >= 1 && *k <= *n ? 0 : -1;
}

/* Appends a line for each option of `b` (from path pb) that differs from
 * `a`'s (from pa), either way. */
static void compare_options(strbuf *e, json_t *a, json_t *b, const char *pa, const char *pb)
{
    const char *key;
    json_t *va;
    json_t *ob = json_object_get(b, "options"), *oa = json_object_get(a, "options");
    json_object_foreach(oa, key, va) {
        if (ignored_option(key))
            continue;
        json_t *vb = json_object_get(ob, key);
        if (vb && json_equal(va, vb))
            continue;
        char *x = json_dumps(va, JSON_ENCODE_ANY | JSON_COMPACT),
             *y = vb ? json_dumps(vb, JSON_ENCODE_ANY | JSON_COMPACT) : xstrdup("nothing");
        sb_addf(e, "'%s' ran with options.%s %s, '%s' with %s\n", pb, key, y, pa, x);
        free(x);
        free(y);
    }
    json_t *vb;
    json_object_foreach(ob, key, vb)
        if (!ignored_option(key) && !json_object_get(oa, key))
            sb_addf(e, "'%s' ran with options.%s, '%s' without\n", pb, key, pa);
}

int shards_check(json_t *const *reports, const char *const *paths, int n, char **err)
{
    strbuf e;
    sb_init(&e);
    int count = 0, k0;
    if (parse_kn(get_str(reports[0], "options", "shard"), &k0, &count))
        count = 0;
    int *seen = xcalloc((size_t)(count > 0 ? count : 1), sizeof *seen);
    for (int i = 0; i < n; i++) {
        int k, m;
        const char *s = get_str(reports[i], "options", "shard");
        if (parse_kn(s, &k, &m)) {
            sb_addf(&e, "'%s' names no shard K/N in options.shard ('%s')\n", paths[i], s);
            continue;
        }
        if (i > 0) {
            if (strcmp(get_str(reports[i], "candidate", "sha256"),
                       get_str(reports[0], "candidate", "sha256")))
                sb_addf(&e, "'%s' tested another candidate than '%s'\n", paths[i], paths[0]);
            if (strcmp(get_str(reports[i], "suite", "cases_sha256"),
                       get_str(reports[0], "suite", "cases_sha256")))
                sb_addf(&e, "'%s' ran other case files than '%s'\n", paths[i], paths[0]);
            compare_options(&e, reports[0], reports[i], paths[0], paths[i]);
        }
        if (m != count) {
            sb_addf(&e, "'%s' is shard %s but '%s' is %s\n", paths[i], s, paths[0],
                    get_str(reports[0], "options", "shard"));
            continue;
        }
        if (seen[k - 1])
            sb_addf(&e, "shard %d/%d appears twice ('%s', '%s')\n", k, m, paths[seen[k - 1] - 1],
                    paths[i]);
        else
            seen[k - 1] = i + 1;
    }
    for (int k = 0; k < count; k++)
        if (!seen[k])
            sb_addf(&e, "shard %d/%d is missing\n", k + 1, count);
    free(seen);
    if (!e.len) {
        free(e.s);
        return 0;
    }
    *err = sb_take(&e);
    return -1;
}
