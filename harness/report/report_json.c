/*
 * report_json.c - building, summarizing and writing the JSON report
 * (report.h, reports/SCHEMA.md).  Matrices count (case, variant) entries,
 * like the summary; their rows are sorted by their keys.  Depends on
 * jansson, case.h, job.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "report.h"

#include "findings.h"

static json_t *string_list(const char *const *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

json_t *report_options_json(const run_options *o)
{
    json_t *argv = json_array(), *variants = json_array();
    for (int i = 0; i < o->argc; i++) {
        char *s = xstrdup(o->argv[i]);
        sanitize_text(s);
        json_array_append_new(argv, json_string(s));
        free(s);
    }
    for (int v = 0; v < V_COUNT; v++)
        if (o->variants & (1u << v))
            json_array_append_new(variants, json_string(variant_name((variant)v)));
    static const char *const iso[] = {"worker", "fork", "none"};
    char shard[32];
    snprintf(shard, sizeof shard, "%d/%d", o->shard_k, o->shard_n);
    json_t *opts = json_pack("{s:o, s:o, s:b, s:I, s:I, s:s, s:o, s:o, s:o, s:s, s:I, s:I, s:o, s:o}",
                     "argv", argv, "variants", variants, "strict_errors", o->strict_errors,
                     "jobs", (json_int_t)o->jobs, "timeout_ms", (json_int_t)o->timeout_ms,
                     "isolation", iso[o->iso],
                     "filter", o->nfilters ? json_string(o->filters[0]) : json_null(),
                     "tags", string_list(o->tags, o->ntags),
                     "ops", string_list(o->op_names, o->nops), "shard", shard,
                     "seed", (json_int_t)o->seed, "max_bytes", (json_int_t)o->max_bytes,
                     "expectations", o->expectations ? json_string(o->expectations) : json_null(),
                     "baseline", o->baseline ? json_string(o->baseline) : json_null());
    json_object_set_new(opts, "filters", string_list(o->filters, o->nfilters));
    json_object_set_new(opts, "allow_fixes", json_boolean(o->allow_fixes));
    /* the JUnit suite's name, so that `merge --junit` names it the same */
    if (o->junit_suite_name)
        json_object_set_new(opts, "junit_suite_name", json_string(o->junit_suite_name));
    /* the sandbox's settings change verdicts too; there only when not the
     * default, so that a default run's report keeps its fields */
    if (!o->sandbox)
        json_object_set_new(opts, "sandbox", json_string("off"));
    if (o->nsandbox_allow)
        json_object_set_new(opts, "sandbox_allow", string_list(o->sandbox_allow, o->nsandbox_allow));
    if (o->nsandbox_write)
        json_object_set_new(opts, "sandbox_allow_write",
                            string_list(o->sandbox_write, o->nsandbox_write));
    return opts;
}

json_t *report_waiver_json(const expectation *w)
{
    if (!w)
        return json_null();
    return json_pack("{s:s, s:s, s:s, s:o}", "pattern", w->pattern, "verdict",
                     w->verdict == EXPECT_ANY_VERDICT ? "any" : verdict_name((verdict)w->verdict),
                     "reason", w->reason, "tracker",
                     w->tracker ? json_string(w->tracker) : json_null());
}

/* One entry of "cases", built with jansson's setters rather than
 * json_pack (which parses its format for each of a whole suite's 22,158
 * entries); the names the harness itself defines (keys, op, variant,
 * verdict, dtype) are ASCII and skip the UTF-8 check, what came from a
 * case file or a run keeps it. */
static json_t *entry_json(const run_info *ri, const result *r, const expectation *waiver)
{
    const rcase *c = &ri->set->cases[r->case_index];
    char *expected = job_expected_describe(c, r->v);
    json_t *e = json_object();
    json_object_set_new_nocheck(e, "id", json_string(c->id));
    json_object_set_new_nocheck(e, "op", json_string_nocheck(reshape_op_name(c->op)));
    json_object_set_new_nocheck(e, "variant", json_string_nocheck(variant_name(r->v)));
    json_object_set_new_nocheck(e, "verdict", json_string_nocheck(verdict_name(r->vd)));
    json_object_set_new_nocheck(e, "detail", json_string(r->detail ? r->detail : ""));
    json_object_set_new_nocheck(e, "clause", json_string(c->clause));
    json_object_set_new_nocheck(e, "dtype", json_string_nocheck(reshape_dtype_name(c->dtype)));
    json_object_set_new_nocheck(e, "tags", string_list((const char *const *)c->tags, c->ntags));
    json_object_set_new_nocheck(e, "file", json_string(c->file));
    json_object_set_new_nocheck(e, "line", json_integer(c->line));
    json_object_set_new_nocheck(e, "expected", json_string(expected));
    json_object_set_new_nocheck(e, "got", json_string(r->got ? r->got : ""));
    json_object_set_new_nocheck(e, "status_agrees", r->status_agrees < 0
                                                        ? json_null()
                                                        : json_boolean(r->status_agrees));
    json_object_set_new_nocheck(e, "waiver", report_waiver_json(waiver));
    free(expected);
    return e;
}

