/*
 * fuzz_run.c - batches of fuzz requests through the engine, disagreements
 * shrunk and written (fuzz_run.h).  Depends on findings.h, fuzz.h, job.h,
 * schedule.h and util.h.
 */
#include "fuzz_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "suite/suite.h"
#include "judge/judge.h"
#include "run/run.h"
#include "report/report.h"

/* Requests generated per batch. */
#define FUZZ_BATCH 2048
/* Neighbours tried per shrinking step, and steps at most. */
#define SHRINK_WIDTH 64
#define SHRINK_STEPS 200

/* The results of one batch that count against conformance, and how many
 * others passed or were skipped (NOT_SUPPORTED). */
typedef struct failures {
    result *r;
    int n, cap;
    long passed, skipped;
} failures;

static void keep_failure(void *ctx, result *r)
{
    failures *f = ctx;
    if (!verdict_counts_against(r->vd)) {
        f->skipped += r->vd == VD_NOT_SUPPORTED;
        f->passed += r->vd != VD_NOT_SUPPORTED;
        free(r->detail);
        free(r->got);
        return;
    }
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 64;
        f->r = xrealloc(f->r, (size_t)f->cap * sizeof *f->r);
    }
    f->r[f->n++] = *r;
}

static void failures_clear(failures *f)
{
    for (int i = 0; i < f->n; i++) {
        free(f->r[i].detail);
        free(f->r[i].got);
    }
    f->n = 0;
    f->passed = f->skipped = 0;
}

/* Runs set->cases in the variants of `mask` and collects the failures in
 * `f`; returns the number of requests. */
static long run_set(fuzz_session *s, case_set *set, unsigned mask, failures *f)
{
    int *sel = xmalloc((size_t)(set->ncases ? set->ncases : 1) * sizeof *sel);
    for (int i = 0; i < set->ncases; i++)
        sel[i] = i;
    int njobs;
    job *jobs = plan_jobs(set, sel, set->ncases, mask, FUZZ_MAX_PAYLOAD, &njobs);
    schedule_run(s->e, set, jobs, njobs, 0, s->timeout_ms, s->seed, engine_slots(s->e),
                 keep_failure, f);
    free(jobs);
    free(sel);
    return njobs;
}

/* "VERDICT: kind" of failure `r` of case `c`.  New string. */
static char *kind_of(const rcase *c, const result *r)
{
    char *expected = job_expected_describe(c, r->v);
    char *k = findings_kind(verdict_name(r->vd), r->detail ? r->detail : "", expected);
    char *out = xasprintf("%s: %s", verdict_name(r->vd), k);
    free(expected);
    free(k);
    return out;
}

/* The failure of `f` in variant `v` of kind `kind` whose case (of
 * cases[]) comes first, or -1. */
static int first_of_kind(const failures *f, const rcase *cases, variant v, const char *kind)
{
    int best = -1;
    for (int i = 0; i < f->n; i++) {
        char *k = kind_of(&cases[f->r[i].case_index], &f->r[i]);
        if (f->r[i].v == v && !strcmp(k, kind) &&
            (best < 0 || f->r[i].case_index < f->r[best].case_index))
            best = i;
        free(k);
    }
    return best;
}

/*
 * Shrinks `c` (which fails as `kind` in variant `v`) in place: each step
 * runs every neighbour of fuzz_shrink_steps and moves to the first that
 * still fails as `kind` in `v`, until none does.  Fills *last with the
 * detail of the failure of the final request (new string).
 */
static void shrink(fuzz_session *s, rcase *c, variant v, const char *kind, char **last)
{
    rcase *next = xmalloc(SHRINK_WIDTH * sizeof *next);
    failures f = {0};
    for (int step = 0; step < SHRINK_STEPS; step++) {
        int n = fuzz_shrink_steps(c, next, SHRINK_WIDTH), m = 0;
        for (int i = 0; i < n; i++)
            if (fuzz_expect(&next[i], s->ref) == 0)
                next[m++] = next[i];
        if (!m)
            break;
        case_set set = {0};
        set.cases = next;
        set.ncases = m;
        s->shrink_requests += run_set(s, &set, 1u << v, &f);
        int best = first_of_kind(&f, next, v, kind);
        if (best < 0) {
            failures_clear(&f);
            break;
        }
        *c = next[f.r[best].case_index];
        free(*last);
        *last = xstrdup(f.r[best].detail ? f.r[best].detail : "");
        failures_clear(&f);
    }
    free(f.r);
    free(next);
}

static int seen(const fuzz_session *s, const char *kind)
{
    for (int i = 0; i < s->nkinds; i++)
        if (!strcmp(s->kinds[i], kind))
            return 1;
    return 0;
}

