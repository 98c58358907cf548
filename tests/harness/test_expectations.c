/*
 * test_expectations.c - the expectations (waiver) file: parsing and its
 * error positions, how a matching result is judged, which entries are
 * stale, the rewrite that keeps comments, and the CLI end to end
 * (--expectations, --update-expectations, the report's waiver object).
 */
#include <fcntl.h>

#include "judge/judge.h"
#include "run_harness.h"

/* Parses `text`; returns the number of problems, their lines in *errs
 * (caller frees). */
static int parse(expectations *x, const char *text, char **errs)
{
    strbuf b;
    sb_init(&b);
    memset(x, 0, sizeof *x);
    int n = expectations_parse(x, "w.yaml", text, strlen(text), &b);
    *errs = sb_take(&b);
    return n;
}

/* Asserts that `text` has exactly one problem, reported as `line`. */
static void expect_problem(const char *text, const char *line)
{
    expectations x;
    char *errs;
    int n = parse(&x, text, &errs);
    cr_expect_eq(n, 1, "%d problems: %s", n, errs);
    cr_expect_str_eq(errs, line);
    expectations_free(&x);
    free(errs);
}

/* A temporary file holding `text`; its path in buf. */
static void temp_file(char *buf, size_t size, const char *text)
{
    temp_template(buf, size, "/tmp/harness-exp-");
    int fd = mkstemp(buf);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static result make_result(variant v, verdict vd, const char *detail)
{
    return (result){0, v, vd, strdup(detail), NULL, -1};
}

Test(expectations, parses_every_field)
{
    expectations x;
    char *errs;
    int n = parse(&x,
                  "# header\n"
                  "expectations:\n"
                  "  - id: 'onnx_*/strided_*'\n"
                  "    verdict: FAIL\n"
                  "    reason: strided bf16 stores\n"
                  "    tracker: https://example.org/issues/12\n"
                  "  - {id: trigger_f32, verdict: any, reason: crashes}\n",
                  &errs);
    cr_assert_eq(n, 0, "%s", errs);
    cr_assert_eq(x.n, 2);
    cr_expect_str_eq(x.v[0].pattern, "onnx_*/strided_*");
    cr_expect_str_eq(x.v[0].id_glob, "onnx_*");
    cr_expect_str_eq(x.v[0].variant_glob, "strided_*");
    cr_expect_eq(x.v[0].verdict, VD_FAIL);
    cr_expect_str_eq(x.v[0].reason, "strided bf16 stores");
    cr_expect_str_eq(x.v[0].tracker, "https://example.org/issues/12");
    cr_expect_eq(x.v[0].line, 3);
    cr_expect_eq(x.v[0].column, 5);
    cr_expect_null(x.v[1].variant_glob);
    cr_expect_eq(x.v[1].verdict, EXPECT_ANY_VERDICT);
    cr_expect_null(x.v[1].tracker);
    expectations_free(&x);
    free(errs);
}

Test(expectations, an_empty_list_is_no_entry)
{
    expectations x;
    char *errs;
    cr_expect_eq(parse(&x, "expectations:\n# every entry was removed\n", &errs), 0, "%s", errs);
    cr_expect_eq(x.n, 0);
    expectations_free(&x);
    free(errs);
    cr_expect_eq(parse(&x, "expectations: []\n", &errs), 0, "%s", errs);
    cr_expect_eq(x.n, 0);
    expectations_free(&x);
    free(errs);
}

Test(expectations, malformed_entries_name_file_line_column)
{
    expect_problem("expectations:\n  - id: a\n    verdict: FAIL\n",
                   "w.yaml:2:5: missing required key 'reason' in an expectation\n");
    expect_problem("expectations:\n  - id: a\n    verdict: FAIL\n    reason: r\n    bug: 1\n",
                   "w.yaml:5:5: unknown key 'bug' in an expectation (id, verdict, reason, tracker)\n");
    expect_problem("expectations:\n  - id: a\n    verdict: PASS\n    reason: r\n",
                   "w.yaml:3:14: 'verdict' must be one that counts against conformance (FAIL, "
                   "ACCEPTED_INVALID, CRASH, TIMEOUT, MEMORY_VIOLATION, LEAK, FLOOD) or any, "
                   "not 'PASS'\n");
    expect_problem("expectations:\n  - id: a/sideways\n    verdict: FAIL\n    reason: r\n",
                   "w.yaml:2:9: variant 'sideways' in 'a/sideways' matches no variant\n");
    expect_problem("expectations:\n  - id: a\n    verdict: FAIL\n    reason: '  '\n",
                   "w.yaml:4:13: 'reason' must say why the case is expected to fail\n");
    expect_problem("expectations:\n  - id: a\n    verdict: FAIL\n    reason: r\n    tracker: bug 12\n",
                   "w.yaml:5:14: 'tracker' must be a URL, not 'bug 12'\n");
    expect_problem("expectations:\n  - id: a\n    verdict: [FAIL]\n    reason: r\n",
                   "w.yaml:3:14: 'verdict' must be a string\n");
    expect_problem("expectations:\n  - id: a\n    id: b\n    verdict: FAIL\n    reason: r\n",
                   "w.yaml:3:5: key 'id' appears twice in an expectation\n");
    expect_problem("expectations: {id: a}\n",
                   "w.yaml:1:15: 'expectations' must be a list of entries\n");
    expect_problem("expectations: []\nwaivers: []\n",
                   "w.yaml:2:1: unknown key 'waivers' in an expectations file (only 'expectations')\n");
    expect_problem("", "w.yaml:1:1: empty expectations file: no 'expectations' list\n");
    expect_problem("expectations:\n  - id: [a\n",
                   "w.yaml:3:1: invalid yaml: did not find expected ',' or ']' while parsing a "
                   "flow sequence\n");
}

Test(expectations, the_valid_entries_stay_beside_bad_ones)
{
    expectations x;
    char *errs;
    int n = parse(&x,
                  "expectations:\n"
                  "  - {id: a, verdict: FAIL}\n"
                  "  - {id: b, verdict: CRASH, reason: r}\n",
                  &errs);
    cr_expect_eq(n, 1, "%s", errs);
    cr_assert_eq(x.n, 1);
    cr_expect_str_eq(x.v[0].pattern, "b");
    expectations_free(&x);
    free(errs);
}

Test(expectations, a_matching_result_is_judged_against_the_entry)
{
    expectations x;
    char *errs;
    cr_assert_eq(parse(&x,
                       "expectations:\n"
                       "  - {id: 'trig*/dense', verdict: CRASH, reason: known}\n"
                       "  - {id: 'trig*', verdict: FAIL, reason: other}\n"
                       "  - {id: 'any_*', verdict: any, reason: anything}\n",
                       &errs), 0, "%s", errs);
    result r = make_result(V_DENSE, VD_CRASH, "SIGSEGV");
    const expectation *e = expectations_apply(&x, "trigger", &r);
    cr_expect_eq(e, &x.v[0], "the first matching entry wins");
    cr_expect_eq(r.vd, VD_WAIVED);
    cr_expect_str_eq(r.detail, "waived CRASH: SIGSEGV");
    free(r.detail);

    r = make_result(V_IN_PLACE, VD_CRASH, "SIGSEGV");
    e = expectations_apply(&x, "trigger", &r);
    cr_expect_eq(e, &x.v[1]);
    cr_expect_eq(r.vd, VD_CRASH, "another bad verdict stays");
    cr_expect_str_eq(r.detail, "SIGSEGV (expectation 'trig*' expects FAIL)");
    free(r.detail);

    r = make_result(V_INFER, VD_PASS, "");
    e = expectations_apply(&x, "trigger", &r);
    cr_expect_eq(r.vd, VD_UNEXPECTED_PASS);
    cr_expect(strstr(r.detail, "expects FAIL: remove the entry"), "%s", r.detail);
    free(r.detail);

    r = make_result(V_DENSE, VD_NOT_SUPPORTED, "bf16");
    e = expectations_apply(&x, "any_case", &r);
    cr_expect_eq(e, &x.v[2]);
    cr_expect_eq(r.vd, VD_NOT_SUPPORTED, "a skip is left alone");
    free(r.detail);

    r = make_result(V_DENSE, VD_LEAK, "12 bytes per call");
    cr_expect_eq(expectations_apply(&x, "any_case", &r), &x.v[2]);
    cr_expect_eq(r.vd, VD_WAIVED, "'any' waives every failing verdict");
    free(r.detail);

    r = make_result(V_DENSE, VD_FAIL, "wrong");
    cr_expect_null(expectations_apply(&x, "unrelated", &r));
    cr_expect_eq(r.vd, VD_FAIL);
    cr_expect_str_eq(r.detail, "wrong");
    free(r.detail);

    cr_expect_eq(x.v[0].waived, 1);
    cr_expect_eq(x.v[1].other, 1);
    cr_expect_eq(x.v[1].unexpected_passes, 1);
    cr_expect_not(expectation_is_stale(&x.v[1]), "it still matched a failure");
    cr_expect_not(expectation_is_stale(&x.v[2]));
    expectations_free(&x);
    free(errs);
}

Test(expectations, update_drops_stale_entries_and_keeps_comments)
{
    const char *text = "# deviations of libfoo\n"
                       "expectations:\n"
                       "  # still crashes\n"
                       "  - id: trigger\n"
                       "    verdict: CRASH\n"
                       "    reason: known\n"
                       "\n"
                       "  # fixed in 2.1, this comment goes with it\n"
                       "  - id: fixed_*\n"
                       "    verdict: FAIL\n"
                       "    reason: |\n"
                       "      two lines\n"
                       "      of reason\n"
                       "  - id: skipped\n"
                       "    verdict: FAIL\n"
                       "    reason: not supported, never stale\n"
                       "# the end\n";
    char path[64];
    temp_file(path, sizeof path, text);
    expectations x;
    strbuf errs;
    sb_init(&errs);
    cr_assert_eq(expectations_load(&x, path, &errs), 0, "%s", errs.s);
    result res[4] = {make_result(V_DENSE, VD_CRASH, "SIGSEGV"), make_result(V_DENSE, VD_PASS, ""),
                     make_result(V_INFER, VD_PASS, ""),
                     make_result(V_DENSE, VD_NOT_SUPPORTED, "no")};
    const char *ids[4] = {"trigger", "fixed_a", "fixed_b", "skipped"};
    const expectation *w[4];
    for (int i = 0; i < 4; i++)
        w[i] = expectations_apply(&x, ids[i], &res[i]);
    cr_expect_eq(res[1].vd, VD_UNEXPECTED_PASS);
    char *err = NULL;
    cr_assert_eq(expectations_update(&x, res, w, 4, &err), 1, "%s", err ? err : "");
    cr_expect_eq(res[1].vd, VD_PASS, "judged as the rewritten file judges");
    cr_expect_eq(res[2].vd, VD_PASS);
    cr_expect_str_eq(res[1].detail, "");
    cr_expect_null(w[1]);
    cr_expect_eq(res[0].vd, VD_WAIVED);
    cr_expect_not_null(w[0]);
    char *now = slurp(path);
    cr_expect_str_eq(now, "# deviations of libfoo\n"
                          "expectations:\n"
                          "  # still crashes\n"
                          "  - id: trigger\n"
                          "    verdict: CRASH\n"
                          "    reason: known\n"
                          "\n"
                          "  - id: skipped\n"
                          "    verdict: FAIL\n"
                          "    reason: not supported, never stale\n"
                          "# the end\n");
    free(now);
    for (int i = 0; i < 4; i++)
        free(res[i].detail);
    expectations_free(&x);
    free(errs.s);
    unlink(path);
}

Test(expectations, update_refuses_a_flow_list_and_leaves_the_file)
{
    const char *text = "expectations: [{id: a, verdict: FAIL, reason: r}]\n";
    char path[64];
    temp_file(path, sizeof path, text);
    expectations x;
    strbuf errs;
    sb_init(&errs);
    cr_assert_eq(expectations_load(&x, path, &errs), 0, "%s", errs.s);
    result r = make_result(V_DENSE, VD_PASS, "");
    const expectation *w = expectations_apply(&x, "a", &r);
    char *err = NULL;
    cr_expect_eq(expectations_update(&x, &r, &w, 1, &err), -1);
    cr_expect(err && strstr(err, "write it as a block list"), "%s", err ? err : "(none)");
    char *now = slurp(path);
    cr_expect_str_eq(now, text);
    free(now);
    free(err);
    free(r.detail);
    expectations_free(&x);
    free(errs.s);
    unlink(path);
}

Test(expectations_cli, waive_and_shout)
{
    char path[64];
    temp_file(path, sizeof path,
              "# known deviations\n"
              "expectations:\n"
              "  - id: trigger_f32/dense\n"
              "    verdict: CRASH\n"
              "    reason: crashes on purpose\n"
              "    tracker: https://example.org/issues/1\n"
              "  - id: ok_big_f32\n"
              "    verdict: FAIL\n"
              "    reason: said to fail, but passes\n"
              "  - id: no_such_case_*\n"
              "    verdict: any\n"
              "    reason: matches nothing\n");
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                        " --quiet --variants dense --expectations %s", path);
    expect_verdict(&r, "trigger_f32", "dense", "WAIVED", "waived CRASH: SIGSEGV");
    expect_verdict(&r, "ok_big_f32", "dense", "UNEXPECTED_PASS", "remove the entry");
    cr_expect_eq(r.code, 1, "an unexpected pass counts against conformance");
    json_t *w = json_object_get(entry(&r, "trigger_f32", "dense"), "waiver");
    cr_expect_str_eq(field(w, "pattern"), "trigger_f32/dense");
    cr_expect_str_eq(field(w, "verdict"), "CRASH");
    cr_expect_str_eq(field(w, "reason"), "crashes on purpose");
    cr_expect_str_eq(field(w, "tracker"), "https://example.org/issues/1");
    cr_expect(json_is_null(json_object_get(entry(&r, "ok_big_s32", "dense"), "waiver")));
    cr_expect(json_is_null(json_object_get(
        json_object_get(entry(&r, "ok_big_f32", "dense"), "waiver"), "tracker")));
    char want[400];
    snprintf(want, sizeof want,
             "reshape-conform: warning: expectation 'no_such_case_*' matches no case %s:10:5\n",
             path);
    cr_expect(strstr(r.err, want), "stderr: %s", r.err);
    cr_expect(strstr(r.out, "1 WAIVED, 1 UNEXPECTED_PASS"), "%s", r.out);
    run_free(&r);
    unlink(path);
}