json_t *report_build(const run_info *ri)
{
    const run_options *o = ri->o;
    const case_set *set = ri->set;
    char *commit = suite_commit();
    json_t *errors = json_array();
    for (int i = 0; i < set->nerrors; i++) {
        const load_error *e = &set->errors[i];
        json_array_append_new(errors, json_pack("{s:s, s:i, s:i, s:s}", "file", e->file, "line",
                                                e->line, "column", e->column, "message",
                                                e->message));
    }
    json_t *cases = json_array();
    for (int i = 0; i < ri->nresults; i++)
        json_array_append_new(cases, entry_json(ri, &ri->results[i],
                                                ri->waivers ? ri->waivers[i] : NULL));
    json_t *report = json_pack(
        "{s:i, s:{s:s, s:s}, s:{s:s, s:s, s:s, s:s, s:i},"
        " s:{s:s, s:s, s:s, s:i, s:i, s:i}, s:o, s:o, s:s, s:f, s:s}",
        "schema_version", SCHEMA_VERSION,
        "tool", "name", TOOL_NAME, "version", TOOL_VERSION,
        "candidate", "name", ri->probe->name, "version", ri->probe->version,
        "path", ri->candidate_path, "sha256", ri->candidate_sha256,
        "abi_version", (int)ri->probe->abi_version,
        "suite", "version", SUITE_VERSION, "git_commit", commit,
        "cases_sha256", set->cases_sha256, "case_files", set->nfiles,
        "cases_loaded", set->ncases, "load_errors", set->nerrors,
        "host", host_info(), "options", report_options_json(o),
        "started_utc", ri->started_utc, "duration_s", ri->duration_s,
        "verdict", "conformant");
    free(commit);
    if (!report)
        die(EXIT_HARNESS, "cannot build the json report");
    json_object_set_new(json_object_get(report, "host"), "device", host_device(ri->probe));
    json_object_set_new(report, "summary", json_object());
    json_object_set_new(report, "status_agreement", json_object());
    json_object_set_new(report, "adaptive_timeouts", json_object());
    json_object_set_new(report, "matrices", json_object());
    json_object_set_new(report, "load_errors", errors);
    if (ri->libraries)
        json_object_set(report, "libraries", ri->libraries);
    json_object_set_new(report, "baseline", json_null());
    json_object_set_new(report, "gate", json_null());
    json_object_set_new(report, "cases", cases);
    report_summarize(report);
    if (ri->baseline || o->expectations)
        gate_apply(report, ri->baseline, o->expectations, o->allow_fixes);
    return report;
}

/* ------------------------------------------------------------ summaries */

static json_t *new_counts(void)
{
    json_t *o = json_object();
    json_object_set_new(o, "total", json_integer(0));
    for (int v = 0; v < VD_COUNT; v++)
        json_object_set_new(o, verdict_name((verdict)v), json_integer(0));
    return o;
}

static void bump(json_t *counts, const char *verdict_s)
{
    json_t *t = json_object_get(counts, "total");
    json_integer_set(t, json_integer_value(t) + 1);
    json_t *v = json_object_get(counts, verdict_s);
    if (v)
        json_integer_set(v, json_integer_value(v) + 1);
}

/* Finds or adds the row of `rows` (an object keyed by `key`) holding
 * key1/key2 fields. */
static json_t *row(json_t *rows, const char *k1, const char *v1, const char *k2,
                   const char *v2)
{
    char *key = xasprintf("%s\x1f%s", v1, v2 ? v2 : "");
    json_t *r = json_object_get(rows, key);
    if (!r) {
        r = new_counts();
        json_object_set_new(r, k1, json_string(v1));
        if (k2)
            json_object_set_new(r, k2, json_string(v2));
        json_object_set_new(rows, key, r);
    }
    free(key);
    return r;
}