/* Runs `c` alone REPRODUCE_RUNS times in variant `v`: 1 when every run
 * fails as `kind` again (*detail then the last run's), else 0.  One run
 * alone let tests/harness/candidates/flaky_internal.c, which fails one
 * call in 50 at random, through to a written case (a make test failed so);
 * with three, 20 runs of its test's fuzz session wrote no such case. */
enum { REPRODUCE_RUNS = 3 };

static int reproduces(fuzz_session *s, const rcase *c, variant v, const char *kind, char **detail)
{
    for (int run = 0; run < REPRODUCE_RUNS; run++) {
        rcase one = *c;
        case_set set = {0};
        set.cases = &one;
        set.ncases = 1;
        failures f = {0};
        s->shrink_requests += run_set(s, &set, 1u << v, &f);
        int at = first_of_kind(&f, &one, v, kind);
        if (at >= 0) {
            free(*detail);
            *detail = xstrdup(f.r[at].detail ? f.r[at].detail : "");
        }
        failures_clear(&f);
        free(f.r);
        if (at < 0)
            return 0;
    }
    return 1;
}

/* Shrinks failure `r` of `c` and writes it when it reproduces; 0, or -1
 * when it cannot be written. */
static int report_failure(fuzz_session *s, const rcase *c, const result *r, char *kind)
{
    rcase m = *c;
    char *detail = xstrdup(r->detail ? r->detail : "");
    shrink(s, &m, r->v, kind, &detail);
    s->kinds = xrealloc(s->kinds, (size_t)(s->nkinds + 1) * sizeof *s->kinds);
    s->kinds[s->nkinds++] = kind;
    if (!reproduces(s, &m, r->v, kind, &detail)) {
        s->unreproduced++;
        printf("fuzz: %s in %s did not fail again in each of %d runs alone (%s): no case written\n",
               kind, variant_name(r->v), REPRODUCE_RUNS, detail);
        free(detail);
        return 0;
    }
    /* the session seed and the case's number make the id unique */
    char *id = xasprintf("fuzz_%s_seed%llu_%d", reshape_op_name(m.op), (unsigned long long)s->seed,
                         s->written + 1);
    m.id = id;
    char *file = xasprintf("%s.yaml", id);
    char *path = path_join(s->out_dir, file);
    free(file);
    char *header = xasprintf("found by reshape-conform fuzz --seed %llu (request seed %llu) against "
                             "%s, shrunk; in %s the candidate gave %s",
                             (unsigned long long)s->seed, (unsigned long long)c->data.seed,
                             s->candidate, variant_name(r->v), kind);
    sanitize_text(header);
    FILE *out = fopen(path, "w");
    int rc = out && case_write_yaml(out, &m, header) == 0 ? 0 : -1;
    if (out && fclose(out))
        rc = -1;
    if (rc)
        fprintf(stderr, "reshape-conform: cannot write '%s': %s\n", path, strerror(errno));
    else
        printf("%s: %s in %s (%s)\n", path, kind, variant_name(r->v), detail);
    fflush(stdout);
    s->written++;
    free(header);
    free(path);
    free(id);
    free(detail);
    return rc;
}

int fuzz_run(fuzz_session *s)
{
    double start = now_s();
    uint64_t stream = s->seed;
    rcase *cases = xmalloc(FUZZ_BATCH * sizeof *cases);
    failures f = {0};
    int rc = 0;
    while (!rc && s->requests < s->count &&
           !(s->seconds > 0 && now_s() - start >= s->seconds)) {
        int n = 0;
        long want = (s->count - s->requests) / 4 + 1;
        while (n < FUZZ_BATCH && n < want) {
            uint64_t seed = splitmix64_next(&stream);
            fuzz_generate(&cases[n], seed, s->ops);
            if (fuzz_expect(&cases[n], s->ref) == 0) {
                n++;
            } else {
                free(cases[n].id);
                s->dropped++;
            }
        }
        case_set set = {0};
        set.cases = cases;
        set.ncases = n;
        s->requests += run_set(s, &set, s->variants, &f);
        s->cases += n;
        s->judged += f.passed + f.n;
        s->skipped += f.skipped;
        s->disagreements += f.n;
        for (int i = 0; i < f.n && !rc; i++) {
            const rcase *c = &cases[f.r[i].case_index];
            char *kind = kind_of(c, &f.r[i]);
            if (s->written < s->max_written && !seen(s, kind))
                rc = report_failure(s, c, &f.r[i], kind);
            else
                free(kind);
        }
        failures_clear(&f);
        for (int i = 0; i < n; i++)
            free(cases[i].id);
    }
    free(f.r);
    free(cases);
    s->elapsed = now_s() - start;
    return rc;
}

void fuzz_session_free(fuzz_session *s)
{
    for (int i = 0; i < s->nkinds; i++)
        free(s->kinds[i]);
    free(s->kinds);
}
