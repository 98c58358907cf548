/*
 * caught_test.c - the suite catches every broken candidate.
 *
 * Runs build/reshape-conform on the base kernel and the reference over the
 * whole default case set (both must be conformant), and on every
 * build/broken/<name>.so other than base.so (each must be nonconformant,
 * with at least one (case, variant) result of the verdict its defect
 * declares).  A broken candidate runs on the smallest selection first and
 * on the next only when it was not caught as declared: the spec examples
 * (SPEC_EXAMPLES, only for a defect that faults on most cases), the
 * hand-written case files, then every case file but the sweep (SWEEP_FILE,
 * a grid of shapes over the rules the other files state; not for a defect
 * that faults on most cases).  With BROKEN_TABLE set (`make broken-table`)
 * each runs on its largest selection at once: the counts of
 * reports/broken/README.md.
 * Each run leaves its report and log in $BROKEN_RUNS (default
 * build/broken/runs) and a one-row summary, <name>.row.json, that
 * tests/broken/table.py turns into reports/broken/README.md.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dlfcn.h>
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broken.h"
#include "run.h"

/* Harness timeouts: generous for kernels that return, short for the ones
 * declared to hang (each hanging call costs one timeout). */
#define TIMEOUT_MS 3000
#define HANG_TIMEOUT_MS 300

/* The generated file left out of broken runs, under $CASES_DIR/generated. */
#define SWEEP_FILE "sweep.yaml"

/* The ids of the spec's own examples (cases/openvino_reshape_1.yaml). */
#define SPEC_EXAMPLES "openvino_example*"

/* What a candidate says about itself: reshape_broken_defect_v1(). */
struct described {
    char name[64];
    char defect[160];
    char expect[32];
    int faults_on_most_cases;
    int hooks_set;       /* hooks and flags that differ from the base */
};

/* One of each: a new hook must be counted here too. */
_Static_assert(sizeof(struct broken_hooks) == 20 * sizeof(void *),
               "count_hooks lists every member of struct broken_hooks");

/* The number of hooks (and flags) `h` replaces. */
static int count_hooks(const struct broken_hooks *h)
{
    return !!h->check_data_type + !!h->check_shape_rank + !!h->read_value
           + !!h->check_value + !!h->special_zero + !!h->allow_many_minus_ones
           + !!h->copy_zero + !!h->volume + !!h->solve_minus_one
           + !!h->check_volume + !!h->check_dst + !!h->enter
           + !!h->prepare_dst + !!h->src_strides + !!h->dst_strides
           + !!h->element_count + !!h->element_bits + !!h->copy_elements
           + !!h->leave + !!h->load;
}

static void describe(const char *so, struct described *d)
{
    /* a defect's load hook (an exit in its constructor) stays quiet */
    setenv("RESHAPE_BROKEN_DESCRIBE", "1", 1);
    void *lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    unsetenv("RESHAPE_BROKEN_DESCRIBE");
    cr_assert_not_null(lib, "cannot load \"%s\": %s", so, dlerror());
    const struct broken_defect *(*entry)(void);
    *(void **)&entry = dlsym(lib, "reshape_broken_defect_v1");
    cr_assert_not_null(entry, "\"%s\" exports no reshape_broken_defect_v1", so);
    const struct broken_defect *defect = entry();
    snprintf(d->name, sizeof d->name, "%s", defect->name);
    snprintf(d->defect, sizeof d->defect, "%s", defect->defect);
    snprintf(d->expect, sizeof d->expect, "%s", defect->expect);
    d->faults_on_most_cases = defect->faults_on_most_cases;
    d->hooks_set = count_hooks(&defect->hooks);
    dlclose(lib);
}

/* ------------------------------------------------------- case selection */

#define MAX_CASE_FILES 64

/* `--cases FILE` arguments for the harness, and a `--filter`, NULL-terminated
 * in `argv`. */
struct case_args {
    char files[MAX_CASE_FILES][512];
    const char *argv[2 * MAX_CASE_FILES + 3];
    int nfiles;
    char scope[32];      /* what the row calls the selection */
};

/* Adds every file matching `pattern` but `skip` (a base name, or NULL). */
static void add_case_files(struct case_args *a, const char *pattern,
                           const char *skip)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *base = strrchr(g.gl_pathv[i], '/');
        base = base != NULL ? base + 1 : g.gl_pathv[i];
        if (skip != NULL && strcmp(base, skip) == 0)
            continue;
        cr_assert_lt(a->nfiles, MAX_CASE_FILES, "too many case files");
        snprintf(a->files[a->nfiles], sizeof a->files[0], "%s",
                 g.gl_pathv[i]);
        a->argv[2 * a->nfiles] = "--cases";
        a->argv[2 * a->nfiles + 1] = a->files[a->nfiles];
        a->nfiles++;
    }
    globfree(&g);
    a->argv[2 * a->nfiles] = NULL;
}

/* The selections a broken candidate runs on, smallest first. */
enum selection { SPEC_ONLY, HAND_WRITTEN, ALL_BUT_SWEEP };

