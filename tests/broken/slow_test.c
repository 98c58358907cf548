/*
 * slow_test.c - the other half of the adaptive timeout rule (issue 15
 * item 3, docs/harness/timeouts.md): build/slow/slow_100x.so, the
 * reference with every call run 100 times, is conformant over the whole
 * default case set with the default timeout, and no result is a TIMEOUT.
 * It asserts the verdicts, not the run's time.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* SLOW_SO, or build/slow/slow_100x.so. */
static const char *slow_path(void)
{
    const char *v = getenv("SLOW_SO");
    return v != NULL && *v != '\0' ? v : "build/slow/slow_100x.so";
}

/* The harness's default --timeout-ms (reshape-conform --help). */
#define DEFAULT_TIMEOUT_MS 10000

Test(broken, slow_reference_is_conformant_without_timeout, .timeout = 600)
{
    char json[512];
    int rc = run_harness(slow_path(), run_runs_dir(), "slow_100x", DEFAULT_TIMEOUT_MS, NULL, json,
                         sizeof json);
    cr_assert_geq(rc, 0, "cannot run \"%s\" on \"%s\"", run_harness_path(), slow_path());
    struct run_summary s;
    cr_assert_eq(run_summarize(json, "TIMEOUT", &s), 0, "no finished report: %s", s.error);
    cr_assert_gt(s.results, 0, "the harness ran no case on slow_100x");
    cr_expect_eq(s.caught_expected, 0, "%ld TIMEOUT, the first %s/%s: %s", s.caught_expected,
                 s.first_case, s.first_variant, s.first_detail);
    cr_expect_eq(s.caught, 0, "%ld results count against slow_100x; see %s", s.caught, json);
    cr_expect_str_eq(s.verdict, "conformant");
    cr_expect_eq(rc, 0, "the harness exited with %d; see %s/slow_100x.log", rc, run_runs_dir());
}
