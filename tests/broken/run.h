/*
 * run.h - running build/reshape-conform on one candidate and reducing its
 * JSON report (reports/SCHEMA.md) to what tests/broken asserts.
 * Depends on jansson and POSIX.
 */
#ifndef TESTS_BROKEN_RUN_H
#define TESTS_BROKEN_RUN_H

#include <stddef.h>

/* Paths, each overridable by the environment variable named first. */
const char *run_harness_path(void);   /* RESHAPE_CONFORM, or
                                         build/reshape-conform */
const char *run_broken_dir(void);     /* BROKEN_DIR, or build/broken */
const char *run_test_cands_dir(void); /* HARNESS_CANDS, or
                                         build/tests/harness_cands: the
                                         harness tests' candidates */
const char *run_reference_path(void); /* REFERENCE_SO, or
                                         build/libreshape_ref.so */
const char *run_cases_dir(void);      /* CASES_DIR, or cases */
const char *run_runs_dir(void);       /* BROKEN_RUNS, or build/broken/runs:
                                         each run's report and log */

/*
 * Runs the harness on the candidate `so` with `--json <out_dir>/<label>.json`
 * and the suite's fast options (`--jobs 2`, a timeout of `timeout_ms`),
 * then the NULL-terminated `extra` arguments (NULL: none); its stdout and
 * stderr go to <out_dir>/<label>.log.  Creates `out_dir`.  Returns the
 * harness's exit status (0..255), or -1 when it could not be started or
 * was killed by a signal; `json_path` (room for `size` bytes) receives the
 * report's path.
 */
int run_harness(const char *so, const char *out_dir, const char *label,
                int timeout_ms, const char *const *extra, char *json_path,
                size_t size);

/* What one report says about a candidate. */
struct run_summary {
    char verdict[32];        /* "conformant" or "nonconformant", "" if none */
    long results;            /* (case, variant) results in the report */
    long caught;             /* results whose verdict counts against it */
    long caught_expected;    /* results with the verdict `expect` */
    char first_case[128];    /* first result with the verdict `expect`, */
    char first_variant[32];  /* in report order ("" when none) */
    char first_detail[400];  /* its detail, cut to fit */
    char error[256];         /* why the report could not be read, or "" */
};

/*
 * Reads the report at `json_path` into `*s`, counting results whose verdict
 * is `expect` (a reports/SCHEMA.md verdict).  Returns 0, or -1 with
 * s->error set when the file is missing or not a schema version 1 report.
 */
int run_summarize(const char *json_path, const char *expect,
                  struct run_summary *s);

/* 1 when `verdict` counts against conformance (reports/SCHEMA.md). */
int run_verdict_counts(const char *verdict);

#endif
