/*
 * test_sandbox.c - hostile candidates against the real binary: the
 * sandbox names the system call it stopped (and `--sandbox off` lets it
 * through), threads keep working in it, and a candidate that dies or is
 * refused while loading gets a finished report, CRASH verdicts that say
 * the stage, status and its last output, and exit status 1.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "run_harness.h"

/* The detail of the first result with `verdict` in the report, or NULL. */
static const char *first_detail(json_t *report, const char *verdict)
{
    json_t *cases = json_object_get(report, "cases"), *c;
    size_t i;
    json_array_foreach(cases, i, c) {
        if (strcmp(json_string_value(json_object_get(c, "verdict")), verdict) == 0)
            return json_string_value(json_object_get(c, "detail"));
    }
    return NULL;
}

Test(sandbox, a_stopped_call_is_a_crash_that_names_it)
{
    run r = run_harness("--candidate " CANDS "kcmp_call.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_assert_not_null(r.report);
    const char *d = first_detail(r.report, "CRASH");
    cr_assert_not_null(d, "%s", r.out);
    cr_expect(strstr(d, "the sandbox stopped system call kcmp (312) in execute"), "%s", d);
    cr_expect(strstr(d, "Bad system call"), "%s", d);
    cr_expect(strstr(d, "reshape-conform: sandbox: the candidate called kcmp("), "%s", d);
    cr_expect_eq(count_verdict(r.report, "PASS") + count_verdict(r.report, "CRASH") +
                     count_verdict(r.report, "NOT_SUPPORTED"),
                 json_array_size(json_object_get(r.report, "cases")));
    run_free(&r);
}

/* Asking a signal's action changes nothing (CPython's signal module asks it
 * of every signal at import, SIGSYS included); setting SIGSYS's would take
 * the sandbox's handler away, and is stopped. */
Test(sandbox, asking_every_signals_action_is_allowed)
{
    run r = run_harness("--candidate " CANDS "queries_signals.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report);
    cr_expect_eq(count_verdict(r.report, "CRASH"), 0, "%s", first_detail(r.report, "CRASH"));
    cr_expect_gt(count_verdict(r.report, "PASS"), 10);
    run_free(&r);
}

Test(sandbox, setting_sigsys_is_a_crash_that_names_it)
{
    run r = run_harness("--candidate " CANDS "sets_sigsys.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_assert_not_null(r.report);
    const char *d = first_detail(r.report, "CRASH");
    cr_assert_not_null(d, "%s", r.out);
    cr_expect(strstr(d, "the sandbox stopped system call rt_sigaction ("), "%s",
              d);
    cr_expect(strstr(d, "reshape-conform: sandbox: the candidate called rt_sigaction(31, "),
              "%s", d);
    run_free(&r);
}

Test(sandbox, off_lets_the_call_through)
{
    run r = run_harness("--candidate " CANDS "kcmp_call.so --cases " BASIC " --quiet "
                        "--sandbox off");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    run_free(&r);
    r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --sandbox maybe");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "'--sandbox' wants on or off, not 'maybe'"), "%s", r.err);
    run_free(&r);
    r = run_harness("--help");
    cr_expect(strstr(r.out, "--sandbox on|off"), "%s", r.out);
    run_free(&r);
}

Test(sandbox, a_thread_pool_works_in_it)
{
    run r = run_harness("--candidate " CANDS "thread_pool.so --cases " BASIC " --quiet "
                        "--variants infer,dense,in_place,misaligned,repeat");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report);
    cr_expect_gt(count_verdict(r.report, "PASS"), 10);
    run_free(&r);
}

Test(load, an_abort_in_a_constructor_is_the_candidates_crash)
{
    run r = run_harness("--candidate " CANDS "ctor_abort.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_assert_not_null(r.report, "a finished report");
    const char *d = first_detail(r.report, "CRASH");
    cr_assert_not_null(d);
    cr_expect(strstr(d, "the candidate did not load: "), "%s", d);
    cr_expect(strstr(d, "died while loading, in dlopen (its constructors): signal 6"), "%s", d);
    cr_expect(strstr(d, "licence server unreachable"), "%s", d);
    cr_expect_eq(count_verdict(r.report, "CRASH"),
                 json_array_size(json_object_get(r.report, "cases")));
    run_free(&r);
}

Test(load, a_missing_symbol_is_the_candidates_fault)
{
    run r = run_harness("--candidate " CANDS "missing_symbol.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_assert_not_null(r.report);
    const char *d = first_detail(r.report, "CRASH");
    cr_assert_not_null(d);
    cr_expect(strstr(d, "undefined symbol: reshape_test_no_such_function"), "%s", d);
    run_free(&r);
}

Test(load, a_wrong_abi_version_is_the_candidates_fault)
{
    run r = run_harness("--candidate " CANDS "abi_mismatch.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_assert_not_null(r.report);
    const char *d = first_detail(r.report, "CRASH");
    cr_assert_not_null(d);
    cr_expect(strstr(d, "has abi_version 2, this harness speaks 1"), "%s", d);
    run_free(&r);
}

Test(timeout, hangs_get_a_short_budget_and_slow_calls_still_pass, .timeout = 300)
{
    run r = run_harness("--candidate " CANDS "slow_or_hung.so --cases " BASIC " --quiet "
                        "--timeout-ms 1500 --variants infer,dense,in_place");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_assert_not_null(r.report);
    json_t *cases = json_object_get(r.report, "cases"), *c;
    size_t i, adaptive = 0, timeouts = 0, slow_pass = 0;
    json_array_foreach(cases, i, c) {
        const char *v = json_string_value(json_object_get(c, "verdict"));
        const char *var = json_string_value(json_object_get(c, "variant"));
        const char *d = json_string_value(json_object_get(c, "detail"));
        if (strcmp(v, "TIMEOUT") == 0) {
            timeouts++;
            cr_expect_str_eq(var, "infer", "%s: only infer_shape hangs", d);
            /* killed at its short budget, confirmed with the full one */
            adaptive += strstr(d, "run again with the full budget") != NULL;
            cr_expect(strstr(d, "no return within 1500 ms"), "%s", d);
        }
        slow_pass += strcmp(v, "PASS") == 0 && strcmp(var, "infer") != 0;
    }
    cr_expect_geq(timeouts, 4, "%zu timeouts", timeouts);
    cr_expect_geq(adaptive, 1, "the short budget was never used");
    cr_expect_gt(slow_pass, 10, "slow execute calls passed");
    run_free(&r);
}