Test(expectations_cli, a_waived_failure_is_conformant)
{
    char path[64];
    temp_file(path, sizeof path,
              "expectations:\n  - {id: trigger_f32, verdict: CRASH, reason: known}\n");
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                        " --quiet --variants dense,in_place --expectations %s", path);
    cr_expect_eq(r.code, 0, "stdout: %s", r.out);
    expect_verdict(&r, "trigger_f32", "in_place", "WAIVED", "");
    run_free(&r);
    unlink(path);
}

Test(expectations_cli, malformed_file_exits_2_before_running)
{
    char path[64];
    temp_file(path, sizeof path, "expectations:\n  - id: trigger_f32\n    verdict: CRASH\n");
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC " --expectations %s", path);
    cr_expect_eq(r.code, 2);
    char want[400];
    snprintf(want, sizeof want,
             "%s:2:5: missing required key 'reason' in an expectation\n"
             "reshape-conform: invalid expectations file '%s'\n", path, path);
    cr_expect_str_eq(r.err, want);
    cr_expect_null(r.report, "nothing ran");
    run_free(&r);
    unlink(path);
    r = run_harness("--cases " BASIC " --update-expectations");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "'--update-expectations' needs '--expectations FILE'"), "%s", r.err);
    run_free(&r);
}

Test(expectations_cli, update_rewrites_the_file_and_judges_by_it)
{
    char path[64];
    temp_file(path, sizeof path,
              "expectations:\n"
              "  # crashes in every variant that executes\n"
              "  - id: trigger_f32/[!i]*\n"
              "    verdict: CRASH\n"
              "    reason: known\n"
              "  - id: trigger_f32/in_place\n"
              "    verdict: CRASH\n"
              "    reason: known too\n"
              "  # passes since the fix\n"
              "  - id: ok_big_*\n"
              "    verdict: FAIL\n"
              "    reason: was broken\n");
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                        " --quiet --expectations %s --update-expectations", path);
    cr_expect_eq(r.code, 0, "stdout: %s", r.out);
    expect_verdict(&r, "trigger_f32", "strided_dst", "WAIVED", "SIGSEGV");
    char want[400];
    snprintf(want, sizeof want, "expectations: removed 'ok_big_*' (%s:10): its 22 results pass now\n",
             path);
    cr_expect(strstr(r.out, want), "stdout: %s", r.out);
    expect_verdict(&r, "ok_big_f32", "dense", "PASS", "");
    cr_expect(json_is_null(json_object_get(entry(&r, "ok_big_f32", "dense"), "waiver")));
    run_free(&r);
    char *now = slurp(path);
    cr_expect_str_eq(now, "expectations:\n  # crashes in every variant that executes\n"
                          "  - id: trigger_f32/[!i]*\n    verdict: CRASH\n    reason: known\n"
                          "  - id: trigger_f32/in_place\n    verdict: CRASH\n    reason: known too\n");
    free(now);
    /* the filtered run cannot tell whether an entry still fails elsewhere */
    r = run_harness("--candidate " CANDS "good.so --cases " BASIC
                    " --filter 'ok_*' --expectations %s --update-expectations", path);
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "needs every case and variant"), "%s", r.err);
    run_free(&r);
    unlink(path);
}

