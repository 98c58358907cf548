/*
 * rederive.c - `verify` derives again what a report's entries imply
 * (verify.h, rederive_check): which (case, variant) pairs the suite plans,
 * what each entry says about its case, and the verdict, summary and
 * matrices, through report_summarize(), the code `run` and `merge` build
 * them with.  Depends on jansson, case.h, job.h, report.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"
#include "report/report.h"
#include "verify.h"

/* One kind of problem, printed VERIFY_SHOW times, then summed up. */
typedef struct capped {
    const char *name;
    int seen;
} capped;

static void capped_problem(checker *k, capped *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void capped_problem(checker *k, capped *c, const char *fmt, ...)
{
    if (c->seen++ >= VERIFY_SHOW)
        return;
    strbuf b;
    va_list ap;
    sb_init(&b);
    va_start(ap, fmt);
    sb_vaddf(&b, fmt, ap);
    va_end(ap);
    char *msg = sb_take(&b);
    verify_problem(k, c->name, "%s", msg);
    free(msg);
}

static void capped_end(checker *k, const capped *c)
{
    if (c->seen > VERIFY_SHOW)
        verify_problem(k, c->name, "... and %d more", c->seen - VERIFY_SHOW);
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static char *pair_key(const char *id, const char *variant)
{
    return xasprintf("%s/%s", id, variant);
}

/*
 * The (case, variant) pairs the certification run plans for `set`: an
 * object keyed "ID/VARIANT" whose values are the case's index.  A threads
 * job names each of its cases once.
 */
static json_t *planned_pairs(const case_set *set, uint64_t max_bytes)
{
    int *sel = xmalloc((size_t)(set->ncases ? set->ncases : 1) * sizeof *sel);
    for (int i = 0; i < set->ncases; i++)
        sel[i] = i;
    int njobs;
    job *jobs = plan_jobs(set, sel, set->ncases, (1u << V_COUNT) - 1, max_bytes, &njobs);
    json_t *pairs = json_object();
    for (int j = 0; j < njobs; j++)
        for (int t = 0; t < jobs[j].ncases; t++) {
            const rcase *c = &set->cases[jobs[j].cases[t]];
            char *key = pair_key(c->id, variant_name(jobs[j].v));
            json_object_set_new(pairs, key, json_integer(jobs[j].cases[t]));
            free(key);
        }
    free(jobs);
    free(sel);
    return pairs;
}

/* The case's own fields against what entry `e` says of it. */
static void check_fields(checker *k, capped *bad, json_t *e, const rcase *c, variant v)
{
    const char *id = str(e, "id"), *var = str(e, "variant");
    char *expected = job_expected_describe(c, v);
    json_t *tags = json_object_get(e, "tags");
    int tags_ok = json_is_array(tags) && json_array_size(tags) == (size_t)c->ntags;
    for (int i = 0; tags_ok && i < c->ntags; i++)
        tags_ok = !strcmp(json_string_value(json_array_get(tags, (size_t)i)) ?
                              json_string_value(json_array_get(tags, (size_t)i)) : "",
                          c->tags[i]);
    const char *field = strcmp(str(e, "op"), reshape_op_name(c->op)) ? "op"
                        : strcmp(str(e, "clause"), c->clause) ? "clause"
                        : strcmp(str(e, "dtype"), reshape_dtype_name(c->dtype)) ? "dtype"
                        : !tags_ok ? "tags"
                        : json_integer_value(json_object_get(e, "line")) != c->line ? "line"
                        : strcmp(str(e, "expected"), expected) ? "expected"
                        : NULL;
    if (field)
        capped_problem(k, bad, "%s/%s: its '%s' is not the suite's (%s:%d)", id, var, field,
                       c->file, c->line);
    int known = 0;
    for (int x = 0; x < VD_COUNT; x++)
        known |= !strcmp(str(e, "verdict"), verdict_name((verdict)x));
    if (!known)
        capped_problem(k, bad, "%s/%s: unknown verdict '%s'", id, var, str(e, "verdict"));
    free(expected);
}

/* Each planned pair has one entry, and each entry a planned pair. */
static void check_pairs(checker *k, json_t *report, const case_set *set)
{
    json_t *opts = json_object_get(report, "options");
    json_int_t max_bytes = json_integer_value(json_object_get(opts, "max_bytes"));
    json_t *planned = planned_pairs(set, (uint64_t)(max_bytes > 0 ? max_bytes : 0));
    json_t *seen = json_object(), *ids = json_object();
    capped unexpected = {"result-unexpected", 0}, dup = {"result-duplicate", 0},
           bad = {"result-mismatch", 0}, missing_case = {"case-missing", 0},
           missing_variant = {"variant-missing", 0};
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(report, "cases"), i, e) {
        const char *id = str(e, "id"), *var = str(e, "variant");
        char *key = pair_key(id, var);
        json_t *at = json_object_get(planned, key);
        json_object_set_new(ids, id, json_true());
        if (json_object_get(seen, key)) {
            capped_problem(k, &dup, "%s has more than one entry", key);
        } else if (!at) {
            int in_suite = 0;
            for (int c = 0; c < set->ncases && !in_suite; c++)
                in_suite = !strcmp(set->cases[c].id, id);
            capped_problem(k, &unexpected, in_suite ? "%s: variant '%s' does not apply to case '%s'"
                                                    : "%s: the suite has no case '%s'",
                           key, in_suite ? var : id, id);
        } else {
            check_fields(k, &bad, e, &set->cases[json_integer_value(at)],
                         (variant)variant_parse(var));
        }
        json_object_set_new(seen, key, json_true());
        free(key);
    }
    for (int c = 0; c < set->ncases; c++)
        if (!json_object_get(ids, set->cases[c].id))
            capped_problem(k, &missing_case, "the report has no result for mandatory case '%s'",
                           set->cases[c].id);
    const char *key;
    json_t *at;
    json_object_foreach(planned, key, at) {
        const char *id = set->cases[json_integer_value(at)].id;
        if (!json_object_get(seen, key) && json_object_get(ids, id))
            capped_problem(k, &missing_variant, "%s applies and has no result", key);
    }
    capped *all[] = {&dup, &unexpected, &bad, &missing_case, &missing_variant};
    for (size_t n = 0; n < sizeof all / sizeof *all; n++)
        capped_end(k, all[n]);
    json_decref(planned);
    json_decref(seen);
    json_decref(ids);
}

/* The first verdict name whose count differs between two summaries. */
static const char *first_count_diff(json_t *a, json_t *b)
{
    if (!json_equal(json_object_get(a, "total"), json_object_get(b, "total")))
        return "total";
    for (int v = 0; v < VD_COUNT; v++)
        if (!json_equal(json_object_get(a, verdict_name((verdict)v)),
                        json_object_get(b, verdict_name((verdict)v))))
            return verdict_name((verdict)v);
    return "a field";
}

/* Verdict, summary, status agreement and matrices derived again. */
static void check_summary(checker *k, json_t *report)
{
    json_t *copy = json_deep_copy(report);
    report_summarize(copy);
    json_t *want = json_object_get(copy, "verdict"), *got = json_object_get(report, "verdict");
    if (!json_equal(want, got)) {
        long against = 0;
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(report, "cases"), i, e)
            for (int v = 0; v < VD_COUNT; v++)
                against += !strcmp(str(e, "verdict"), verdict_name((verdict)v)) &&
                           verdict_counts_against((verdict)v);
        verify_problem(k, "verdict-mismatch",
                       "the report says '%s'; its results make it '%s' (%ld count against "
                       "conformance)", json_string_value(got) ? json_string_value(got) : "?",
                       json_string_value(want), against);
    }
    json_t *ws = json_object_get(copy, "summary"), *gs = json_object_get(report, "summary");
    if (!json_equal(ws, gs))
        verify_problem(k, "summary-mismatch", "the summary's '%s' is %lld; the results give %lld",
                       first_count_diff(ws, gs),
                       (long long)json_integer_value(json_object_get(gs, first_count_diff(ws, gs))),
                       (long long)json_integer_value(json_object_get(ws, first_count_diff(ws, gs))));
    if (!json_equal(json_object_get(copy, "status_agreement"),
                    json_object_get(report, "status_agreement")))
        verify_problem(k, "summary-mismatch", "status_agreement is not what the results give");
    /* a bundle from before skips were grouped has none */
    json_t *skips = json_object_get(report, "skips");
    if (skips && !json_equal(json_object_get(copy, "skips"), skips))
        verify_problem(k, "summary-mismatch", "skips are not what the results give");
    static const char *const matrices[] = {"op_clause", "op_dtype", "tag"};
    for (size_t m = 0; m < sizeof matrices / sizeof *matrices; m++)
        if (!json_equal(json_object_get(json_object_get(copy, "matrices"), matrices[m]),
                        json_object_get(json_object_get(report, "matrices"), matrices[m])))
            verify_problem(k, "matrix-mismatch", "matrix '%s' is not what the results give",
                           matrices[m]);
    json_decref(copy);
}

void rederive_check(checker *k, json_t *report, const case_set *set)
{
    check_pairs(k, report, set);
    check_summary(k, report);
}
