/*
 * test_baseline.c - --baseline OLD.json: which changes are regressions and
 * new passes (every pair of old and new verdict that matters), refusing a
 * file that is no report, and the CLI end to end (exit status, lines, the
 * summary line and the report's baseline object).
 */
#include "report/report.h"
#include "run_harness.h"

/* Writes `text` to a new temporary file; its path in buf. */
static void temp_json(char *buf, size_t size, const char *text)
{
    temp_template(buf, size, "/tmp/harness-base-");
    int fd = mkstemp(buf);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* A report of entries (id, verdict), all of variant dense, with a
 * waiver where `waived` says so. */
static json_t *report_of(const char *const (*entries)[2], int n)
{
    json_t *cases = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            cases, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:o}", "id", entries[i][0],
                             "variant", "dense", "verdict", entries[i][1], "detail", "d",
                             "expected", "shape [2]", "file", "x.yaml", "line", 1 + i, "waiver",
                             strcmp(entries[i][1], "PASS") && strcmp(entries[i][1], "FAIL") &&
                                     strcmp(entries[i][1], "CRASH") &&
                                     strcmp(entries[i][1], "TIMEOUT") &&
                                     strcmp(entries[i][1], "NOT_SUPPORTED")
                                 ? json_pack("{s:s}", "pattern", entries[i][0])
                                 : json_null()));
    return json_pack("{s:i, s:o}", "schema_version", 1, "cases", cases);
}

static const char *gate_of(json_t *report, int i)
{
    return field(json_array_get(json_object_get(report, "cases"), (size_t)i), "gate");
}

