/*
 * select.h - which loaded cases a run takes (--filter, --tag, --op,
 * --shard) and which of their jobs (select_jobs).  Known deviations (--expectations) are in expectations.h.
 * Depends on case.h, job.h, options.h.
 */
#ifndef HARNESS_SELECT_H
#define HARNESS_SELECT_H

#include "suite/suite.h"
#include "judge/judge.h"
#include "options.h"

/*
 * Nonzero when no --filter was given or one of them matches: a filter is
 * ID_GLOB or ID_GLOB/VARIANT_GLOB (fnmatch; the form `id/variant` that the
 * reports print), and `variant_s` NULL matches any variant.  Repeated
 * filters add up (any of them).
 */
int select_filter_matches(const run_options *o, const char *id, const char *variant_s);

/*
 * Indices of the cases of `set` that match every given selector: the id
 * matches one of the --filter globs' ids (fnmatch), the case has one of the --tag tags,
 * its op is one of the --op ops, and it falls in shard K of N (the first 8
 * bytes of SHA-256(id), big-endian, mod N equal K - 1).  In load order.
 */
int *select_cases(const case_set *set, const run_options *o, int *nsel);

/* Shard (0-based) of `id` among `n` shards. */
int shard_of(const char *id, int n);

/*
 * The jobs of the run `o` describes (plan_jobs, job.h): planned over every
 * case the selectors other than --shard match, so that the `threads` and
 * `repeat` picks are the whole run's, then only those a --filter matches with their
 * variant (a job of several cases, `threads`, when one of them does) and
 * those of shard K of N: a
 * job is in the shard of its first case.  The N shards of a run thus hold
 * exactly its (case, variant) entries, each job with the `seq` it has in
 * the whole run.  Returns a new array; *njobs its length.
 */
job *select_jobs(const case_set *set, const run_options *o, int *njobs);

#endif