static int cmp_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The rows of `rows` as an array sorted by key, key fields first. */
static json_t *sorted_rows(json_t *rows, const char *k1, const char *k2)
{
    size_t n = json_object_size(rows), i = 0;
    const char **keys = xmalloc((n ? n : 1) * sizeof *keys);
    const char *key;
    json_t *val;
    json_object_foreach(rows, key, val)
        keys[i++] = key;
    qsort(keys, n, sizeof *keys, cmp_keys);
    json_t *out = json_array();
    for (i = 0; i < n; i++) {
        json_t *src = json_object_get(rows, keys[i]), *dst = json_object();
        json_object_set(dst, k1, json_object_get(src, k1));
        if (k2)
            json_object_set(dst, k2, json_object_get(src, k2));
        json_object_set(dst, "total", json_object_get(src, "total"));
        for (int v = 0; v < VD_COUNT; v++)
            json_object_set(dst, verdict_name((verdict)v),
                            json_object_get(src, verdict_name((verdict)v)));
        json_array_append_new(out, dst);
    }
    free(keys);
    return out;
}

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

void report_summarize(json_t *report)
{
    json_t *cases = json_object_get(report, "cases");
    json_t *summary = new_counts(), *clause = json_object(), *dtype = json_object(),
           *tag = json_object();
    long agree = 0, disagree = 0, against = 0, rerun = 0, confirmed = 0;
    size_t i;
    json_t *e;
    json_array_foreach(cases, i, e) {
        const char *vd = str(e, "verdict"), *op = str(e, "op");
        if (strstr(str(e, "detail"), SCHEDULE_RERUN_NOTE)) {
            rerun++;
            confirmed += !strcmp(vd, verdict_name(VD_TIMEOUT));
        }
        bump(summary, vd);
        bump(row(clause, "op", op, "clause", str(e, "clause")), vd);
        bump(row(dtype, "op", op, "dtype", str(e, "dtype")), vd);
        size_t k;
        json_t *t;
        json_array_foreach(json_object_get(e, "tags"), k, t)
            bump(row(tag, "tag", json_string_value(t), NULL, NULL), vd);
        json_t *sa = json_object_get(e, "status_agrees");
        if (json_is_true(sa))
            agree++;
        else if (json_is_false(sa))
            disagree++;
        for (int v = 0; v < VD_COUNT; v++)
            if (!strcmp(vd, verdict_name((verdict)v)) && verdict_counts_against((verdict)v))
                against++;
    }
    long passed = (long)json_integer_value(json_object_get(summary, verdict_name(VD_PASS)));
    json_object_set_new(report, "verdict", json_string(run_conformant(passed, against)
                                                           ? "conformant" : "nonconformant"));
    json_object_set_new(report, "summary", summary);
    json_object_set_new(report, "status_agreement",
                        json_pack("{s:I, s:I}", "agree", (json_int_t)agree, "disagree",
                                  (json_int_t)disagree));
    json_object_set_new(report, "matrices",
                        json_pack("{s:o, s:o, s:o}", "op_clause", sorted_rows(clause, "op", "clause"),
                                  "op_dtype", sorted_rows(dtype, "op", "dtype"),
                                  "tag", sorted_rows(tag, "tag", NULL)));
    json_object_set_new(report, "adaptive_timeouts",
                        json_pack("{s:I, s:I, s:I}", "rerun", (json_int_t)rerun, "confirmed",
                                  (json_int_t)confirmed, "not_confirmed",
                                  (json_int_t)(rerun - confirmed)));
    json_object_set_new(report, "findings", findings_build(cases));
    json_object_set_new(report, "skips", skips_build(cases));
    json_decref(clause);
    json_decref(dtype);
    json_decref(tag);
}

int report_write_json(json_t *report, const char *path, char **err)
{
    atomic_file af;
    char *why = NULL;
    if (atomic_open(&af, path, &why) == 0) {
        /* dumped to memory, then one write: json_dumpf calls fwrite once a
         * token (a whole-suite run with --json: 1104 ms of task-clock that
         * way, 852 this way) */
        char *text = json_dumps(report, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        size_t len = text ? strlen(text) : 0;
        int failed = !text || fwrite(text, 1, len, af.f) != len;
        free(text);
        if (failed) {
            atomic_abort(&af);
            why = xasprintf("cannot write '%s'", path);
        } else {
            atomic_commit(&af, &why);
        }
    }
    if (why) {
        *err = xasprintf("cannot write json report: %s", why);
        free(why);
        return -1;
    }
    return 0;
}
