/*
 * test_deadline.c - the adaptive timeout rule (harness/deadline.h): full
 * budgets until a signature has struck out, then short ones in its entry
 * point only; and how soon the parent looks again at a batch
 * (deadline_recheck_ns), so that a hang behind a quick request of another
 * signature is not left to run out a full budget.
 */
#include <criterion/criterion.h>
#include <stdint.h>

#include "engine/deadline.h"
#include "engine/engine.h"

#define MS INT64_C(1000000)

static void strike(deadline *d, const deadline_req *r, int phase)
{
    for (int k = 0; k < DEADLINE_STRIKES; k++)
        deadline_timed_out(d, r, phase);
}

Test(deadline, full_budget_until_the_signature_strikes_out)
{
    deadline d;
    deadline_init(&d, 10000);
    deadline_req hang, other;
    deadline_describe(&hang, 1, 1, 8192, 1);
    deadline_describe(&other, 1, 0, 8192, 1);
    cr_expect_eq(hang.short_ns, DEADLINE_FLOOR_MS * MS + DEADLINE_NS_PER_BYTE * 8192);
    cr_expect_eq(deadline_budget_ns(&d, &hang, PHASE_INFER, 0), 10000 * MS);
    for (int k = 1; k < DEADLINE_STRIKES; k++)
        deadline_timed_out(&d, &hang, PHASE_INFER);
    cr_expect_eq(deadline_budget_ns(&d, &hang, PHASE_INFER, 0), 10000 * MS,
                 "one strike short of the rule: still the full budget");
    deadline_timed_out(&d, &hang, PHASE_INFER);
    cr_expect_eq(deadline_budget_ns(&d, &hang, PHASE_INFER, 0), hang.short_ns);
    cr_expect_eq(deadline_budget_ns(&d, &other, PHASE_INFER, 0), 10000 * MS,
                 "special_zero false is another signature");
}

Test(deadline, another_entry_point_is_looked_at_again_not_killed)
{
    deadline d;
    deadline_init(&d, 10000);
    deadline_req r;
    deadline_describe(&r, 1, 1, 0, 1);
    strike(&d, &r, PHASE_INFER);
    int64_t s = r.short_ns;
    cr_expect_eq(deadline_budget_ns(&d, &r, PHASE_EXECUTE, 0), s);
    cr_expect_eq(deadline_budget_ns(&d, &r, PHASE_EXECUTE, 3 * s), 4 * s,
                 "in execute when its short budget ran out: looked at again later");
    cr_expect_eq(deadline_budget_ns(&d, &r, PHASE_EXECUTE, 9990 * MS), 10000 * MS,
                 "never past the full budget");
}

Test(deadline, a_short_budget_never_exceeds_the_full_one)
{
    deadline d;
    deadline_init(&d, 500);
    deadline_req big;
    deadline_describe(&big, 1, 1, (size_t)1 << 30, 2200);
    strike(&d, &big, PHASE_EXECUTE);
    cr_expect_eq(deadline_budget_ns(&d, &big, PHASE_EXECUTE, 0), 500 * MS);
}

Test(deadline, recheck_is_the_shortest_short_budget_of_the_batch)
{
    deadline d;
    deadline_init(&d, 10000);
    deadline_req r[3];
    deadline_describe(&r[0], 1, 0, (size_t)1 << 30, 2200);   /* capped: full */
    deadline_describe(&r[1], 1, 1, 4096, 1);
    deadline_describe(&r[2], 1, 1, 1 << 20, 1);
    cr_expect_eq(deadline_recheck_ns(&d, r, 3), r[1].short_ns,
                 "a later request's short budget bounds the wait on the running one");
    cr_expect_eq(deadline_recheck_ns(&d, &r[2], 1), r[2].short_ns);
    cr_expect_eq(deadline_recheck_ns(&d, r, 1), 10000 * MS,
                 "a request whose short budget is the full one: no earlier look");
    cr_expect_eq(deadline_recheck_ns(&d, r, 0), 10000 * MS);
}

Test(deadline, a_requests_own_time_is_on_top_of_both_budgets)
{
    deadline d;
    deadline_init(&d, 300);
    deadline_req t;
    deadline_describe(&t, 1, 1, 0, 1);
    t.own_ns = 250 * MS;                /* a threads request's calling budget */
    cr_expect_eq(deadline_full_ns(&d, &t), 550 * MS);
    cr_expect_eq(deadline_budget_ns(&d, &t, PHASE_EXECUTE, 0), 550 * MS,
                 "--timeout-ms 300 is not eaten by the 250 ms the request calls for");
    strike(&d, &t, PHASE_EXECUTE);
    cr_expect_eq(deadline_budget_ns(&d, &t, PHASE_EXECUTE, 0), t.short_ns + 250 * MS);
    cr_expect_lt(deadline_budget_ns(&d, &t, PHASE_EXECUTE, 0), deadline_full_ns(&d, &t),
                 "still a short budget, though above --timeout-ms");
    cr_expect_eq(deadline_recheck_ns(&d, &t, 1), t.short_ns + 250 * MS);
}

Test(deadline, a_confirming_request_always_gets_the_full_budget)
{
    deadline d;
    deadline_init(&d, 10000);
    deadline_req r;
    deadline_describe(&r, 1, 1, 0, 1);
    strike(&d, &r, PHASE_INFER);
    cr_expect_lt(deadline_budget_ns(&d, &r, PHASE_INFER, 0), 10000 * MS);
    r.short_ns = INT64_MAX;             /* a full-budget slot's (worker.c) */
    r.own_ns = 250 * MS;
    cr_expect_eq(deadline_budget_ns(&d, &r, PHASE_INFER, 0), 10250 * MS);
    cr_expect_eq(deadline_recheck_ns(&d, &r, 1), 10250 * MS);
}

/* The first look: a second plus the bytes' part of the short budget and
 * the request's own time, while no signature of its op and special_zero
 * has struck out; none once one has, for a confirming request, or where
 * it would not come before the full budget. */
Test(deadline, one_first_look_until_the_op_strikes_out)
{
    deadline d;
    deadline_init(&d, 10000);
    deadline_req r, same_op_other_phase, confirming;
    deadline_describe(&r, 1, 1, 8192, 1);
    cr_expect_eq(deadline_first_look_ns(&d, &r),
                 DEADLINE_FIRST_LOOK_MS * MS + DEADLINE_NS_PER_BYTE * 8192);
    r.own_ns = 250 * MS;
    cr_expect_eq(deadline_first_look_ns(&d, &r),
                 DEADLINE_FIRST_LOOK_MS * MS + DEADLINE_NS_PER_BYTE * 8192 + 250 * MS);
    confirming = r;
    confirming.short_ns = INT64_MAX;
    cr_expect_eq(deadline_first_look_ns(&d, &confirming), INT64_MAX);
    deadline_req big;
    deadline_describe(&big, 1, 1, (size_t)1 << 28, 1);     /* 10.7 s of bytes */
    cr_expect_eq(deadline_first_look_ns(&d, &big), INT64_MAX, "not before the full budget");
    deadline short_run;
    deadline_init(&short_run, DEADLINE_FIRST_LOOK_MS);
    cr_expect_eq(deadline_first_look_ns(&short_run, &r), INT64_MAX);
    same_op_other_phase = r;
    strike(&d, &same_op_other_phase, PHASE_EXECUTE);
    cr_expect_eq(deadline_first_look_ns(&d, &r), INT64_MAX, "its op struck out in execute");
}
