/*
 * test_cli.c - the command line by transcript (command, expected lines,
 * regular expressions for the moving parts), the exit codes 0/1/2/3, and
 * the subcommands list and merge.
 */
#include <regex.h>

#include "run_harness.h"

/* Asserts that line `n` (from 0) of `text` matches the extended regex. */
static void expect_line(const char *text, int n, const char *pattern)
{
    const char *p = text;
    for (int i = 0; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    cr_assert(p && *p, "no line %d in:\n%s", n, text);
    size_t len = strcspn(p, "\n");
    char *line = strndup(p, len);
    regex_t re;
    cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0, "bad regex %s", pattern);
    cr_expect_eq(regexec(&re, line, 0, NULL, 0), 0, "line %d '%s' does not match /%s/", n, line,
                 pattern);
    regfree(&re);
    free(line);
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

Test(cli, transcript_of_a_conformant_run)
{
    run r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --jobs 1 --quiet");
    cr_expect_eq(r.code, 0);
    cr_expect_eq(count_lines(r.out), 1, "stdout:\n%s", r.out);
    expect_line(r.out, 0, "^conformant: 65 runs of 8 cases in [0-9]+\\.[0-9]{2} s \\([0-9]+/s\\): 65 PASS$");
    /* nothing on stderr but the sandbox layers this machine lacks, which
     * are said on every run (test_sandbox_layers.c) */
    char *rest = r.err;
    static const char layer[] = "reshape-conform: warning: sandbox: ";
    while (!strncmp(rest, layer, sizeof layer - 1) && strchr(rest, '\n'))
        rest = strchr(rest, '\n') + 1;
    cr_expect_str_eq(rest, "", "stderr:\n%s", r.err);
    run_free(&r);
}

Test(cli, transcript_of_a_crashing_run_is_one_finding)
{
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                        " --jobs 1 --quiet --variants dense,in_place,infer");
    cr_expect_eq(r.code, 1);
    cr_expect_eq(count_lines(r.out), 3, "stdout:\n%s", r.out);
    expect_line(r.out, 0, "^CRASH: SIGSEGV at address N in execute -- 2 runs of 1 case; "
                          "ops openvino; variants dense,in_place; dtypes f32; "
                          "e\\.g\\. trigger_f32/dense: expected shape \\[4,6\\], got crash "
                          "\\(SIGSEGV at address 0x0 in execute\\)$");
    /* the clause it checks, and the command that reruns exactly it */
    expect_line(r.out, 1, "^    clause [^;]+; rerun: reshape-conform --candidate "
                          "build/tests/harness_cands/segfault\\.so --cases "
                          "tests/harness/data/basic/cases\\.yaml --filter trigger_f32/dense "
                          "--verbose$");
    expect_line(r.out, 2, "^nonconformant: [0-9]+ runs of 8 cases in [0-9.]+ s \\([0-9]+/s\\): "
                          "[0-9]+ PASS, 2 CRASH$");
    json_t *f = json_object_get(r.report, "findings");
    cr_assert_eq(json_array_size(f), 1);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(f, 0), "signature")),
                     "CRASH: SIGSEGV at address N in execute");
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(f, 0), "runs")), 2);
    run_free(&r);
}

Test(cli, verbose_transcript_of_a_crashing_run_prints_every_run)
{
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                        " --jobs 1 --quiet --verbose --variants dense,in_place,infer");
    cr_expect_eq(r.code, 1);
    cr_expect_eq(count_lines(r.out), 5, "stdout:\n%s", r.out);
    expect_line(r.out, 0, "^CRASH trigger_f32/dense: SIGSEGV at address 0x0 in execute "
                          "\\[tests/harness/data/basic/cases.yaml:5\\]$");
    expect_line(r.out, 1, "^CRASH trigger_f32/in_place: SIGSEGV at address 0x0 in execute ");
    expect_line(r.out, 2, "^CRASH: SIGSEGV at address N in execute -- 2 runs of 1 case; ");
    expect_line(r.out, 4, "^nonconformant: [0-9]+ runs of 8 cases in [0-9.]+ s \\([0-9]+/s\\): "
                          "[0-9]+ PASS, 2 CRASH$");
    run_free(&r);
}

