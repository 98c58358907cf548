/*
 * verify.h - what `reshape-conform verify` (cmd_verify.c) shares with the
 * checks it runs over a certification bundle: the problem list, and one
 * entry point per check, each in a file of its own (rederive.c,
 * verify_views.c, signature.c, verify_rerun.c).  Every problem carries a
 * stable name (docs/harness/certification.md lists them) so
 * scripts and tests can tell a forged verdict from a damaged archive.
 * Depends on jansson, bundle.h, case.h.
 */
#ifndef HARNESS_VERIFY_H
#define HARNESS_VERIFY_H

#include <jansson.h>

#include "suite/suite.h"
#include "bundle.h"

/* The problems found so far. */
typedef struct checker {
    int problems;
} checker;

/*
 * Prints "problem: NAME: MESSAGE" on stdout and counts it.  `name` is one
 * of the stable problem names ("verdict-mismatch", "junit-mismatch", ...);
 * bytes of MESSAGE outside printable ASCII are printed as '?' (a bundle's
 * strings are hostile input).
 */
void verify_problem(checker *k, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* How many lines of one kind of problem to print before summing up the
 * rest in one line. */
#define VERIFY_SHOW 10

/*
 * Checks `report` (a bundle's report.json) against the verifier's own
 * suite `set`: the (case, variant) pairs the certification options plan
 * for `set` (job.c, with the report's max_bytes) each have exactly one
 * entry ("case-missing", "variant-missing", "result-unexpected",
 * "result-duplicate"); each entry's op, clause, dtype, tags, line and
 * expected are the case's, its verdict a known one ("result-mismatch");
 * and its verdict, summary, status agreement and matrices are what
 * report_summarize() (the code `run` and `merge` use) derives from the
 * entries ("verdict-mismatch", "summary-mismatch", "matrix-mismatch").
 */
void rederive_check(checker *k, json_t *report, const case_set *set);

/*
 * Checks the views of bundle `b` against its report: report.xml must be
 * the bytes report_write_junit() renders from `report` ("junit-mismatch");
 * report.md and report.html, when present and reports/render.py is there,
 * the bytes it renders ("markdown-mismatch", "html-mismatch"); without the
 * renderer one line says they were not checked.
 */
void views_check(checker *k, const bundle *b, json_t *report);

/*
 * The text of libraries.sha256 for `report`'s "libraries" ("SHA256  PATH"
 * a line, in the report's order), or NULL when it records none.  New
 * string.
 */
char *libraries_manifest(json_t *report);

/* Member libraries.sha256 of `b` is libraries_manifest(report), and is
 * there exactly when the report records libraries ("member-missing",
 * "libraries-mismatch"). */
void libraries_member_check(checker *k, const bundle *b, json_t *report);

/*
 * The libraries of the rerun's report `now` against the certified report
 * `was`, matched by soname (the candidate by its role, a file without a
 * soname by its name): one "rerun-library-mismatch" problem naming each
 * library loaded by one run only or with another SHA-256.  With
 * `allow_system`, a difference in the C and C++ runtimes (ld-linux, libc,
 * libm, libmvec, libpthread, libdl, librt, libresolv, libutil, libanl,
 * libgcc_s, libstdc++, libatomic) or in a library of the harness itself
 * (role "harness") is a "note:" line instead.  Nothing when `was` records
 * no libraries (a bundle from before they were recorded).  Returns the
 * problems found.
 */
int libraries_compare(checker *k, json_t *was, json_t *now, int allow_system);

#endif