/* The cases of selection `sel`: the hand-written files, with SPEC_ONLY only
 * the spec examples among them, with ALL_BUT_SWEEP the generated files but
 * the sweep too. */
static void broken_cases(struct case_args *a, enum selection sel)
{
    char pattern[512];
    memset(a, 0, sizeof *a);
    snprintf(pattern, sizeof pattern, "%s/*.yaml", run_cases_dir());
    add_case_files(a, pattern, NULL);
    snprintf(a->scope, sizeof a->scope, "hand-written");
    if (sel == SPEC_ONLY) {
        a->argv[2 * a->nfiles] = "--filter";
        a->argv[2 * a->nfiles + 1] = SPEC_EXAMPLES;
        a->argv[2 * a->nfiles + 2] = NULL;
        snprintf(a->scope, sizeof a->scope, "spec examples");
    } else if (sel == ALL_BUT_SWEEP) {
        snprintf(pattern, sizeof pattern, "%s/generated/*.yaml", run_cases_dir());
        add_case_files(a, pattern, SWEEP_FILE);
        snprintf(a->scope, sizeof a->scope, "all but the sweep");
    }
}

/* Writes <runs>/<label>.row.json for table.py. */
static void write_row(const char *label, const struct described *d,
                      const char *scope, const struct run_summary *s,
                      int exit_status)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.row.json", run_runs_dir(), label);
    json_t *row = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:s, s:s, s:s, s:i}",
        "name", d->name, "defect", d->defect, "expect", d->expect,
        "cases", scope,
        "verdict", s->verdict, "results", (json_int_t)s->results,
        "caught", (json_int_t)s->caught,
        "caught_expected", (json_int_t)s->caught_expected,
        "first_case", s->first_case, "first_variant", s->first_variant,
        "first_detail", s->first_detail, "harness_exit", exit_status);
    cr_assert_not_null(row);
    cr_assert_eq(json_dump_file(row, path, JSON_INDENT(2) | JSON_SORT_KEYS), 0,
                 "cannot write \"%s\"", path);
    json_decref(row);
}

/* What the candidates that tamper or steal attack
 * (RESHAPE_HOSTILE_TARGET, tamper_test.c): a file named like a key in a
 * folder of its own below /tmp, outside all a candidate may read; `dir`
 * receives the folder.  The others ignore it. */
static void hostile_target(char *dir, size_t size)
{
    snprintf(dir, size, "/tmp/reshape-caught-%c%c%c%c%c%c", 'X', 'X', 'X', 'X', 'X', 'X');
    cr_assert_not_null(mkdtemp(dir));
    char path[96];
    snprintf(path, sizeof path, "%s/target.pem", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("a target\n", f);
    fclose(f);
    setenv("RESHAPE_HOSTILE_TARGET", path, 1);
}

/* Runs the harness on `so`, labelled `label`, over `cases` (NULL: the
 * harness's default case set), and summarizes it. */
static int run(const char *so, const char *label, const struct described *d,
               const struct case_args *cases, struct run_summary *s)
{
    char json_path[512], dir[64], path[96];
    int timeout = strcmp(d->expect, "TIMEOUT") == 0 ? HANG_TIMEOUT_MS
                                                    : TIMEOUT_MS;
    hostile_target(dir, sizeof dir);
    int rc = run_harness(so, run_runs_dir(), label, timeout,
                         cases != NULL ? cases->argv : NULL, json_path,
                         sizeof json_path);
    unsetenv("RESHAPE_HOSTILE_TARGET");
    snprintf(path, sizeof path, "%s/target.pem", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/reshape_tamper_probe", dir);
    remove(path);
    rmdir(dir);
    cr_assert_geq(rc, 0, "cannot run \"%s\" on \"%s\" (see %s/%s.log)",
                  run_harness_path(), so, run_runs_dir(), label);
    cr_assert_eq(run_summarize(json_path, d->expect, s), 0, "%s", s->error);
    write_row(label, d, cases != NULL ? cases->scope : "all", s, rc);
    return rc;
}

/* -------------------------------------------------------- the controls */

Test(broken, base_is_conformant, .timeout = 300)
{
    char so[512];
    snprintf(so, sizeof so, "%s/base.so", run_broken_dir());
    struct described d;
    describe(so, &d);
    cr_assert_str_eq(d.name, "base");
    cr_assert_str_eq(d.expect, "PASS");
    cr_assert_eq(d.hooks_set, 0, "the base kernel replaces %d hooks",
                 d.hooks_set);
    struct run_summary s;
    int rc = run(so, "base", &d, NULL, &s);
    cr_assert_gt(s.results, 0, "the harness ran no case on the base kernel");
    cr_assert_eq(rc, 0, "the harness exited with %d on the base kernel", rc);
    cr_assert_str_eq(s.verdict, "conformant",
                     "the base kernel is nonconformant: %ld results caught it "
                     "(see %s/base.json)", s.caught, run_runs_dir());
}

Test(broken, reference_is_conformant, .timeout = 300)
{
    struct described d = {"reference", "none: reference/ as a candidate",
                          "PASS", 0, 0};
    struct run_summary s;
    int rc = run(run_reference_path(), "reference", &d, NULL, &s);
    cr_assert_gt(s.results, 0, "the harness ran no case on the reference");
    cr_assert_eq(rc, 0, "the harness exited with %d on the reference", rc);
    cr_assert_str_eq(s.verdict, "conformant",
                     "the reference is nonconformant: %ld results "
                     "(see %s/reference.json)", s.caught, run_runs_dir());
}

/* ----------------------------------------------- every broken candidate */

/* One build/broken/<name>.so; no pointers, as Criterion hands parameters
 * to another process. */
struct candidate {
    char name[64];
};

static void free_candidates(struct criterion_test_params *params)
{
    cr_free(params->params);
}

/* The names of the .so files in the broken directory except base.so,
 * sorted; their number in *count. */
static struct candidate *list_candidates(size_t *count)
{
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/*.so", run_broken_dir());
    glob_t g;
    *count = 0;
    if (glob(pattern, 0, NULL, &g) != 0)
        return NULL;
    struct candidate *list = cr_calloc(g.gl_pathc, sizeof *list);
    for (size_t i = 0; list != NULL && i < g.gl_pathc; i++) {
        const char *base = strrchr(g.gl_pathv[i], '/');
        base = base != NULL ? base + 1 : g.gl_pathv[i];
        size_t len = strlen(base) - 3; /* without ".so" */
        if (strcmp(base, "base.so") == 0 || len >= sizeof list->name)
            continue;
        memcpy(list[*count].name, base, len);
        list[*count].name[len] = '\0';
        (*count)++;
    }
    globfree(&g);
    return list;
}

Test(broken, at_least_28_candidates)
{
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/*.so", run_broken_dir());
    glob_t g;
    size_t n = glob(pattern, 0, NULL, &g) == 0 ? g.gl_pathc : 0;
    if (n > 0)
        globfree(&g);
    /* base.so is the control, not a broken candidate. */
    cr_assert_geq(n, 29, "only %zu .so files in %s (base.so and at least 28 "
                  "broken candidates)", n, run_broken_dir());
}

/* The sweep left out of broken runs is there; if it is renamed, this says
 * so instead of silently running it. */
Test(broken, sweep_file_exists)
{
    char path[512];
    snprintf(path, sizeof path, "%s/generated/%s", run_cases_dir(), SWEEP_FILE);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "\"%s\" is missing: update SWEEP_FILE", path);
    fclose(f);
}

