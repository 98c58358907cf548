/*
 * shards.h - whether JSON reports are the complete set of shards of one
 * run, for `merge` (docs/harness/gate.md, "Sharding"): every shard K of N
 * (the report's options.shard, "K/N") present exactly once, the same
 * candidate (sha256), the same case files (suite.cases_sha256) and the
 * same options that change verdicts or the selection (every field of
 * "options" but argv, shard, jobs, baseline and allow_fixes).  Depends on
 * jansson.
 */
#ifndef HARNESS_SHARDS_H
#define HARNESS_SHARDS_H

#include <jansson.h>

/* merge's exit status for reports that are not one run's complete set of
 * shards (a missing, duplicated or mixed shard). */
#define EXIT_SHARD_SET 4

/*
 * Checks reports[0..n) (read from paths[0..n), named in messages) as
 * above.  Returns 0, or -1 with *err set to one line per problem (a new
 * string): "shard 2/3 is missing", "shard 1/2 appears twice ('a.json',
 * 'b.json')", "'b.json' is shard 1/3 but 'a.json' is 1/2", "'b.json'
 * tested another candidate than 'a.json'", "'b.json' ran other case
 * files than 'a.json'", "'b.json' ran with options.seed 2, 'a.json' with
 * 1", or a shard field that is no "K/N".
 */
int shards_check(json_t *const *reports, const char *const *paths, int n, char **err);

#endif
