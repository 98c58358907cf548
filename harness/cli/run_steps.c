/*
 * run_steps.c - the steps of `run` (run_steps.h): the load errors printed,
 * --expectations and --baseline read before anything runs, every result
 * through the waivers, the journal and the progress lines as it is judged,
 * the results ordered by case and variant, the reports written.  Depends
 * on every harness layer below cli/.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"
#include "suite/suite.h"
#include "engine/engine.h"
#include "judge/judge.h"
#include "run/run.h"
#include "report/report.h"
#include "run_steps.h"

void run_print_load_errors(const case_set *set)
{
    for (int i = 0; i < set->nerrors; i++) {
        const load_error *e = &set->errors[i];
        if (e->line > 0)
            fprintf(stderr, "%s:%d:%d: %s\n", e->file, e->line, e->column, e->message);
        else
            fprintf(stderr, "%s: %s\n", e->file, e->message);
    }
}

void run_load_judging_inputs(const run_options *o, const case_set *set, expectations *ex,
                             baseline *base)
{
    if (o->expectations) {
        strbuf errs;
        sb_init(&errs);
        if (expectations_load(ex, o->expectations, &errs)) {
            fputs(errs.s, stderr);
            die(EXIT_USAGE, "invalid expectations file '%s'", o->expectations);
        }
        free(errs.s);
        expectations_warn_unmatched(ex, set);
    }
    char *err = NULL;
    if (o->baseline && baseline_load(base, o->baseline, &err))
        die(EXIT_USAGE, "%s", err);
}

/* Orders indices into the results `base` by case, then variant. */
static int cmp_order(const void *a, const void *b, void *base)
{
    const result *res = base;
    const result *x = &res[*(const int *)a], *y = &res[*(const int *)b];
    if (x->case_index != y->case_index)
        return x->case_index < y->case_index ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

void run_write_reports(const run_options *o, json_t *report)
{
    char *err = NULL;
    if (o->json && report_write_json(report, o->json, &err))
        die(EXIT_HARNESS, "%s", err);
    if (o->junit && report_write_junit(report, o->junit, &err))
        die(EXIT_HARNESS, "%s", err);
    if (o->report_dir) {
        char *j = path_join(o->report_dir, "report.json");
        char *x = path_join(o->report_dir, "report.xml");
        if (report_write_json(report, j, &err) || report_write_junit(report, x, &err))
            die(EXIT_HARNESS, "%s", err);
        report_render("render.py", j, o->report_dir);
        free(j);
        free(x);
    }
}

json_t *run_record_libraries(engine *e, const char *candidate, const libraries_self *self)
{
    int n = engine_slots(e), live = 0;
    pid_t *pids = xmalloc(2 * (size_t)n * sizeof *pids);
    for (int i = 0; i < n; i++) {
        pids[2 * i] = engine_worker_pid(e, i);
        pids[2 * i + 1] = engine_zygote_pid(e, i);
        live += pids[2 * i] > 0 || pids[2 * i + 1] > 0;
    }
    char *err = NULL;
    /* every worker died with its last request and none can be forked: one
     * more loads the candidate, to be read */
    if (!live && engine_load_worker(e, 0, &err) == 0)
        pids[0] = engine_worker_pid(e, 0);
    free(err);
    err = NULL;
    json_t *libs = libraries_record(pids, 2 * n, candidate, self, &err);
    free(pids);
    if (!libs) {
        warn("the report records no libraries: %s", err);
        free(err);
        return NULL;
    }
    libraries_packages(libs);
    return libs;
}

/* Where the results of a run go as they are judged. */
typedef struct run_sink {
    const case_set *set;
    expectations *ex;
    progress *pr;
    result *res;
    const expectation **waivers;
    int n, cap;
    run_journal *rj;
    int replay;                 /* feeding results read back from the journal */
} run_sink;

static void take_result(void *ctx, result *r)
{
    run_sink *k = ctx;
    if (k->rj->w && !k->replay)
        journal_append(k->rj->w, k->set->cases[r->case_index].id, r);
    if (k->n == k->cap) {
        k->cap *= 2;
        k->res = xrealloc(k->res, (size_t)k->cap * sizeof *k->res);
        k->waivers = xrealloc(k->waivers, (size_t)k->cap * sizeof *k->waivers);
    }
    k->waivers[k->n] = expectations_apply(k->ex, k->set->cases[r->case_index].id, r);
    k->res[k->n++] = *r;
    progress_result(k->pr, &k->set->cases[r->case_index], r);
}

/* The slots a run may have in all: what --jobs says, or with the default
 * (a slot a core) twice that while its workers keep dying on a crowded
 * machine (run/widen.h), and never more than it has jobs. */
static int most_slots(const run_options *o, const engine *e, int njobs)
{
    int first = engine_slots(e);
    if (o->jobs_given || njobs <= first)
        return first;
    int more = first < ENGINE_MORE_RUN_SLOTS ? first : ENGINE_MORE_RUN_SLOTS;
    return first + more < njobs ? first + more : njobs;
}

result *run_jobs(const run_options *o, const case_set *set, const job *jobs, int njobs,
                 engine *e, const wire_probe *probe, expectations *ex,
                 const expectation ***waivers_out, int *nres, progress *pr,
                 const char *load_error, run_journal *rj)
{
    int cap = njobs + rj->npre + 16;
    run_sink k = {set, ex, pr, xmalloc((size_t)cap * sizeof(result)),
                  xmalloc((size_t)cap * sizeof(const expectation *)), 0, cap, rj, 1};
    for (int i = 0; i < rj->npre; i++)
        take_result(&k, &rj->pre[i]);
    k.replay = 0;
    if (e) {
        int nleft;
        job *left = limits_skip(probe, set, jobs, njobs, &nleft, take_result, &k);
        schedule_run(e, set, left, nleft, o->strict_errors, o->timeout_ms, o->seed,
                     most_slots(o, e, nleft), take_result, &k);
        free(left);
    } else
        load_failure_results(jobs, njobs, load_error, take_result, &k);
    result *res = k.res;
    const expectation **waivers = k.waivers;
    int n = k.n;
    /* the report lists entries by case, then variant, whatever finished first */
    int *order = xmalloc((size_t)(n ? n : 1) * sizeof *order);
    for (int i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, (size_t)n, sizeof *order, cmp_order, res);
    result *sorted = xmalloc((size_t)(n ? n : 1) * sizeof *sorted);
    const expectation **sw = xmalloc((size_t)(n ? n : 1) * sizeof *sw);
    for (int i = 0; i < n; i++) {
        sorted[i] = res[order[i]];
        sw[i] = waivers[order[i]];
    }
    free(order);
    free(res);
    free(waivers);
    *waivers_out = sw;
    *nres = n;
    return sorted;
}