Test(cli, malformed_file_reports_position_runs_the_rest_and_exits_2)
{
    run r = run_harness("--candidate " CANDS "good.so --cases tests/harness/data/malformed --quiet");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "tests/harness/data/malformed/bad.yaml:9:5: unknown key 'expext' in a case\n"
                            "tests/harness/data/malformed/bad.yaml:2:5: missing required key 'expect' in a case\n"),
              "stderr: %s", r.err);
    expect_verdict(&r, "still_runs", "dense", "PASS", "");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(r.report, "suite"), "load_errors")), 2);
    json_t *le = json_array_get(json_object_get(r.report, "load_errors"), 0);
    cr_expect_eq(json_integer_value(json_object_get(le, "line")), 9);
    cr_expect_eq(json_integer_value(json_object_get(le, "column")), 5);
    expect_line(r.out, 0, "^conformant: 10 runs of 1 cases in .*: 10 PASS; 2 load errors$");
    run_free(&r);
}

Test(cli, load_errors_outrank_nonconformance)
{
    run r = run_harness("--candidate " CANDS "segfault.so --cases tests/harness/data/malformed "
                        "--cases " BASIC " --quiet");
    cr_expect_eq(r.code, 2);
    run_free(&r);
}

Test(cli, bad_usage_exits_2)
{
    run r = run_harness("--no-such-option");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "reshape-conform: unknown option '--no-such-option'"), "%s", r.err);
    run_free(&r);
    r = run_harness("--variants dense,sideways");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "unknown variant 'sideways'"), "%s", r.err);
    run_free(&r);
    r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --filter 'nothing_*'");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "no case to run"), "%s", r.err);
    run_free(&r);
}

Test(cli, missing_candidate_exits_3)
{
    run r = run_harness("--candidate " CANDS "missing.so --cases " BASIC);
    cr_expect_eq(r.code, 3);
    cr_expect(strstr(r.err, "cannot read candidate '" CANDS "missing.so'"), "%s", r.err);
    cr_expect_null(r.report);
    run_free(&r);
}

Test(cli, abi_mismatch_is_the_candidates_fault)
{
    run r = run_harness("--candidate " CANDS "abi_mismatch.so --cases " BASIC);
    cr_expect_eq(r.code, 1);
    cr_expect(strstr(r.err, "has abi_version 2, this harness speaks 1"), "%s", r.err);
    cr_expect_not_null(r.report, "a finished report");
    run_free(&r);
}

Test(cli, a_table_of_the_first_v1_size_loads_and_passes)
{
    run r = run_harness("--candidate " CANDS "v1_table.so --cases " BASIC);
    cr_expect_eq(r.code, 0, "%s", r.err);
    run_free(&r);
}

Test(cli, a_table_smaller_than_v1_is_refused)
{
    run r = run_harness("--candidate " CANDS "short_table.so --cases " BASIC);
    cr_expect_eq(r.code, 1);
    cr_expect(strstr(r.err, "has struct_size"), "%s", r.err);
    run_free(&r);
}

Test(cli, list_prints_selected_ids)
{
    run r = run_harness("list --cases " BASIC " --filter 'ok_*' --tag dtype");
    cr_expect_eq(r.code, 0);
    cr_expect_eq(count_lines(r.out), 1, "%s", r.out);
    expect_line(r.out, 0, "^ok_u4_padding openvino_reshape_1 tests/harness/data/basic/cases.yaml:23$");
    run_free(&r);
}

Test(cli, shards_partition_and_merge_back)
{
    run a = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet --shard 1/2");
    run b = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet --shard 2/2");
    run all = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet");
    cr_assert(a.report && b.report && all.report);
    json_int_t na = json_array_size(json_object_get(a.report, "cases"));
    json_int_t nb = json_array_size(json_object_get(b.report, "cases"));
    cr_expect_gt(na, 0);
    cr_expect_gt(nb, 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s merge %s/r.json %s/r.json -o %s/m.json --junit %s/m.xml >/dev/null",
             harness_bin(), a.dir, b.dir, a.dir, a.dir);
    int st = system(cmd);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", cmd);
    char path[128];
    snprintf(path, sizeof path, "%s/m.json", a.dir);
    json_error_t je;
    json_t *m = json_load_file(path, 0, &je);
    cr_assert(m, "%s", je.text);
    json_t *ms = json_object_get(m, "summary"), *as = json_object_get(all.report, "summary");
    cr_expect_eq(json_integer_value(json_object_get(ms, "total")),
                 json_integer_value(json_object_get(as, "total")));
    cr_expect_eq(json_integer_value(json_object_get(ms, "PASS")),
                 json_integer_value(json_object_get(as, "PASS")));
    cr_expect_str_eq(field(m, "verdict"), "conformant");
    cr_expect(json_is_object(json_object_get(a.report, "slots")));
    cr_expect_null(json_object_get(m, "slots"), "a shard's slots in the merged report");
    /* same entries in the same order as the unsharded run */
    json_t *mc = json_object_get(m, "cases"), *ac = json_object_get(all.report, "cases");
    cr_assert_eq(json_array_size(mc), json_array_size(ac));
    for (size_t i = 0; i < json_array_size(mc); i++) {
        cr_expect_str_eq(field(json_array_get(mc, i), "id"), field(json_array_get(ac, i), "id"));
        cr_expect_str_eq(field(json_array_get(mc, i), "variant"),
                         field(json_array_get(ac, i), "variant"));
    }
    json_decref(m);
    /* a shard twice is refused (test_gate_cli.c has the rest) */
    snprintf(cmd, sizeof cmd, "%s merge %s/r.json %s/r.json -o %s/n.json 2>/dev/null",
             harness_bin(), a.dir, a.dir, a.dir);
    st = system(cmd);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 4);
    run_free(&a);
    run_free(&b);
    run_free(&all);
}

