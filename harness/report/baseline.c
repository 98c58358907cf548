/*
 * baseline.c - comparing a run with a previous JSON report (baseline.h).
 * OLD's entries are kept in a jansson object keyed "id/variant" (ids are
 * [a-z0-9_]+, so the key is unambiguous).  Depends on jansson, job.h and
 * util.h.
 */
#include "baseline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static const char *get(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

int baseline_load(baseline *b, const char *path, char **err)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        memset(b, 0, sizeof *b);
        *err = xasprintf("cannot read baseline report '%s': %s", path, strerror(errno));
        return -1;
    }
    int rc = baseline_parse(b, path, text, len, err);
    free(text);
    return rc;
}

int baseline_parse(baseline *b, const char *path, const char *text, size_t len, char **err)
{
    memset(b, 0, sizeof *b);
    json_error_t je;
    json_t *r = json_loadb(text, len, 0, &je);
    if (!r) {
        *err = je.line > 0 ? xasprintf("invalid baseline report: %s %s:%d:%d", je.text, path,
                                       je.line, je.column)
                           : xasprintf("cannot read baseline report '%s': %s", path, je.text);
        return -1;
    }
    json_int_t sv = json_integer_value(json_object_get(r, "schema_version"));
    json_t *cases = json_object_get(r, "cases");
    if (sv != 1 || !json_is_array(cases)) {
        *err = xasprintf("baseline '%s' is not a reshape-conform report of schema_version 1",
                         path);
        json_decref(r);
        return -1;
    }
    b->old = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(cases, i, e) {
        const char *id = get(e, "id"), *v = get(e, "variant"), *vd = get(e, "verdict");
        if (!id || !v || !vd) {
            *err = xasprintf("baseline '%s': cases[%zu] lacks a string id, variant or verdict",
                             path, i);
            json_decref(r);
            baseline_free(b);
            return -1;
        }
        char *key = xasprintf("%s/%s", id, v);
        if (json_object_get(b->old, key)) {
            *err = xasprintf("baseline '%s': '%s' appears twice", path, key);
            free(key);
            json_decref(r);
            baseline_free(b);
            return -1;
        }
        json_object_set_new(b->old, key, json_string(vd));
        free(key);
    }
    json_decref(r);
    b->path = xstrdup(path);
    return 0;
}

/* Nonzero when the verdict named `s` counts against conformance; unknown
 * names count (a verdict this harness does not know is no pass). */
static int name_counts_against(const char *s)
{
    for (int v = 0; v < VD_COUNT; v++)
        if (!strcmp(s, verdict_name((verdict)v)))
            return verdict_counts_against((verdict)v);
    return 1;
}

static void push(baseline_item **v, int *n, int result, const char *was)
{
    *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = (baseline_item){result, was};
}

void baseline_compare(baseline *b, const case_set *set, const result *res, int n)
{
    for (int i = 0; i < n; i++) {
        char *key = xasprintf("%s/%s", set->cases[res[i].case_index].id, variant_name(res[i].v));
        const char *was = json_string_value(json_object_get(b->old, key));
        free(key);
        int bad = verdict_counts_against(res[i].vd);
        if (bad && (!was || !name_counts_against(was)))
            push(&b->regressions, &b->nregressions, i, was);
        else if (!bad && was && name_counts_against(was) && res[i].vd == VD_PASS)
            push(&b->new_passes, &b->nnew_passes, i, was);
    }
}

void baseline_print(const baseline *b, const case_set *set, const result *res)
{
    for (int i = 0; i < b->nregressions; i++) {
        const result *r = &res[b->regressions[i].result];
        const rcase *c = &set->cases[r->case_index];
        printf("REGRESSION %s/%s: %s%s, now %s: %s [%s:%d]\n", c->id, variant_name(r->v),
               b->regressions[i].was ? "was " : "not in the baseline",
               b->regressions[i].was ? b->regressions[i].was : "", verdict_name(r->vd),
               r->detail && *r->detail ? r->detail : "-", c->file, c->line);
    }
    for (int i = 0; i < b->nnew_passes; i++) {
        const result *r = &res[b->new_passes[i].result];
        printf("NEW_PASS %s/%s: was %s\n", set->cases[r->case_index].id, variant_name(r->v),
               b->new_passes[i].was);
    }
}

json_t *baseline_json(const baseline *b, const case_set *set, const result *res)
{
    json_t *reg = json_array(), *np = json_array();
    for (int i = 0; i < b->nregressions; i++) {
        const result *r = &res[b->regressions[i].result];
        const char *was = b->regressions[i].was;
        json_array_append_new(
            reg, json_pack("{s:s, s:s, s:o, s:s, s:s}", "id", set->cases[r->case_index].id,
                           "variant", variant_name(r->v),
                           "was", was ? json_string(was) : json_null(),
                           "verdict", verdict_name(r->vd), "detail", r->detail ? r->detail : ""));
    }
    for (int i = 0; i < b->nnew_passes; i++) {
        const result *r = &res[b->new_passes[i].result];
        json_array_append_new(np, json_pack("{s:s, s:s, s:s}", "id", set->cases[r->case_index].id,
                                            "variant", variant_name(r->v), "was",
                                            b->new_passes[i].was));
    }
    return json_pack("{s:s, s:o, s:o}", "path", b->path, "regressions", reg, "new_passes", np);
}

char *baseline_headline(const baseline *b, const char *verdict_word)
{
    if (!b->nregressions)
        return xasprintf("%s, no regressions against %s", verdict_word, b->path);
    return xasprintf("%s, %d regression%s against %s", verdict_word, b->nregressions,
                     b->nregressions == 1 ? "" : "s", b->path);
}

void baseline_free(baseline *b)
{
    json_decref(b->old);
    free(b->path);
    free(b->regressions);
    free(b->new_passes);
    memset(b, 0, sizeof *b);
}
