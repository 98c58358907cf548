/*
 * select.h - which loaded cases a run takes (--filter, --tag, --op,
 * --shard) and known deviations (--expectations).  Depends on case.h,
 * job.h, options.h.
 */
#ifndef HARNESS_SELECT_H
#define HARNESS_SELECT_H

#include "case.h"
#include "job.h"
#include "options.h"

/*
 * Indices of the cases of `set` that match every given selector: the id
 * matches the --filter glob (fnmatch), the case has one of the --tag tags,
 * its op is one of the --op ops, and it falls in shard K of N (the first 8
 * bytes of SHA-256(id), big-endian, mod N equal K - 1).  In load order.
 */
int *select_cases(const case_set *set, const run_options *o, int *nsel);

/* Shard (0-based) of `id` among `n` shards. */
int shard_of(const char *id, int n);

/*
 * Known deviations, one a line: "ID[/VARIANT] REASON" ('#' starts a
 * comment line).  A matching result that counts against conformance becomes
 * WAIVED; a matching PASS becomes UNEXPECTED_PASS.
 */
typedef struct expectation {
    char *id;
    int variant;            /* -1: every variant */
    char *reason;
} expectation;

typedef struct expectations {
    expectation *v;
    int n;
} expectations;

/* Loads `path`; problems become load errors of `set` (FILE:LINE:COL). */
void expectations_load(expectations *x, const char *path, case_set *set);
/* The reason of the entry matching (id, v), or NULL. */
const char *expectations_match(const expectations *x, const char *id, variant v);
/* Applies a matching entry to `r` (see above). */
void expectations_apply(const char *reason, result *r);
void expectations_free(expectations *x);

#endif