ParameterizedTestParameters(broken, caught)
{
    size_t n;
    struct candidate *list = list_candidates(&n);
    return cr_make_param_array(struct candidate, list, n, free_candidates);
}

/* 600 s: kills_harness crashes its worker on 2391 runs, each a worker
 * replaced; on 2 cores shared with other builds (load 12) its run took
 * 362 s. */
ParameterizedTest(struct candidate *c, broken, caught, .timeout = 600)
{
    char so[512];
    snprintf(so, sizeof so, "%s/%s.so", run_broken_dir(), c->name);
    struct described d;
    describe(so, &d);
    cr_assert_str_eq(d.name, c->name, "\"%s\" calls itself \"%s\"", so, d.name);
    cr_assert_eq(d.hooks_set, 1, "%s replaces %d hooks; a broken candidate "
                 "has exactly one defect", c->name, d.hooks_set);
    cr_assert(run_verdict_counts(d.expect),
              "%s: expected verdict \"%s\" does not count against "
              "conformance", c->name, d.expect);
    /* the smallest selection first: the hand-written files catch 64 of the
     * 70 in a sixth of a run over every file; the spec examples catch the
     * 20 that fault on most cases, the 20 runs in 3.6 CPU-s of the machine
     * against 18.3 on the hand-written files (writes_dst_from_late_thread,
     * a worker each call: 2.5 s of wall against 26); the table's run
     * (BROKEN_TABLE) takes the largest, as the table counts */
    enum selection last = d.faults_on_most_cases ? HAND_WRITTEN : ALL_BUT_SWEEP;
    enum selection sel = getenv("BROKEN_TABLE") != NULL ? last
                         : d.faults_on_most_cases ? SPEC_ONLY : HAND_WRITTEN;
    struct case_args cases;
    broken_cases(&cases, sel);
    cr_assert_gt(cases.nfiles, 0, "no case files under %s", run_cases_dir());
    struct run_summary s;
    int rc = run(so, c->name, &d, &cases, &s);
    while (s.caught_expected == 0 && sel < last) {
        broken_cases(&cases, ++sel);
        rc = run(so, c->name, &d, &cases, &s);
    }
    cr_assert_str_eq(s.verdict, "nonconformant",
                     "%s survived the suite (%s); see %s/%s.json",
                     c->name, d.defect, run_runs_dir(), c->name);
    /* "1 not conformant" (reshape-conform --help): not a usage or harness
     * failure. */
    cr_assert_eq(rc, 1, "%s: the harness exited with %d; see %s/%s.log",
                 c->name, rc, run_runs_dir(), c->name);
    cr_assert_gt(s.caught_expected, 0,
                 "%s: caught %ld times, but never as %s; see %s/%s.json",
                 c->name, s.caught, d.expect, run_runs_dir(), c->name);
}
