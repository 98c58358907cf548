/*
 * baseline.h - `--baseline OLD.json`: a run judged against a previous JSON
 * report (reports/SCHEMA.md) instead of against perfection, for CI
 * (harness/README.md, "Baseline").
 *
 * A regression is a (case, variant) whose verdict now counts against
 * conformance and that either is absent from OLD (a new result that
 * fails) or did not count against conformance in OLD (PASS,
 * NOT_SUPPORTED or WAIVED there).  A new pass is one that counted against
 * conformance in OLD and is PASS now.  Results of OLD absent from the run
 * are ignored.  Depends on jansson, case.h and job.h.
 */
#ifndef HARNESS_BASELINE_H
#define HARNESS_BASELINE_H

#include <jansson.h>

#include "suite/suite.h"
#include "judge/judge.h"

typedef struct baseline_item {
    int result;                 /* index into the results compared */
    const char *was;            /* OLD's verdict, or NULL: not in OLD */
} baseline_item;

typedef struct baseline {
    char *path;
    json_t *old;                /* "id/variant" -> OLD's verdict name */
    baseline_item *regressions;
    int nregressions;
    baseline_item *new_passes;
    int nnew_passes;
} baseline;

/*
 * Reads the report at `path` into `b`.  Returns 0, or -1 with *err set
 * (a new string): unreadable, not JSON ("PATH:LINE:COL: ..."), not
 * schema_version 1, or an entry of "cases" without a string id, variant
 * or verdict, or an (id, variant) twice.
 */
int baseline_load(baseline *b, const char *path, char **err);

/* As baseline_load, over the report's bytes text[0..len) read from `path`
 * (named in messages): the parser itself, which tests/fuzz feeds. */
int baseline_parse(baseline *b, const char *path, const char *text, size_t len, char **err);

/* Finds the regressions and new passes among `res[0..n)` (final verdicts,
 * waivers applied), in the order of `res`. */
void baseline_compare(baseline *b, const case_set *set, const result *res, int n);

/* Prints "REGRESSION id/variant: was V, now W: detail [file:line]" and
 * "NEW_PASS id/variant: was V" lines to stdout. */
void baseline_print(const baseline *b, const case_set *set, const result *res);

/* The report's "baseline" object: {"path", "regressions": [{"id",
 * "variant", "was", "verdict", "detail"}], "new_passes": [{"id", "variant",
 * "was"}]}.  New reference. */
json_t *baseline_json(const baseline *b, const case_set *set, const result *res);

/* The summary line's head: "VERDICT, no regressions against PATH" or
 * "VERDICT, N regressions against PATH".  New string. */
char *baseline_headline(const baseline *b, const char *verdict_word);

void baseline_free(baseline *b);

#endif