Test(expectations, exact_and_glob_entries_judge_in_file_order)
{
    /* exact entries are looked up, globs scanned: the first in file order
     * still wins, whichever kind it is */
    expectations x;
    char *errs = NULL;
    cr_assert_eq(parse(&x, "expectations:\n"
                           "  - {id: \"ab*\", verdict: FAIL, reason: glob first}\n"
                           "  - {id: abc/dense, verdict: CRASH, reason: exact second}\n"
                           "  - {id: abd, verdict: CRASH, reason: exact first}\n"
                           "  - {id: \"ab?\", verdict: CRASH, reason: glob second}\n"
                           "  - {id: abc/dense, verdict: CRASH, reason: never}\n", &errs), 0,
                 "%s", errs);
    free(errs);
    result r = make_result(V_DENSE, VD_CRASH, "SIGSEGV");
    cr_expect_eq(expectations_apply(&x, "abc", &r), &x.v[0]);
    cr_expect_eq(r.vd, VD_CRASH, "the first entry expects FAIL");
    free(r.detail);
    r = make_result(V_DENSE, VD_CRASH, "SIGSEGV");
    cr_expect_eq(expectations_apply(&x, "abd", &r), &x.v[0]);
    free(r.detail);
    r = make_result(V_DENSE, VD_CRASH, "SIGSEGV");
    cr_expect_eq(expectations_apply(&x, "xbc", &r), NULL);
    free(r.detail);
    expectations_free(&x);
    cr_assert_eq(parse(&x, "expectations:\n"
                           "  - {id: abd, verdict: CRASH, reason: exact first}\n"
                           "  - {id: abc/dense, verdict: CRASH, reason: exact second}\n"
                           "  - {id: \"ab*\", verdict: FAIL, reason: glob}\n", &errs), 0,
                 "%s", errs);
    free(errs);
    r = make_result(V_INFER, VD_CRASH, "SIGSEGV");
    cr_expect_eq(expectations_apply(&x, "abd", &r), &x.v[0]);
    cr_expect_eq(r.vd, VD_WAIVED);
    free(r.detail);
    r = make_result(V_DENSE, VD_CRASH, "SIGSEGV");
    cr_expect_eq(expectations_apply(&x, "abc", &r), &x.v[1]);
    free(r.detail);
    r = make_result(V_INFER, VD_CRASH, "SIGSEGV");
    cr_expect_eq(expectations_apply(&x, "abc", &r), &x.v[2], "abc/dense is not abc/infer");
    free(r.detail);
    expectations_free(&x);
}
