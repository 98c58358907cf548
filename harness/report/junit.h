/*
 * junit.h - the parts of the JUnit view (report_junit.c) that judge and
 * write one entry of a JSON report's "cases" (reports/SCHEMA.md) as a
 * <testcase> of Jenkins' junit-10.xsd: no attribute beyond name,
 * classname, time and group, and only <failure>, <error>, <skipped>,
 * <system-out> or <system-err> in it.  Depends on jansson, stdio and
 * judge/ (verdict names).
 */
#ifndef HARNESS_JUNIT_H
#define HARNESS_JUNIT_H

#include <stdio.h>

#include <jansson.h>

/* What one entry becomes in JUnit. */
typedef enum junit_kind {
    JK_PASS,        /* a bare <testcase/> */
    JK_FAILURE,     /* <failure>: a verdict that counts against conformance */
    JK_ERROR,       /* <error>: the candidate did not answer (CRASH, TIMEOUT) */
    JK_SKIPPED,     /* <skipped>: NOT_SUPPORTED */
    JK_KNOWN        /* <skipped message="known: ...">: WAIVED by an expectation,
                     * or a failure the baseline already had */
} junit_kind;

/* What the whole report says about known failures, read once. */
typedef struct junit_known {
    const char *baseline_path;  /* report.options.baseline (points into the
                                 * report), or NULL: no baseline */
} junit_known;

/* Reads `report`'s options into `k`; never fails (a missing or malformed
 * field reads as no baseline). */
void junit_known_init(junit_known *k, json_t *report);

/*
 * The kind of `entry` (an element of report.cases).  A failing entry is
 * JK_KNOWN when it carries "baseline_was" naming a verdict that counts
 * against conformance: it failed in the baseline too.  Without
 * "baseline_was" (no --baseline, or a report written before the field) no
 * failure is known by a baseline: a report's `baseline` object alone is not
 * read, as a merge of shards keeps only the first shard's.  Unknown verdict
 * names count as failures.
 */
junit_kind junit_entry_kind(json_t *entry);

/*
 * The case file of `file` as it is in the repository: the part from the
 * last path component "cases" on ("/opt/x/share/reshape-conform/cases/a.yaml"
 * -> "cases/a.yaml"); `file` itself when no component is named so.  Points
 * into `file`.
 */
const char *junit_case_path(const char *file);

/* Writes `s` as XML character data or attribute value: the five special
 * characters escaped, control characters other than tab and newline as '?'. */
void junit_xml_text(FILE *f, const char *s);

/* Writes the <testcase> of `entry`, indented by four spaces, judged by `k`. */
void junit_write_testcase(FILE *f, json_t *entry, const junit_known *k);

#endif
