/*
 * test_followup.c - error cases can no longer hide a crash: where
 * infer_shape wrongly accepts an error case, execute runs once more into a
 * dst of the dims it inferred, and what happens is the infer entry's
 * verdict (a crash) or part of its detail (OK, an error, not tried).
 */
#include "run_harness.h"

Test(followup, a_crash_behind_an_accepted_shape_is_a_crash)
{
    static const char *const modes[] = {"worker", "fork"};
    for (int m = 0; m < 2; m++) {
        run r = run_harness("--candidate " CANDS "accept_wrapped_crash.so --cases " BASIC
                            " --quiet --isolation %s", modes[m]);
        cr_expect_eq(r.code, 1);
        cr_assert(r.report, "%s", r.err);
        expect_verdict(&r, "err_volume", "infer", "CRASH",
                       "execute into the dims infer_shape returned, [4]: signal 6 (Aborted) in "
                       "execute; infer_shape returned OK, expected error VOLUME_MISMATCH");
        cr_expect_str_eq(field(entry(&r, "err_volume", "infer"), "got"), "shape [4], then crash");
        /* its own dense call got the input's dims and refused them */
        expect_verdict(&r, "err_volume", "dense", "PASS", "");
        json_t *f = json_array_get(json_object_get(r.report, "findings"), 0);
        cr_expect_str_eq(field(f, "signature"), "CRASH: execute into the dims infer_shape "
                         "returned, [..]: signal N (Aborted) in execute");
        cr_expect_eq(others_not_passing(&r, "err_volume"), 0, "%s", modes[m]);
        run_free(&r);
    }
}

Test(followup, an_accepted_shape_that_executes_stays_accepted_invalid)
{
    run r = run_harness("--candidate " CANDS "accept_invalid.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "err_two_minus_ones", "infer", "ACCEPTED_INVALID",
                   "returned OK, expected error MULTIPLE_MINUS_ONE; execute into the dims it "
                   "returned, [6,6], returned OK too");
    cr_expect_str_eq(field(entry(&r, "err_two_minus_ones", "infer"), "got"), "shape [6,6]");
    run_free(&r);
}

Test(followup, a_dst_too_large_to_stage_is_not_tried_and_says_so)
{
    run r = run_harness("--candidate " CANDS "accept_huge_shape.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "err_volume", "infer", "ACCEPTED_INVALID",
                   "returned OK, expected error VOLUME_MISMATCH; execute into the dims it "
                   "returned, [1099511627776], not tried: a dst of 4398046511104 bytes is more "
                   "than this run stages");
    cr_expect_eq(others_not_passing(&r, "err_volume"), 0);
    run_free(&r);
}
