/*
 * expectations.h - known deviations (waivers), read from the YAML file of
 * `--expectations FILE` (docs/harness/gate.md, "Expectations"):
 *
 *   expectations:
 *     - id: "onnx_*_bf16/strided_dst"   # fnmatch glob over ids, "/VARIANT" optional
 *       verdict: FAIL                   # the expected verdict, or any
 *       reason: "bf16 strided stores are not written yet"
 *       tracker: https://example.org/issues/12    # optional
 *
 * A result that matches an entry (the first in file order) is judged
 * against it: the expected verdict becomes WAIVED, PASS becomes
 * UNEXPECTED_PASS, another verdict that counts against conformance stays
 * and its detail names the verdict the entry expected.  NOT_SUPPORTED is
 * left alone.  Depends on libyaml, case.h and job.h.
 */
#ifndef HARNESS_EXPECTATIONS_H
#define HARNESS_EXPECTATIONS_H

#include <stddef.h>

#include "base/base.h"
#include "suite/suite.h"
#include "job.h"

/* `verdict` of an entry written as `any`: every verdict that counts against
 * conformance. */
#define EXPECT_ANY_VERDICT (-1)

typedef struct expectation {
    char *pattern;              /* `id` as written: ID_GLOB or ID_GLOB/VARIANT_GLOB */
    char *id_glob;              /* the part before the last '/' (all of it without one) */
    char *variant_glob;         /* the part after it, or NULL: every variant */
    int verdict;                /* a verdict that counts against conformance, or EXPECT_ANY_VERDICT */
    char *reason;
    char *tracker;              /* URL, or NULL */
    int line, column;           /* of the entry, from 1 */
    size_t cut_start, cut_end;  /* bytes of the entry and its comment lines above it */
    /* what the run matched, counted by expectations_apply */
    long matched, waived, unexpected_passes, other;
} expectation;

/* An entry without glob characters, by its pattern: the index of
 * expectations_apply. */
typedef struct expectation_key {
    const char *pattern;        /* the entry's, borrowed */
    int index;                  /* into expectations.v */
} expectation_key;

typedef struct expectations {
    char *path;
    char *text;                 /* the file as read */
    size_t len;
    int block;                  /* the list is a block sequence, one entry per line range */
    expectation *v;
    int n;
    /* built by expectations_apply on first use: the entries without glob
     * characters sorted by pattern (then file order), and the others in
     * file order, so that a file of thousands of exact entries (as
     * `expectations write` gives) is looked up, not scanned */
    int indexed;
    expectation_key *exact;
    int nexact;
    int *globbed, nglobbed;
} expectations;

/*
 * Parses `text` (`len` bytes, the content of `path`) into `x`, which is
 * overwritten (free what it held first).  Every problem is appended to `errs` as one line
 * "PATH:LINE:COL: message\n" (positions from 1): invalid YAML, a missing
 * or unknown key, an empty `reason`, a verdict that does not count against
 * conformance, a variant glob that matches no variant, a tracker that is no
 * URL.  Returns the number of problems; `x` holds only the valid entries.
 */
int expectations_parse(expectations *x, const char *path, const char *text, size_t len,
                       strbuf *errs);

/* Reads the file `path` and parses it as above; a file that cannot be read
 * is one problem "PATH: cannot read expectations: REASON" and leaves `x`
 * empty. */
int expectations_load(expectations *x, const char *path, strbuf *errs);

/* Prints a warning line for each entry whose globs match no case of `set`
 * (for any variant name); returns how many. */
int expectations_warn_unmatched(const expectations *x, const case_set *set);

/*
 * The first entry matching (`id`, `r->v`), applied to `r` as the header
 * says, and counted in the entry; NULL (and `r` unchanged) when none
 * matches.  r->detail is replaced (a new string) when the verdict changes
 * or the entry expected another verdict.
 */
const expectation *expectations_apply(expectations *x, const char *id, result *r);

/* Nonzero when entry `e` matched results in this run and none of them
 * still fails: each passed (UNEXPECTED_PASS) or was NOT_SUPPORTED, and at
 * least one passed. */
int expectation_is_stale(const expectation *e);

/*
 * `--update-expectations`: for every stale entry, turns the results it
 * made UNEXPECTED_PASS (where waivers[i] == the entry) back into PASS with
 * no waiver, then rewrites x->path without those entries and the comment
 * lines directly above each, every other byte kept.  Prints one line per
 * removed entry.  Returns the number removed, or -1 with *err set (a flow
 * list such as `expectations: [...]` is refused, the file is unchanged).
 */
int expectations_update(expectations *x, result *res, const expectation **waivers, int n,
                        char **err);

void expectations_free(expectations *x);

#endif
