/*
 * skips.h - the skipped runs (verdict NOT_SUPPORTED) grouped by their
 * reason, as findings group the failing ones: one group per reason in
 * words that do not depend on the case (the detail with each number of
 * its own written N and each bracketed list [..]: "skipped: rank N above
 * the candidate's declared max_rank N", "supports() said NOT_SUPPORTED:
 * no f64 kernel"),
 * with its counts by op, dtype and variant.  Computed from the "cases"
 * array of a JSON report (reports/SCHEMA.md, "Skips"), so that a run and
 * `merge` give the same groups.  Depends on jansson.
 */
#ifndef HARNESS_SKIPS_H
#define HARNESS_SKIPS_H

#include <jansson.h>
#include <stdio.h>

/*
 * The skips of a report's `cases` array as a new JSON array, most runs
 * first, then by reason.  Each:
 *
 *   {"reason", "runs", "cases", "ops": {OP: runs}, "dtypes": {DTYPE: runs},
 *    "variants": {VARIANT: runs}, "example": {"id", "variant", "detail"}}
 *
 * ops and dtypes sorted by name, variants in job.h's order; the example is
 * the run with the shortest id (then the first in byte order).  The runs
 * of all groups add up to the summary's NOT_SUPPORTED.  Never fails.
 */
json_t *skips_build(json_t *cases);

/*
 * Prints `skips` (skips_build's array) to `out`: "skipped N runs for M
 * reasons", then with `verbose` one line per reason with its count (at
 * most `max_lines`, then "+N more").  Nothing when the array is empty.
 */
void skips_print(FILE *out, json_t *skips, int verbose, int max_lines);

#endif
