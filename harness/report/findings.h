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
 *    "runs", "cases", "ops": [..], "variants": [..], "dtypes": [..],
 *    "example": {"id", "variant", "expected", "got", "detail"}}
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
 * Prints `findings` (findings_build's array) to `out`, one line per
 * finding, at most `max_lines` of them, then "+N more findings" when some
 * were left out.  `color` makes each line's verdict red.  Nothing when the
 * array is empty.
 */
void findings_print(FILE *out, json_t *findings, int max_lines, int color);

#endif
