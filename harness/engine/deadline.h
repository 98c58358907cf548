/*
 * deadline.h - how long a request may run before its worker is SIGKILLed
 * (TIMEOUT): the adaptive rule of docs/harness/timeouts.md.
 *
 * A request's signature is (op, special_zero, the entry point it was in:
 * supports, infer_shape or execute).  Every request first gets the full
 * budget, --timeout-ms.  Once DEADLINE_STRIKES requests of one signature
 * have timed out, a request that is in that signature's entry point when
 * its short budget runs out is killed then: DEADLINE_FLOOR_MS plus
 * DEADLINE_NS_PER_BYTE for each byte of its cell's src and dst areas, for
 * each call it makes (capped at the full budget).  A request of another
 * signature, or in another entry point at that moment, keeps the full
 * budget.  A candidate that never hangs never gets a short budget, however
 * slow it is.  A request that spends a time by design (a `threads`
 * request calls for its own budget) gets that time on top of either
 * budget.  A request whose short budget is at least the full one (a slot
 * that confirms, worker.h) always gets the full budget.  A short
 * budget only makes a request a suspect: the run judges no TIMEOUT until
 * the request has run again with the full budget (run/confirm.h).  Before
 * its signature strikes out, a request is looked at once, at its first
 * look (deadline_first_look_ns): one that sleeps then is a suspect too and
 * counts as a timeout of its signature, so that a candidate that hangs
 * asleep costs its first two hangs about a second each, not two full
 * budgets.
 * Thread-safe (the slots' threads share one).  Depends on nothing but C11
 * atomics.
 */
#ifndef HARNESS_DEADLINE_H
#define HARNESS_DEADLINE_H

#include <stddef.h>
#include <stdint.h>

#define DEADLINE_STRIKES 2
#define DEADLINE_FLOOR_MS 20
/* the first look at a request of a signature that has not struck out */
#define DEADLINE_FIRST_LOOK_MS 1000
/* 25 MB/s: 200 times slower than the reference's copy on the dev machine */
#define DEADLINE_NS_PER_BYTE 40
#define DEADLINE_OPS 8      /* reshape_op values counted apart; more share the last */
#define DEADLINE_PHASES 4   /* wire_phase values up to PHASE_EXECUTE */

typedef struct deadline {
    int64_t full_ns;                    /* --timeout-ms */
    int timeouts[DEADLINE_OPS][2][DEADLINE_PHASES];     /* atomics */
} deadline;

/* What the rule needs to know of one staged request. */
typedef struct deadline_req {
    int op, special_zero;
    int64_t short_ns;                   /* its short budget */
    int64_t own_ns;                     /* its time by design, added to both */
} deadline_req;

/* Starts the rule with a full budget of `timeout_ms` milliseconds. */
void deadline_init(deadline *d, int timeout_ms);

/* Fills `r` for a request of `op` with `special_zero`, whose cell has
 * `bytes` of src and dst areas and which makes `calls` calls (own_ns 0:
 * set it after). */
void deadline_describe(deadline_req *r, int op, int special_zero, size_t bytes, long calls);

/* The full budget of request `r` in nanoseconds: --timeout-ms and its
 * own time.  A budget below it is a short one. */
int64_t deadline_full_ns(const deadline *d, const deadline_req *r);

/*
 * The budget in nanoseconds of request `r`, counted from its start, when
 * it is in entry point `phase` (enum wire_phase) `elapsed_ns` after its
 * start (each budget below with its own time added): its short budget if
 * its signature (with `phase`) has struck out;
 * if only another signature of its op and special_zero has, the short
 * budget while it has not run out, then `elapsed_ns` plus the short budget
 * (the parent looks at the phase again then), at most the full budget;
 * else the full one.  The request timed out when the budget is at most
 * `elapsed_ns`.
 */
int64_t deadline_budget_ns(const deadline *d, const deadline_req *r, int phase,
                           int64_t elapsed_ns);

/*
 * How long the parent may wait, in nanoseconds from now, before it looks
 * again at a batch whose requests r[0..n) are still to run or running
 * (r[0] the running one): the shortest short budget among them that is
 * below the full budget, else the full budget.  A budget computed now
 * holds for the running request only while nothing changes: the worker
 * may move on to a later request of the batch, whose signature has struck
 * out, or another slot's TIMEOUT may strike out the running one's; looking
 * again this often kills such a hang at most one short budget late, never
 * a full budget late.  `n` < 1: the full budget.
 */
int64_t deadline_recheck_ns(const deadline *d, const deadline_req *r, int n);

/*
 * When the parent looks, once, whether request `r` sleeps, in nanoseconds
 * from its start: DEADLINE_FIRST_LOOK_MS plus the bytes part of its short
 * budget and its own time, while no signature of its op and special_zero
 * has struck out; INT64_MAX when one has (its short budget rules), when
 * it has no short budget (a confirming slot) or when that is not below
 * its full budget.  Whether a worker sleeps is the parent's look at the
 * kernel's thread states (engine/census.c, census_asleep), never the
 * worker's word.
 */
int64_t deadline_first_look_ns(const deadline *d, const deadline_req *r);

/* Counts a TIMEOUT of request `r` in entry point `phase`. */
void deadline_timed_out(deadline *d, const deadline_req *r, int phase);

#endif