Test(baseline, regressions_fixes_and_known_by_old_and_new_verdict)
{
    char path[64];
    temp_json(path, sizeof path,
              "{\"schema_version\": 1, \"cases\": ["
              "{\"id\": \"a\", \"variant\": \"dense\", \"verdict\": \"PASS\"},"
              "{\"id\": \"b\", \"variant\": \"dense\", \"verdict\": \"NOT_SUPPORTED\"},"
              "{\"id\": \"c\", \"variant\": \"dense\", \"verdict\": \"WAIVED\"},"
              "{\"id\": \"d\", \"variant\": \"dense\", \"verdict\": \"FAIL\"},"
              "{\"id\": \"e\", \"variant\": \"dense\", \"verdict\": \"CRASH\"},"
              "{\"id\": \"f\", \"variant\": \"dense\", \"verdict\": \"FAIL\"},"
              "{\"id\": \"h\", \"variant\": \"dense\", \"verdict\": \"PASS\"},"
              "{\"id\": \"i\", \"variant\": \"dense\", \"verdict\": \"FAIL\"},"
              "{\"id\": \"gone\", \"variant\": \"dense\", \"verdict\": \"FAIL\"}]}");
    baseline b;
    char *err = NULL;
    cr_assert_eq(baseline_load(&b, path, &err), 0, "%s", err ? err : "");
    static const char *const now[][2] = {
        {"a", "FAIL"},              /* PASS -> FAIL: regression */
        {"b", "CRASH"},             /* NOT_SUPPORTED -> CRASH: regression */
        {"c", "UNEXPECTED_PASS"},   /* WAIVED -> UNEXPECTED_PASS: a fix, not a regression */
        {"d", "CRASH"},             /* FAIL -> CRASH: known (failing already) */
        {"e", "PASS"},              /* CRASH -> PASS: fix */
        {"f", "NOT_SUPPORTED"},     /* FAIL -> NOT_SUPPORTED: neither */
        {"g", "TIMEOUT"},           /* not in OLD, fails: regression */
        {"h", "PASS"},              /* PASS -> PASS: nothing */
        {"i", "WAIVED"},            /* FAIL -> WAIVED: known */
    };
    json_t *r = report_of(now, 9);
    cr_expect_eq(gate_apply(r, &b, "known.yaml", 0), GATE_FAILS);
    static const char *const want[] = {"regression", "regression", "fix", "known", "fix",
                                       NULL, "regression", NULL, "known"};
    for (int i = 0; i < 9; i++)
        if (want[i])
            cr_expect_str_eq(gate_of(r, i), want[i], "entry %d", i);
        else
            cr_expect(json_is_null(json_object_get(
                          json_array_get(json_object_get(r, "cases"), (size_t)i), "gate")),
                      "entry %d", i);
    json_t *g = json_object_get(r, "gate");
    cr_expect_eq(json_integer_value(json_object_get(g, "regressions")), 3);
    cr_expect_eq(json_integer_value(json_object_get(g, "fixes")), 2);
    cr_expect_eq(json_integer_value(json_object_get(g, "unexpected_passes")), 1);
    cr_expect_eq(json_integer_value(json_object_get(g, "known")), 2);
    cr_expect_eq(json_integer_value(json_object_get(g, "waived")), 1);
    cr_expect_eq(json_integer_value(json_object_get(g, "baselined")), 1);
    cr_expect(json_is_false(json_object_get(g, "passed")));
    json_t *j = json_object_get(r, "baseline");
    cr_expect_str_eq(field(j, "path"), path);
    json_t *r0 = json_array_get(json_object_get(j, "regressions"), 0);
    cr_expect_str_eq(field(r0, "id"), "a");
    cr_expect_str_eq(field(r0, "was"), "PASS");
    cr_expect_str_eq(field(r0, "verdict"), "FAIL");
    cr_expect(json_is_null(json_object_get(json_array_get(json_object_get(j, "regressions"), 2),
                                           "was")));
    cr_expect_eq(json_array_size(json_object_get(j, "new_passes")), 2);
    char want_head[256];
    snprintf(want_head, sizeof want_head, "nonconformant: 3 regressions against %s, 1 fixed "
             "known failure still expected to fail (drop it from the expectations, or "
             "--allow-fixes); 2 known failures", path);
    cr_expect_str_eq(gate_headline(r), want_head);
    json_decref(r);

    /* the known failures and the fixes alone: the gate passes, and says so */
    static const char *const known[][2] = {{"d", "CRASH"}, {"e", "PASS"}, {"i", "WAIVED"},
                                           {"c", "UNEXPECTED_PASS"}};
    r = report_of(known, 4);
    cr_expect_eq(gate_apply(r, &b, NULL, 0), GATE_FAILS, "an UNEXPECTED_PASS fails, strict");
    json_decref(r);
    r = report_of(known, 4);
    cr_expect_eq(gate_apply(r, &b, NULL, 1), GATE_PASSES, "--allow-fixes");
    snprintf(want_head, sizeof want_head, "conformant with 2 known failures, no regressions "
             "against %s, 2 fixed (--allow-fixes)", path);
    cr_expect_str_eq(gate_headline(r), want_head);
    json_decref(r);
    baseline_free(&b);
    unlink(path);
}

Test(baseline, without_a_baseline_every_failure_not_waived_is_unexpected)
{
    static const char *const now[][2] = {{"a", "PASS"}, {"b", "WAIVED"}, {"c", "WAIVED"}};
    json_t *r = report_of(now, 3);
    cr_expect_eq(gate_apply(r, NULL, "known.yaml", 0), GATE_PASSES);
    cr_expect_str_eq(gate_headline(r), "conformant with 2 known failures");
    cr_expect(json_is_null(json_object_get(r, "baseline")));
    json_decref(r);
    static const char *const bad[][2] = {{"a", "FAIL"}, {"b", "WAIVED"}};
    r = report_of(bad, 2);
    cr_expect_eq(gate_apply(r, NULL, "known.yaml", 0), GATE_FAILS);
    cr_expect_str_eq(gate_headline(r), "nonconformant: 1 unexpected failure; 1 known failure");
    cr_expect_str_eq(gate_of(r, 0), "regression");
    json_decref(r);
}

