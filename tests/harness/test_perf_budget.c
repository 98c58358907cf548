/*
 * test_perf_budget.c - `reshape-conform perf --budget S` (perf.h,
 * perf_budget_pick): the whole profile keeps to its budget by measuring an
 * evenly spread subset of the points, and names the points it left out in
 * the summary and on the console; the rule itself, on given costs.
 */
#include <math.h>

#include "base/base.h"
#include "perf/perf.h"
#include "run_harness.h"

/* The points of `points` whose status is `status`. */
static int count(json_t *points, const char *status)
{
    int n = 0;
    size_t i;
    json_t *p;
    json_array_foreach(points, i, p)
        n += !strcmp(field(p, "status"), status);
    return n;
}

Test(perf_budget, a_budget_of_a_few_seconds_gives_a_partial_profile_that_says_what_it_left_out)
{
    /* 3 sizes (4 KiB to 1 MiB) x 4 layouts x 6 widths: 72 points, about
     * 0.5 s on a quiet 2-core machine; 16 MiB would add u1 strided_src,
     * over a second a call on the reference, to the sample */
    double t0 = now_s();
    run r = run_harness("perf --op openvino_reshape_1 --max-size 1M --point-seconds 0.05 "
                        "--budget 1");
    double took = now_s() - t0;
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    cr_assert(r.report);
    json_t *points = json_object_get(r.report, "points");
    cr_assert_eq(json_array_size(points), 72, "every point is in the profile, run or not");
    int ok = 0, left_out = 0, sizes[2] = {0, 0};
    size_t i;
    json_t *p;
    json_array_foreach(points, i, p) {
        if (!strcmp(field(p, "status"), "OK")) {
            ok++;
            sizes[json_integer_value(json_object_get(p, "bytes")) > 65536]++;
        } else if (!strcmp(field(p, "status"), "LEFT_OUT")) {
            left_out++;
            cr_expect(strstr(field(p, "detail"), "--budget"), "%s", field(p, "detail"));
        }
    }
    cr_expect_geq(ok, PERF_BUDGET_SAMPLE, "the sample is measured whatever it costs");
    cr_expect_gt(left_out, 0, "1 s affords fewer than the 72 points");
    cr_expect_eq(ok + left_out + count(points, "CUT"), 72);
    cr_expect_gt(sizes[1], 1, "the subset spreads over the sizes too: %d of 1 MiB or more", sizes[1]);
    json_t *s = json_object_get(r.report, "summary");
    cr_expect_eq(json_array_size(json_object_get(s, "left_out")), (size_t)left_out);
    cr_expect_eq(json_real_value(json_object_get(json_object_get(r.report, "config"),
                                                 "budget_s")), 1.0);
    cr_expect(strstr(r.out, "points left out (not run: the profile's --budget"), "%s", r.out);
    cr_expect(strstr(r.err, "left out"), "the progress lines say it too");
    cr_expect_lt(took, 15, "a profile of 1 s and its loads took %.1f s", took);
    run_free(&r);
}

Test(perf_budget, no_budget_measures_every_point)
{
    run r = run_harness("perf --op openvino_reshape_1 --max-size 4K --point-seconds 0 "
                        "--budget 0 --quiet");
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    json_t *s = json_object_get(r.report, "summary");
    cr_expect_eq(json_integer_value(json_object_get(s, "measured")), 24);
    cr_expect_eq(json_array_size(json_object_get(s, "left_out")), 0);
    run_free(&r);
}

Test(perf_budget, a_negative_budget_is_a_usage_error)
{
    run r = run_harness("perf --budget -1");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "'--budget' wants seconds"), "%s", r.err);
    run_free(&r);
}

Test(perf_budget, the_rule_measures_a_sample_then_what_the_time_left_affords)
{
    perf_budget b = {100.0, 1.0, 0, 0};
    cr_expect_eq(perf_budget_pick(&b, 0, 500, 50.0), 1, "no cost known yet: the sample");
    for (int k = 0; k < PERF_BUDGET_SAMPLE; k++)
        perf_budget_spent(&b, 1.0);
    cr_expect_eq(perf_budget_pick(&b, 7, 40, 50.0), 1, "49 s left afford 40 points of 1 s");
    int picked = 0;
    for (int i = 0; i < 490; i++)
        picked += perf_budget_pick(&b, i, 490, 50.0);
    cr_expect(picked >= 40 && picked <= 58, "49 s afford about 49 of 490: %d", picked);
    cr_expect_eq(perf_budget_pick(&b, 7, 1, 99.5), 0, "the fixed costs' reserve is kept");
    cr_expect_eq(perf_budget_pick(&b, 7, 1, 101.0), 0, "past the deadline");
    perf_budget none = {0, 1.0, 0, 0};
    cr_expect_eq(perf_budget_pick(&none, 7, 1, 1e9), 1, "no budget: every point");
}

Test(perf_budget, the_subset_is_spread_over_a_period_of_the_plan)
{
    /* a share of a quarter or a sixth must not pick one layout or one size
     * only: the plan's order repeats sizes every 6 and layouts every 24 */
    perf_budget b = {1000.0, 0, PERF_BUDGET_SAMPLE, PERF_BUDGET_SAMPLE};
    for (int period = 4; period <= 6; period += 2) {
        int per_class[6] = {0};
        for (int i = 0; i < 600; i++)
            per_class[i % period] += perf_budget_pick(&b, i, 400 * period, 600.0);
        for (int k = 0; k < period; k++)
            cr_expect_gt(per_class[k], 10, "class %d of %d: %d picked", k, period, per_class[k]);
    }
}
