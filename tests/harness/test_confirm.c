/*
 * test_confirm.c - no TIMEOUT without the full budget (run/confirm.h).
 * hang_or_slow.so hangs in infer_shape on the OpenVINO special_zero cases
 * whose dims[0] is 2 and takes 300 ms, then answers right, on those whose
 * dims[0] is 3 (tests/harness/data/confirm: four hangs first, then six slow
 * ones).  After two hangs the kind's adaptive budget is 20 ms: every
 * later request of it runs out of that and must run again with the full
 * budget, so the hangs are TIMEOUTs, confirmed, and the slow calls pass.
 * The report's adaptive_timeouts and summary line say so.
 */
#include "run_harness.h"

#define CONFIRM_RUN "--candidate " CANDS "hang_or_slow.so --cases tests/harness/data/confirm " \
                    "--timeout-ms 1000 --variants infer,dense"

static long count_of(json_t *o, const char *k)
{
    return (long)json_integer_value(json_object_get(o, k));
}

static void expect_confirmed(const char *jobs)
{
    run r = run_harness(CONFIRM_RUN " --jobs %s", jobs);
    cr_assert_eq(r.code, 1, "%s", r.err);
    cr_assert_not_null(r.report, "%s", r.err);
    size_t i;
    json_t *e;
    long hangs = 0, slow_rerun = 0, confirmed = 0;
    json_array_foreach(json_object_get(r.report, "cases"), i, e) {
        const char *id = field(e, "id"), *vd = field(e, "verdict"), *d = field(e, "detail");
        int rerun = strstr(d, "run again with the full budget after the adaptive budget of") != NULL;
        if (!strcmp(field(e, "variant"), "dense") || !strncmp(id, "slow_", 5)) {
            cr_expect_str_eq(vd, "PASS", "--jobs %s: %s/%s: %s (%s)", jobs, id,
                             field(e, "variant"), vd, d);
            slow_rerun += rerun;
            continue;
        }
        hangs++;
        cr_expect_str_eq(vd, "TIMEOUT", "%s: %s", id, d);
        cr_expect(strstr(d, "no return within 1000 ms (in infer_shape)"),
                  "a TIMEOUT under the full budget only: %s: %s", id, d);
        confirmed += rerun;
    }
    cr_expect_eq(hangs, 4);
    cr_expect_geq(slow_rerun, 1, "--jobs %s: no slow call ran out of the adaptive budget: the "
                  "test did not test it", jobs);
    cr_expect_geq(confirmed, 1, "--jobs %s: no hang ran out of the adaptive budget", jobs);
    json_t *at = json_object_get(r.report, "adaptive_timeouts");
    cr_expect_eq(count_of(at, "confirmed"), confirmed);
    cr_expect_eq(count_of(at, "not_confirmed"), slow_rerun);
    cr_expect_eq(count_of(at, "rerun"), confirmed + slow_rerun);
    char line[160];
    snprintf(line, sizeof line, "; %ld ran again with the full budget after the adaptive one ran "
             "out: %ld TIMEOUT confirmed, %ld not\n", confirmed + slow_rerun, confirmed, slow_rerun);
    cr_expect(strstr(r.out, line), "the summary line lacks '%s': %s", line, r.out);
    run_free(&r);
}

Test(confirm, a_slow_call_is_no_timeout_however_many_hangs_came_first, .timeout = 120)
{
    expect_confirmed("1");
}

Test(confirm, the_same_with_a_thread_per_slot, .timeout = 120)
{
    expect_confirmed("2");
}