Test(baseline, refuses_what_is_no_report)
{
    const char *bad[][2] = {
        {"{\"schema_version\": 1, \"cases\": [", "invalid baseline report: "},
        {"{\"schema_version\": 2, \"cases\": []}", "is not a reshape-conform report of schema_version 1"},
        {"{\"schema_version\": 1, \"cases\": [{\"id\": \"a\", \"variant\": \"dense\"}]}",
         "cases[0] lacks a string id, variant or verdict"},
        {"{\"schema_version\": 1, \"cases\": [{\"id\": \"a\", \"variant\": \"dense\", \"verdict\": "
         "\"PASS\"}, {\"id\": \"a\", \"variant\": \"dense\", \"verdict\": \"FAIL\"}]}",
         "'a/dense' appears twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char path[64];
        temp_json(path, sizeof path, bad[i][0]);
        baseline b;
        char *err = NULL;
        cr_expect_eq(baseline_load(&b, path, &err), -1, "%s", bad[i][0]);
        cr_expect(err && strstr(err, bad[i][1]), "'%s' lacks '%s'", err ? err : "", bad[i][1]);
        free(err);
        unlink(path);
    }
}

Test(baseline_cli, exit_status_counts_only_regressions)
{
    /* OLD: the crashing candidate; now: the good one, then the crashing one again */
    run old = run_harness("--candidate " CANDS "segfault.so --cases " BASIC " --quiet");
    cr_assert_eq(old.code, 1);
    run fixed = run_harness("--candidate " CANDS "good.so --cases " BASIC
                            " --quiet --baseline %s/r.json", old.dir);
    cr_expect_eq(fixed.code, 0);
    cr_expect(strstr(fixed.out, "  FIX trigger_f32/dense: was CRASH, now PASS ["), "%s", fixed.out);
    char want[256];
    snprintf(want, sizeof want, "conformant, no regressions against %s/r.json, 8 fixed: 65 runs",
             old.dir);
    cr_expect(strstr(fixed.out, want), "%s", fixed.out);
    json_t *b = json_object_get(fixed.report, "baseline");
    cr_expect_eq(json_array_size(json_object_get(b, "regressions")), 0);
    cr_expect_eq(json_array_size(json_object_get(b, "new_passes")), 8);
    snprintf(want, sizeof want, "%s/r.json", old.dir);
    cr_expect_str_eq(field(json_object_get(fixed.report, "options"), "baseline"), want);

    /* the same failures as OLD: nonconformant, but no regression */
    run same = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                           " --quiet --baseline %s/r.json", old.dir);
    cr_expect_eq(same.code, 0, "%s", same.out);
    cr_expect(strstr(same.out, "conformant with 8 known failures, no regressions against"),
              "%s", same.out);

    /* the crash comes back against the good run */
    run back = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                           " --quiet --variants dense,infer --baseline %s/r.json", fixed.dir);
    cr_expect_eq(back.code, 1);
    cr_expect(strstr(back.out, "REGRESSION trigger_f32/dense: was PASS, now CRASH: SIGSEGV at "
                               "address 0x0 in execute [tests/harness/data/basic/cases.yaml:5]\n"),
              "%s", back.out);
    cr_expect(strstr(back.out, "nonconformant: 1 regression against"), "%s", back.out);
    json_t *r0 = json_array_get(json_object_get(json_object_get(back.report, "baseline"),
                                                "regressions"), 0);
    cr_expect_str_eq(field(r0, "id"), "trigger_f32");
    cr_expect_str_eq(field(r0, "was"), "PASS");
    cr_expect_str_eq(field(r0, "verdict"), "CRASH");
    run_free(&old);
    run_free(&fixed);
    run_free(&same);
    run_free(&back);
}

Test(baseline_cli, a_new_result_that_fails_is_a_regression)
{
    run old = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                          " --quiet --filter 'ok_*'");
    cr_assert_eq(old.code, 0);
    run now = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                          " --quiet --variants dense --baseline %s/r.json", old.dir);
    cr_expect_eq(now.code, 1);
    cr_expect(strstr(now.out, "  REGRESSION trigger_f32/dense: not in the baseline, now CRASH"),
              "%s", now.out);
    run_free(&old);
    run_free(&now);
}

Test(baseline_cli, an_unreadable_baseline_exits_2)
{
    run r = run_harness("--candidate " CANDS "good.so --cases " BASIC
                        " --baseline /nonexistent/old.json");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "cannot read baseline report '/nonexistent/old.json'"), "%s", r.err);
    cr_expect_null(r.report);
    run_free(&r);
}
