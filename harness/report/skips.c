/*
 * skips.c - grouping a report's skipped runs by reason (skips.h).
 * Depends on jansson, job.h and util.h.
 */
#include "skips.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* `d` with every number that is a word of its own (decimal, or 0x hex)
 * written N and every bracketed list [..]; digits inside a word ("f32",
 * "s64") stay.  A new string. */
static char *reason_of(const char *d)
{
    strbuf b;
    sb_init(&b);
    for (const char *p = d; *p;) {
        const char *close = *p == '[' ? strchr(p, ']') : NULL;
        if (close) {
            sb_addf(&b, "[..]");
            p = close + 1;
            continue;
        }
        if (isdigit((unsigned char)*p) && (p == d || !isalnum((unsigned char)p[-1]))) {
            const char *q = p;
            if (q[0] == '0' && q[1] == 'x')
                for (q += 2; isxdigit((unsigned char)*q); q++)
                    ;
            else
                while (isdigit((unsigned char)*q))
                    q++;
            if (!isalpha((unsigned char)*q)) {
                sb_addf(&b, "N");
                p = q;
                continue;
            }
        }
        sb_addf(&b, "%c", *p++);
    }
    return sb_take(&b);
}

static void bump(json_t *counts, const char *key)
{
    json_t *n = json_object_get(counts, key);
    if (n)
        json_integer_set(n, json_integer_value(n) + 1);
    else
        json_object_set_new(counts, key, json_integer(1));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* `counts` with its keys sorted by name (`by_variant`: in job.h's order,
 * unknown names after them).  New reference. */
static json_t *sorted_counts(json_t *counts, int by_variant)
{
    json_t *out = json_object();
    if (by_variant)
        for (int v = 0; v < V_COUNT; v++) {
            json_t *n = json_object_get(counts, variant_name((variant)v));
            if (n)
                json_object_set(out, variant_name((variant)v), n);
        }
    size_t n = json_object_size(counts), i = 0;
    const char **keys = xmalloc((n ? n : 1) * sizeof *keys);
    const char *key;
    json_t *val;
    json_object_foreach(counts, key, val)
        keys[i++] = key;
    qsort(keys, n, sizeof *keys, cmp_str);
    for (i = 0; i < n; i++)
        if (!json_object_get(out, keys[i]))
            json_object_set(out, keys[i], json_object_get(counts, keys[i]));
    free(keys);
    return out;
}

/* Shorter id first, then byte order: the example a reader can run. */
static int better_example(json_t *e, json_t *best)
{
    size_t le = strlen(str(e, "id")), lb = strlen(str(best, "id"));
    return le < lb || (le == lb && strcmp(str(e, "id"), str(best, "id")) < 0);
}

static int cmp_group(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    json_int_t rx = json_integer_value(json_object_get(x, "runs"));
    json_int_t ry = json_integer_value(json_object_get(y, "runs"));
    if (rx != ry)
        return rx > ry ? -1 : 1;
    return strcmp(str(x, "reason"), str(y, "reason"));
}

json_t *skips_build(json_t *cases)
{
    /* reason -> {runs, ids: {id: true}, ops, dtypes, variants, example} */
    json_t *groups = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(cases, i, e) {
        if (strcmp(str(e, "verdict"), verdict_name(VD_NOT_SUPPORTED)))
            continue;
        char *reason = reason_of(str(e, "detail"));
        json_t *g = json_object_get(groups, reason);
        if (!g) {
            g = json_pack("{s:i, s:o, s:o, s:o, s:o, s:O}", "runs", 0, "ids", json_object(),
                          "ops", json_object(), "dtypes", json_object(), "variants",
                          json_object(), "example", e);
            json_object_set_new(groups, reason, g);
        }
        free(reason);
        json_integer_set(json_object_get(g, "runs"),
                         json_integer_value(json_object_get(g, "runs")) + 1);
        json_object_set_new(json_object_get(g, "ids"), str(e, "id"), json_true());
        bump(json_object_get(g, "ops"), str(e, "op"));
        bump(json_object_get(g, "dtypes"), str(e, "dtype"));
        bump(json_object_get(g, "variants"), str(e, "variant"));
        if (better_example(e, json_object_get(g, "example")))
            json_object_set(g, "example", e);
    }
    size_t n = json_object_size(groups), k = 0;
    json_t **out = xmalloc((n ? n : 1) * sizeof *out);
    const char *reason;
    json_t *g;
    json_object_foreach(groups, reason, g) {
        json_t *ex = json_object_get(g, "example");
        out[k++] = json_pack("{s:s, s:O, s:I, s:o, s:o, s:o, s:{s:s, s:s, s:s}}",
                             "reason", reason, "runs", json_object_get(g, "runs"),
                             "cases", (json_int_t)json_object_size(json_object_get(g, "ids")),
                             "ops", sorted_counts(json_object_get(g, "ops"), 0),
                             "dtypes", sorted_counts(json_object_get(g, "dtypes"), 0),
                             "variants", sorted_counts(json_object_get(g, "variants"), 1),
                             "example", "id", str(ex, "id"), "variant", str(ex, "variant"),
                             "detail", str(ex, "detail"));
    }
    qsort(out, n, sizeof *out, cmp_group);
    json_t *arr = json_array();
    for (k = 0; k < n; k++)
        json_array_append_new(arr, out[k]);
    free(out);
    json_decref(groups);
    return arr;
}

void skips_print(FILE *out, json_t *skips, int verbose, int max_lines)
{
    size_t n = json_array_size(skips), i;
    if (!n)
        return;
    json_int_t runs = 0;
    json_t *g;
    json_array_foreach(skips, i, g)
        runs += json_integer_value(json_object_get(g, "runs"));
    fprintf(out, "skipped %lld run%s for %zu reason%s%s\n", (long long)runs, runs == 1 ? "" : "s",
            n, n == 1 ? "" : "s", verbose ? ":" : " (--verbose lists them; the report's "
                                                  "\"Skipped\" section groups them)");
    if (!verbose)
        return;
    json_array_foreach(skips, i, g) {
        if ((int)i == max_lines) {
            fprintf(out, "  +%zu more reasons\n", n - i);
            break;
        }
        fprintf(out, "  %6lld  %s\n", (long long)json_integer_value(json_object_get(g, "runs")),
                str(g, "reason"));
    }
}
