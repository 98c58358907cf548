/*
 * run_harness.h - running the real reshape-conform binary as a
 * subprocess (HARNESS_BIN, default build/reshape-conform) on the data sets
 * in tests/harness/data, and reading its JSON report with jansson.
 * Included by the test files that need it; the tests run from the
 * repository root (make test-harness does).
 */
#ifndef TESTS_HARNESS_RUN_H
#define TESTS_HARNESS_RUN_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/folders.h"

#define CANDS "build/tests/harness_cands/"
#define BASIC "tests/harness/data/basic"

typedef struct run {
    int code;           /* exit status */
    char *out, *err;    /* what it printed */
    json_t *report;     /* --json, when it wrote one */
    char dir[64];
} run;

/* A mkdtemp/mkstemp template: `prefix` and six placeholder characters. */
static inline void temp_template(char *buf, size_t size, const char *prefix)
{
    snprintf(buf, size, "%s%c%c%c%c%c%c", prefix, 'X', 'X', 'X', 'X', 'X', 'X');
}

/* Runs the shell command a printf format makes and returns its exit
 * status; fails the test when it did not exit. */
static inline int sh_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static inline int sh_status(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "'%s' did not exit", cmd);
    return WEXITSTATUS(st);
}

static inline const char *harness_bin(void)
{
    const char *b = getenv("HARNESS_BIN");
    return b && *b ? b : "build/reshape-conform";
}

static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

/* Runs `reshape-conform ARGS --json DIR/r.json`; ARGS is a printf format
 * and must quote nothing the shell would split. */
static inline run run_harness(const char *fmt, ...)
{
    run r;
    memset(&r, 0, sizeof r);
    temp_template(r.dir, sizeof r.dir, "/tmp/harness-test-");
    cr_assert(mkdtemp(r.dir));
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "NO_COLOR=1 %s %s --json %s/r.json >%s/out 2>%s/err </dev/null",
             harness_bin(), args, r.dir, r.dir, r.dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "'%s' did not exit", cmd);
    r.code = WEXITSTATUS(st);
    char path[128];
    snprintf(path, sizeof path, "%s/out", r.dir);
    r.out = slurp(path);
    snprintf(path, sizeof path, "%s/err", r.dir);
    r.err = slurp(path);
    snprintf(path, sizeof path, "%s/r.json", r.dir);
    json_error_t je;
    r.report = access(path, R_OK) == 0 ? json_load_file(path, 0, &je) : NULL;
    return r;
}

static inline void run_free(run *r)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", r->dir);
    if (system(cmd) != 0)
        cr_log_warn("could not remove %s", r->dir);
    free(r->out);
    free(r->err);
    json_decref(r->report);
}

/* How many results of `report` have `verdict`. */
static inline size_t count_verdict(json_t *report, const char *verdict)
{
    json_t *cases = json_object_get(report, "cases"), *c;
    size_t i, n = 0;
    json_array_foreach(cases, i, c)
        n += strcmp(json_string_value(json_object_get(c, "verdict")), verdict) == 0;
    return n;
}

/* The report entry of (id, variant), or NULL. */
static inline json_t *entry(const run *r, const char *id, const char *variant)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e)
        if (!strcmp(json_string_value(json_object_get(e, "id")), id) &&
            !strcmp(json_string_value(json_object_get(e, "variant")), variant))
            return e;
    return NULL;
}

static inline const char *field(json_t *e, const char *k)
{
    const char *s = json_string_value(json_object_get(e, k));
    return s ? s : "";
}

/* Asserts the verdict of (id, variant) and that its detail contains
 * `detail_part`. */
static inline void expect_verdict(const run *r, const char *id, const char *variant,
                                  const char *verdict, const char *detail_part)
{
    json_t *e = entry(r, id, variant);
    cr_assert(e, "no entry %s/%s in the report (stdout: %s, stderr: %s)", id, variant, r->out, r->err);
    cr_expect_str_eq(field(e, "verdict"), verdict, "%s/%s: %s (%s)", id, variant,
                     field(e, "verdict"), field(e, "detail"));
    cr_expect(strstr(field(e, "detail"), detail_part), "%s/%s detail '%s' lacks '%s'", id, variant,
              field(e, "detail"), detail_part);
}

/* Counts entries whose id is not `except_id` and whose verdict is not
 * PASS: the run went on and nothing else suffered. */
static inline int others_not_passing(const run *r, const char *except_id)
{
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e)
        if ((!except_id || strcmp(field(e, "id"), except_id)) && strcmp(field(e, "verdict"), "PASS")) {
            cr_log_error("%s/%s: %s %s", field(e, "id"), field(e, "variant"), field(e, "verdict"),
                         field(e, "detail"));
            n++;
        }
    return n;
}

#endif
