/*
 * test_expectations_write.c - `expectations write REPORT.json`: the file
 * it writes makes the next run of the same candidate green; a fixed known
 * failure then reads as a fix, once, under its real id, and fails the
 * gate unless --allow-fixes.
 */
#include "run_harness.h"

Test(expectations_cli, write_makes_the_next_run_green_and_a_fix_reads_as_a_fix, .timeout = 120)
{
    run first = run_harness("--candidate " CANDS "segfault.so --cases " BASIC " --quiet");
    cr_expect_eq(first.code, 1);
    char cmd[512], known[128];
    snprintf(known, sizeof known, "%s/known.yaml", first.dir);
    snprintf(cmd, sizeof cmd, "%s expectations write %s/r.json --tracker https://example.org/1 "
             ">%s", harness_bin(), first.dir, known);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    char *text = slurp(known);
    /* every variant of trigger_f32 that executes crashes; infer passes: one
     * entry per failing variant, exact, with its finding above it */
    cr_expect(strstr(text, "  # CRASH: SIGSEGV at address N in execute; clause "), "%s", text);
    cr_expect(strstr(text, "  - id: trigger_f32/dense\n    verdict: CRASH\n    reason: \""),
              "%s", text);
    cr_expect(strstr(text, "    tracker: \"https://example.org/1\"\n"), "%s", text);
    cr_expect(!strstr(text, "trigger_f32/infer"), "%s", text);
    free(text);
    run green = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                            " --quiet --expectations %s", known);
    cr_expect_eq(green.code, 0, "%s %s", green.out, green.err);
    cr_expect(strstr(green.out, "conformant with 8 known failures:"), "%s", green.out);
    cr_expect_eq(count_verdict(green.report, "WAIVED"), 8);
    cr_expect(json_is_true(json_object_get(json_object_get(green.report, "gate"), "passed")));

    /* the fix: with the expectations and the last run as baseline, each
     * fixed entry is a fix, not a regression, under its real id */
    run fixed = run_harness("--candidate " CANDS "good.so --cases " BASIC
                            " --quiet --expectations %s --baseline %s/r.json", known, green.dir);
    cr_expect_eq(fixed.code, 1, "strict: a fixed known failure fails the gate");
    cr_expect(!strstr(fixed.out, "REGRESSION"), "%s", fixed.out);
    cr_expect(strstr(fixed.out, "8 fixes: was expected to fail, now UNEXPECTED_PASS\n"
                                "  FIX trigger_f32/dense: passes, expected to fail by "
                                "'trigger_f32/dense'"), "%s", fixed.out);
    cr_expect(strstr(fixed.out, "nonconformant: 8 fixed known failures still expected to fail"),
              "%s", fixed.out);
    json_t *f = json_array_get(json_object_get(fixed.report, "findings"), 0);
    cr_expect_str_eq(field(f, "signature"),
                     "UNEXPECTED_PASS: passed where an expectation expects a failure");
    run allowed = run_harness("--candidate " CANDS "good.so --cases " BASIC
                              " --quiet --expectations %s --baseline %s/r.json --allow-fixes",
                              known, green.dir);
    cr_expect_eq(allowed.code, 0, "%s", allowed.out);
    cr_expect(strstr(allowed.out, ", 8 fixed (--allow-fixes):"), "%s", allowed.out);
    run_free(&first);
    run_free(&green);
    run_free(&fixed);
    run_free(&allowed);
}