Test(cli, junit_has_one_testcase_per_entry)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/harness-junit-%d.xml", (int)getpid());
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC
                        " --quiet --variants dense --junit %s", path);
    cr_expect_eq(r.code, 1);
    char *xml = slurp(path);
    unlink(path);
    cr_expect(strstr(xml, "<testcase classname=\"openvino_reshape_1\" name=\"trigger_f32/dense\""),
              "%s", xml);
    /* a crash is the candidate not answering: an error, not a failure */
    cr_expect(strstr(xml, "<error type=\"CRASH\" message=\"CRASH: SIGSEGV at address 0x0"),
              "%s", xml);
    cr_expect(strstr(xml, "tests=\"8\" failures=\"0\" errors=\"1\""), "%s", xml);
    free(xml);
    run_free(&r);
}

Test(cli, report_schema_fields)
{
    run r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet --strict-errors");
    cr_assert(r.report);
    cr_expect_eq(json_integer_value(json_object_get(r.report, "schema_version")), 1);
    json_t *cand = json_object_get(r.report, "candidate");
    cr_expect_str_eq(field(cand, "name"), "harness-test");
    cr_expect_eq(strlen(field(cand, "sha256")), 64);
    cr_expect_eq(strlen(field(json_object_get(r.report, "suite"), "cases_sha256")), 64);
    cr_expect(json_is_true(json_object_get(json_object_get(r.report, "options"), "strict_errors")));
    json_t *m = json_object_get(r.report, "matrices");
    cr_expect_gt(json_array_size(json_object_get(m, "op_clause")), 0);
    cr_expect_gt(json_array_size(json_object_get(m, "op_dtype")), 0);
    cr_expect_gt(json_array_size(json_object_get(m, "tag")), 0);
    json_t *sa = json_object_get(r.report, "status_agreement");
    /* two error cases in dense and infer, six dst_too_small refusals */
    cr_expect_eq(json_integer_value(json_object_get(sa, "agree")), 10);
    cr_expect_eq(json_integer_value(json_object_get(sa, "disagree")), 0);
    run_free(&r);
}

/* Regression: the report's `expected` is what the variant holds the case
 * to: for dst_too_small on an any_of case, INVALID_ARGUMENT and the case's
 * own error; JUnit's failure text says the same. */
Test(cli, expected_names_every_outcome_a_variant_accepts)
{
    run r = run_harness("--candidate " CANDS "accept_short_dst.so --cases tests/harness/data/open"
                        " --quiet --junit /dev/stdout");
    cr_expect_eq(r.code, 1, "exit %d: %s %s", r.code, r.out, r.err);
    expect_verdict(&r, "open_rank_0_shape", "dst_too_small", "FAIL", "accepted a dst one element short");
    const char *want = "any of: error INVALID_ARGUMENT (dst one element short), error SHAPE_NOT_1D";
    cr_expect_str_eq(field(entry(&r, "open_rank_0_shape", "dst_too_small"), "expected"), want);
    cr_expect_str_eq(field(entry(&r, "open_rank_0_shape", "dense"), "expected"),
                     "any of: error SHAPE_NOT_1D, shape [6]");
    cr_expect(strstr(r.out, "expected: any of: error INVALID_ARGUMENT (dst one element short), "
                            "error SHAPE_NOT_1D\ngot: shape [5]"), "%s", r.out);
    run_free(&r);
}
