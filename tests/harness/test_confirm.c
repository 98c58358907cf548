/*
 * test_confirm.c - no TIMEOUT without the full budget (run/confirm.h).
 * hang_or_slow.so hangs in infer_shape on the OpenVINO special_zero cases
 * whose dims[0] is 2 and takes 300 ms, then answers right, on those whose
 * dims[0] is 3 (tests/harness/data/confirm: four hangs first, then six slow
 * ones).  After two hangs the kind's adaptive budget is 20 ms: every
 * later request of it runs out of that and must run again with the full
 * budget, so the hangs are TIMEOUTs, confirmed, and the slow calls pass.
 * The report's adaptive_timeouts and summary line say so.  Before any
 * strike, the first look at a request (engine/deadline.h, a second in)
 * makes one asleep a suspect (naps_or_spins.so: a hang, or a nap of 1.5 s
 * that then answers right) and leaves one that computes to finish.
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

#define LOOK_RUN "--candidate " CANDS "naps_or_spins.so --cases tests/harness/data/confirm " \
                 "--timeout-ms 4000 --variants infer --jobs 2"

/* Each result of `r` whose id starts with `prefix`: its verdict must be
 * `verdict`; returns how many there were, and into *rerun how many say
 * they ran again after the adaptive budget ran out, with a budget of at
 * least the first look and below the full one into *looked. */
static int tally(const run *r, const char *prefix, const char *verdict, int *rerun, int *looked)
{
    int n = 0;
    *rerun = *looked = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e) {
        const char *d = field(e, "detail");
        if (strncmp(field(e, "id"), prefix, strlen(prefix)))
            continue;
        n++;
        cr_expect_str_eq(field(e, "verdict"), verdict, "%s: %s", field(e, "id"), d);
        const char *at = strstr(d, "after the adaptive budget of ");
        if (!at)
            continue;
        (*rerun)++;
        long ms = strtol(at + strlen("after the adaptive budget of "), NULL, 10);
        *looked += ms >= 1000 && ms < 4000;
    }
    return n;
}

/* Hangs asleep: the first two are suspects at the first look, not killed
 * at the full budget in their slots, and every hang is a TIMEOUT of the
 * full budget, confirmed. */
Test(confirm, a_hang_asleep_is_a_suspect_at_the_first_look, .timeout = 120)
{
    run r = run_harness(LOOK_RUN " --filter 'hangs_*'");
    cr_assert_not_null(r.report, "%s", r.err);
    int rerun, looked;
    cr_expect_eq(tally(&r, "hangs_", "TIMEOUT", &rerun, &looked), 4);
    cr_expect_eq(rerun, 4, "every hang ran again with the full budget");
    cr_expect_geq(looked, 2, "the first hangs were not suspects at the first look");
    run_free(&r);
}

/* A nap of 1.5 s is asleep at the first look: a suspect, run again with
 * the full budget, and PASS (the first ones at the first look; once two
 * have struck, the later ones at the short budget); the same time spent
 * computing is no suspect. */
Test(confirm, a_slow_call_asleep_runs_again_one_that_computes_is_left_to_finish, .timeout = 120)
{
    int rerun, looked;
    run nap = run_harness(LOOK_RUN " --filter 'slow_*'");
    cr_assert_not_null(nap.report, "%s", nap.err);
    cr_expect_eq(tally(&nap, "slow_", "PASS", &rerun, &looked), 6);
    cr_expect_eq(rerun, 6, "%d of 6 naps ran again with the full budget", rerun);
    cr_expect_geq(looked, 1, "no nap was a suspect at the first look");
    run_free(&nap);
    setenv("RESHAPE_TEST_SPIN", "1", 1);
    run spin = run_harness(LOOK_RUN " --filter 'slow_*'");
    unsetenv("RESHAPE_TEST_SPIN");
    cr_assert_not_null(spin.report, "%s", spin.err);
    cr_expect_eq(tally(&spin, "slow_", "PASS", &rerun, &looked), 6);
    cr_expect_eq(rerun, 0, "%d of 6 calls that computed were suspects", rerun);
    run_free(&spin);
}
