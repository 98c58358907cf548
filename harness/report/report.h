/*
 * report.h - the report layer's door (harness/ARCHITECTURE.md): the JSON
 * report of reports/SCHEMA.md (schema_version 1) and
 * the views derived from it (JUnit).  The report object is the one source:
 * summaries and matrices are computed from its "cases" array, so `merge`
 * recomputes them the same way (findings.h, skips.h).  Depends on
 * jansson, case.h, job.h,
 * options.h, wire.h, expectations.h, baseline.h; sandbox_layers.h (what
 * this machine offers the sandbox).
 */
#ifndef HARNESS_REPORT_H
#define HARNESS_REPORT_H

#include <jansson.h>

#include "suite/suite.h"
#include "engine/engine.h"
#include "judge/judge.h"
#include "run/run.h"
#include "baseline.h"
#include "gate.h"
#include "shards.h"
#include "findings.h"
#include "skips.h"
#include "libraries.h"
#include "ground.h"
#include "journal.h"
#include "progress.h"
#include "run_journal.h"
#include "sandbox_layers.h"

#define TOOL_NAME "reshape-conform"
#define TOOL_VERSION "0.1.0"
#define SUITE_VERSION "0.1.0"
#define SCHEMA_VERSION 1

typedef struct run_info {
    const run_options *o;
    const case_set *set;
    const char *candidate_path;
    const char *candidate_sha256;
    const wire_probe *probe;
    char started_utc[32];
    double duration_s;
    const result *results;
    int nresults;
    const expectation *const *waivers; /* per result: the entry that matched, or NULL */
    const baseline *baseline;       /* --baseline, read; or NULL */
    json_t *libraries;              /* --libraries: libraries_record's array, or NULL */
} run_info;

/* The whole report of a run (summary and matrices included; with
 * --baseline or --expectations, the gate of gate.h too).  New
 * reference. */
json_t *report_build(const run_info *ri);

/*
 * Recomputes "summary", "status_agreement", "adaptive_timeouts",
 * "matrices", "findings", "skips" and "verdict" of `report` from its
 * "cases" array (each entry's op, clause, dtype, tags, verdict, detail and
 * status_agrees).
 */
void report_summarize(json_t *report);

/* The report's "options" object of `o` (reports/SCHEMA.md): argv, the
 * variants, the selection and every setting that changes a verdict.  New
 * reference. */
json_t *report_options_json(const run_options *o);

/* The "waiver" object of reports/SCHEMA.md for expectation `w` of
 * `--expectations`: {"pattern", "verdict", "reason", "tracker"}, or JSON
 * null for NULL.  New reference. */
json_t *report_waiver_json(const expectation *w);

/*
 * `merge --expectations FILE`: judges every entry of report's "cases"
 * against `x` as a run does (expectations.h: WAIVED, UNEXPECTED_PASS, or
 * the expected verdict named in the detail), replacing its verdict, detail
 * and waiver; entries whose variant or verdict this harness does not know
 * are left alone.  The caller recomputes the summary (report_summarize).
 */
void report_waive(json_t *report, expectations *x);

/* Writes `report` to `path` (indented, keys in schema order), atomically
 * (atomic_write.h).  Returns 0,
 * or -1 with *err set. */
int report_write_json(json_t *report, const char *path, char **err);

/*
 * Writes the JUnit XML view of `report`, valid under Jenkins' junit-10.xsd:
 * one <testsuite> named options.junit_suite_name (default "reshape-conform"),
 * the run in its <properties> (candidate, suite version, commit and
 * cases_sha256, options, case_file.K repository-relative); one testcase per
 * (case, variant), classname = op, name = id/variant.  CRASH and TIMEOUT are
 * <error type="VERDICT" message="VERDICT: DETAIL">, the other verdicts that
 * count against conformance <failure>, the body naming the case file
 * (repository-relative) and line, expected, got and clause; NOT_SUPPORTED
 * is <skipped>, and so are known failures: WAIVED (message "known: REASON
 * (TRACKER)") and failures the --baseline report had (junit.h).  Written
 * atomically.  Returns 0, or -1 with *err set ("cannot write junit report:
 * ...").
 */
int report_write_junit(json_t *report, const char *path, char **err);

/* mkdir -p `path`: 0, or -1 with errno set. */
int report_make_dirs(const char *path);

/* Runs /usr/bin/python3 on the renderer `script` (a file of reports/,
 * e.g. "render.py") with JSON_PATH --out DIR, when the script exists; says
 * so on stderr when it does not, and warns when it fails. */
void report_render(const char *script, const char *json_path, const char *dir);

/* Host facts for the report: "Linux 6.1.0 x86_64", the CPU model, online
 * cores, "gcc 12.2.0". */
json_t *host_info(void);

/* The device the candidate's tensors lived in, for the report's
 * host.device: {"type": "cuda", "dlpack_type": 2, "id": 0, "name": ...}
 * (type as DLPack names it, "type N" for a value it does not), or JSON
 * null for host memory (probe->device_type 0).  device_info.c. */
json_t *host_device(const wire_probe *probe);
/* Lowercase hex SHA-256 of the file at `path` into out[65]; 0 or -1
 * with errno set. */
int sha256_file(const char *path, char out[65]);
/* The same of what is left to read of `fd` (read to its end). */
int sha256_fd(int fd, char out[65]);
/* `git rev-parse HEAD` in `dir`, or "unknown".  New string. */
char *git_commit(const char *dir);
/* The suite's commit: git_commit of the source tree, else (installed) the
 * commit stamped at build time, else "unknown".  New string. */
char *suite_commit(void);
/* Now as "2026-11-22T10:00:00Z" into out[32]. */
void utc_now(char out[32]);

#endif
