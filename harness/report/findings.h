/*
 * findings.h - failing runs grouped into findings: one finding per
 * signature of what went wrong, so that one defect of a candidate reads as
 * one line, not as one line per (case, variant).  Computed from the "cases"
 * array of a JSON report (reports/SCHEMA.md), so that a run and `merge`
 * give the same findings.  Depends on jansson and job.h.
 *
 * A case's failing runs all belong to one finding, keyed by the case's
 * primary run: its infer run if that failed, else dense, else the first
 * failing variant in the order of job.h.  The signature is
 *
 *     VERDICT: KIND                  (the primary run is infer or dense)
 *     VERDICT: KIND (on VARIANT)     (infer and dense pass: a layout defect)
 *
 * where KIND says what the primary run got wrong, in words that do not
 * depend on the case: "returned OK where BELOW_MINUS_ONE was expected",
 * "returned INVALID_ARGUMENT where a shape was expected", "wrong shape",
 * "bytes differ", or the run's detail with every number written N and
 * every list of dims [..], cut at its first "; " ("SIGSEGV at address N
 * in execute").
 */
#ifndef HARNESS_FINDINGS_H
#define HARNESS_FINDINGS_H

#include <jansson.h>
#include <stdio.h>

/*
 * The findings of a report's `cases` array (entries with "id", "op",
 * "variant", "verdict", "detail", "dtype", "expected", "got"; missing
 * strings read as ""), as a new JSON array, most runs first, then by
 * signature.  Only runs whose verdict counts against conformance belong to
 * a finding, so the findings' "runs" add up to those runs.  Each finding:
 *
 *   {"signature", "verdict", "kind", "scope": VARIANT or null,
 *    "runs", "cases", "known_runs", "ops": [..], "variants": [..],
 *    "dtypes": [..], "example": {"id", "variant", "expected", "got",
 *    "detail", "clause", "file", "line"}}
 *
 * where known_runs counts the runs whose entry the gate (gate.h) calls
 * "known" (failing in the baseline too): a finding is new when some of
 * its runs are not known.
 *
 * lists sorted; the example is the primary run of the case with the
 * shortest id (then the first in byte order).  Never fails (an empty array
 * when nothing failed).
 */
json_t *findings_build(json_t *cases);

/*
 * The kind of mismatch of one run (see the top of this file), from its
 * verdict name, detail and expected strings.  A new string.
 */
char *findings_kind(const char *verdict, const char *detail, const char *expected);

/*
 * Prints the findings of `report` (its "findings", findings_build's
 * array) to `out`: for each, one line (signature, runs, ops, variants,
 * dtypes, an example) and one below it with the example's spec clause and
 * the command that reruns exactly its case and variant (the report's
 * candidate, its case file, --filter ID/VARIANT and the options that
 * change verdicts); the new findings first, then, under "known failures
 * (failing in the baseline too):", those all of whose runs the gate calls
 * known.  At most `max_lines` lines, then "+N more findings" when some
 * were left out.  `color` makes each line's verdict red.  Nothing when
 * the report has no finding.
 */
void findings_print(FILE *out, json_t *report, int max_lines, int color);

#endif
