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

Test(baseline, regressions_and_new_passes_by_old_and_new_verdict)
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
              "{\"id\": \"a\", \"variant\": \"infer\", \"verdict\": \"PASS\"},"
              "{\"id\": \"gone\", \"variant\": \"dense\", \"verdict\": \"FAIL\"}]}");
    baseline b;
    char *err = NULL;
    cr_assert_eq(baseline_load(&b, path, &err), 0, "%s", err ? err : "");
    static char ids[7][8] = {"a", "b", "c", "d", "e", "f", "g"};
    rcase cases[7];
    memset(cases, 0, sizeof cases);
    for (int i = 0; i < 7; i++) {
        cases[i].id = ids[i];
        cases[i].file = "x.yaml";
    }
    case_set set;
    memset(&set, 0, sizeof set);
    set.cases = cases;
    set.ncases = 7;
    result res[] = {
        {0, V_DENSE, VD_FAIL, "wrong", NULL, -1},          /* PASS -> FAIL: regression */
        {1, V_DENSE, VD_CRASH, "SIGSEGV", NULL, -1},       /* NOT_SUPPORTED -> CRASH: regression */
        {2, V_DENSE, VD_UNEXPECTED_PASS, "", NULL, -1},    /* WAIVED -> UNEXPECTED_PASS: regression */
        {3, V_DENSE, VD_CRASH, "", NULL, -1},              /* FAIL -> CRASH: was failing already */
        {4, V_DENSE, VD_PASS, "", NULL, -1},               /* CRASH -> PASS: new pass */
        {5, V_DENSE, VD_NOT_SUPPORTED, "", NULL, -1},      /* FAIL -> NOT_SUPPORTED: neither */
        {6, V_DENSE, VD_TIMEOUT, "", NULL, -1},            /* not in OLD, fails: regression */
        {6, V_INFER, VD_PASS, "", NULL, -1},               /* not in OLD, passes: nothing */
        {0, V_INFER, VD_PASS, "", NULL, -1},               /* PASS -> PASS: nothing */
    };
    baseline_compare(&b, &set, res, 9);
    cr_assert_eq(b.nregressions, 4);
    cr_expect_eq(b.regressions[0].result, 0);
    cr_expect_str_eq(b.regressions[0].was, "PASS");
    cr_expect_eq(b.regressions[1].result, 1);
    cr_expect_str_eq(b.regressions[1].was, "NOT_SUPPORTED");
    cr_expect_eq(b.regressions[2].result, 2);
    cr_expect_eq(b.regressions[3].result, 6);
    cr_expect_null(b.regressions[3].was);
    cr_assert_eq(b.nnew_passes, 1);
    cr_expect_eq(b.new_passes[0].result, 4);
    cr_expect_str_eq(b.new_passes[0].was, "CRASH");
    json_t *j = baseline_json(&b, &set, res);
    cr_expect_str_eq(field(j, "path"), path);
    json_t *r0 = json_array_get(json_object_get(j, "regressions"), 0);
    cr_expect_str_eq(field(r0, "id"), "a");
    cr_expect_str_eq(field(r0, "variant"), "dense");
    cr_expect_str_eq(field(r0, "was"), "PASS");
    cr_expect_str_eq(field(r0, "verdict"), "FAIL");
    cr_expect_str_eq(field(r0, "detail"), "wrong");
    cr_expect(json_is_null(json_object_get(json_array_get(json_object_get(j, "regressions"), 3),
                                           "was")));
    cr_expect_eq(json_array_size(json_object_get(j, "new_passes")), 1);
    json_decref(j);
    char *head = baseline_headline(&b, "nonconformant");
    char want[128];
    snprintf(want, sizeof want, "nonconformant, 4 regressions against %s", path);
    cr_expect_str_eq(head, want);
    free(head);
    baseline_free(&b);
    unlink(path);
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
    cr_expect(strstr(fixed.out, "NEW_PASS trigger_f32/dense: was CRASH\n"), "%s", fixed.out);
    char want[256];
    snprintf(want, sizeof want, "conformant, no regressions against %s/r.json: 65 runs", old.dir);
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
    cr_expect(strstr(same.out, "nonconformant, no regressions against"), "%s", same.out);

    /* the crash comes back against the good run */
    run back = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                           " --quiet --variants dense,infer --baseline %s/r.json", fixed.dir);
    cr_expect_eq(back.code, 1);
    cr_expect(strstr(back.out, "REGRESSION trigger_f32/dense: was PASS, now CRASH: SIGSEGV at "
                               "address 0x0 in execute [tests/harness/data/basic/cases.yaml:5]\n"),
              "%s", back.out);
    cr_expect(strstr(back.out, "nonconformant, 1 regression against"), "%s", back.out);
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
    cr_expect(strstr(now.out, "REGRESSION trigger_f32/dense: not in the baseline, now CRASH"),
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
