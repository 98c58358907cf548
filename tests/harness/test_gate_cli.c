/*
 * test_gate_cli.c - the CI gate end to end: `merge` refuses a partial,
 * duplicated or mixed set of shards and gates the merged results like
 * `run`; `compare` gates two reports offline; a gzip'd baseline is read;
 * `expectations write` makes the next run green; a fix is reported as a
 * fix, once, with real ids, and fails the gate unless --allow-fixes;
 * report.md opens with the gate's answer; --filter takes the printed
 * ID/VARIANT and adds up.
 */
#include <zlib.h>

#include "run_harness.h"

#define SEGV "--candidate " CANDS "segfault.so --cases " BASIC " --quiet"
#define GOOD "--candidate " CANDS "good.so --cases " BASIC " --quiet"

/* Runs `fmt` (a shell command line, printf format) with the harness as
 * %1$s; returns the exit status and stdout/stderr in out/err (new). */
static int sh(char **out, char **err, const char *fmt, ...)
{
    char dir[64], cmd[4096], line[3072], path[128];
    temp_template(dir, sizeof dir, "/tmp/gate-sh-");
    cr_assert(mkdtemp(dir));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "NO_COLOR=1 %s >%s/out 2>%s/err </dev/null", line, dir, dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "'%s' did not exit", cmd);
    snprintf(path, sizeof path, "%s/out", dir);
    *out = slurp(path);
    snprintf(path, sizeof path, "%s/err", dir);
    *err = slurp(path);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
    return WEXITSTATUS(st);
}

Test(gate_cli, merge_refuses_a_partial_duplicated_or_mixed_set, .timeout = 120)
{
    run s1 = run_harness(SEGV " --shard 1/2"), s2 = run_harness(SEGV " --shard 2/2");
    run seeded = run_harness(SEGV " --shard 2/2 --seed 7 --strict-errors");
    run third = run_harness(SEGV " --shard 3/3");
    char *out, *err;
    const char *bin = harness_bin();
    int code = sh(&out, &err, "%s merge %s/r.json -o %s/m.json", bin, s1.dir, s1.dir);
    cr_expect_eq(code, 4, "a missing shard: %s", err);
    cr_expect(strstr(err, "shard 2/2 is missing\n"), "%s", err);
    cr_expect(strstr(err, "not one run's complete set of shards: nothing merged"), "%s", err);
    free(out);
    free(err);
    code = sh(&out, &err, "%s merge %s/r.json %s/r.json %s/r.json -o %s/m.json", bin, s1.dir,
              s1.dir, s2.dir, s1.dir);
    cr_expect_eq(code, 4, "a shard twice: %s", err);
    cr_expect(strstr(err, "shard 1/2 appears twice"), "%s", err);
    free(out);
    free(err);
    code = sh(&out, &err, "%s merge %s/r.json %s/r.json -o %s/m.json", bin, s1.dir, seeded.dir,
              s1.dir);
    cr_expect_eq(code, 4, "other options: %s", err);
    cr_expect(strstr(err, "ran with options.seed 7, "), "%s", err);
    cr_expect(strstr(err, "ran with options.strict_errors true, "), "%s", err);
    free(out);
    free(err);
    code = sh(&out, &err, "%s merge %s/r.json %s/r.json -o %s/m.json", bin, s1.dir, third.dir,
              s1.dir);
    cr_expect_eq(code, 4, "another split: %s", err);
    cr_expect(strstr(err, "is shard 3/3 but"), "%s", err);
    free(out);
    free(err);
    /* the complete set merges: the crash makes it nonconformant */
    code = sh(&out, &err, "%s merge %s/r.json %s/r.json -o %s/m.json", bin, s2.dir, s1.dir,
              s1.dir);
    cr_expect_eq(code, 1, "%s", err);
    cr_expect(strstr(out, "(shards 2/2+1/2)"), "%s", out);
    free(out);
    free(err);
    run_free(&s1);
    run_free(&s2);
    run_free(&seeded);
    run_free(&third);
}

Test(gate_cli, merge_gates_the_merged_results_not_the_first_shards, .timeout = 120)
{
    run old = run_harness(GOOD);
    run whole = run_harness(SEGV " --baseline %s/r.json", old.dir);
    cr_expect_eq(whole.code, 1);
    run s1 = run_harness(SEGV " --shard 1/2 --baseline %s/r.json", old.dir);
    run s2 = run_harness(SEGV " --shard 2/2 --baseline %s/r.json", old.dir);
    char *out, *err;
    int code = sh(&out, &err, "%s merge %s/r.json %s/r.json -o %s/m.json --baseline %s/r.json",
                  harness_bin(), s1.dir, s2.dir, s1.dir, old.dir);
    cr_expect_eq(code, 1, "a regression: %s %s", out, err);
    cr_expect(strstr(out, "8 regressions: CRASH: SIGSEGV at address N in execute\n"), "%s", out);
    char path[128];
    snprintf(path, sizeof path, "%s/m.json", s1.dir);
    json_error_t je;
    json_t *m = json_load_file(path, 0, &je);
    cr_assert(m, "%s", je.text);
    json_t *want = json_object_get(json_object_get(whole.report, "baseline"), "regressions");
    json_t *got = json_object_get(json_object_get(m, "baseline"), "regressions");
    cr_expect_eq(json_array_size(got), 8);
    cr_expect(json_equal(want, got), "the merged baseline object is the whole run's");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(m, "gate"), "regressions")),
                 8);
    json_decref(m);
    free(out);
    free(err);
    /* against itself, the merged run has no regression */
    code = sh(&out, &err, "%s merge %s/r.json %s/r.json -o %s/m.json --baseline %s/r.json",
              harness_bin(), s1.dir, s2.dir, s1.dir, whole.dir);
    cr_expect_eq(code, 0, "%s %s", out, err);
    cr_expect(strstr(out, "conformant with 8 known failures, no regressions against"), "%s", out);
    free(out);
    free(err);
    run_free(&old);
    run_free(&whole);
    run_free(&s1);
    run_free(&s2);
}

/* Writes `path` gzip'd to `gz`. */
static void gzip_file(const char *path, const char *gz)
{
    char *text = slurp(path);
    gzFile f = gzopen(gz, "wb9");
    cr_assert(f);
    cr_assert_eq(gzwrite(f, text, (unsigned)strlen(text)), (int)strlen(text));
    cr_assert_eq(gzclose(f), Z_OK);
    free(text);
}

Test(gate_cli, compare_gates_two_reports_and_a_baseline_may_be_gzipped, .timeout = 120)
{
    run old = run_harness(GOOD), now = run_harness(SEGV);
    char *out, *err;
    int code = sh(&out, &err, "%s compare %s/r.json %s/r.json", harness_bin(), old.dir, now.dir);
    cr_expect_eq(code, 1, "%s", err);
    cr_expect(strstr(out, "  REGRESSION trigger_f32/dense: was PASS, now CRASH: SIGSEGV"), "%s",
              out);
    cr_expect(strstr(out, "  and 3 more (the report lists them all)\n"), "capped at 5: %s", out);
    free(out);
    free(err);
    code = sh(&out, &err, "%s compare %s/r.json %s/r.json", harness_bin(), now.dir, old.dir);
    cr_expect_eq(code, 0, "the other way round, fixes only: %s", err);
    cr_expect(strstr(out, "8 fixes: was CRASH, now PASS\n"), "%s", out);
    free(out);
    free(err);
    char json[128], gz[128];
    snprintf(json, sizeof json, "%s/r.json", now.dir);
    snprintf(gz, sizeof gz, "%s/old.json.gz", now.dir);
    gzip_file(json, gz);
    run again = run_harness(SEGV " --baseline %s", gz);
    cr_expect_eq(again.code, 0, "%s %s", again.out, again.err);
    cr_expect(strstr(again.out, "conformant with 8 known failures, no regressions against"),
              "%s", again.out);
    run_free(&again);
    run_free(&old);
    run_free(&now);
}

Test(gate_cli, report_md_says_what_the_gate_said, .timeout = 120)
{
    run old = run_harness(SEGV);
    run now = run_harness(SEGV " --baseline %s/r.json --report-dir %s/rd", old.dir, old.dir);
    cr_expect_eq(now.code, 0);
    char path[128];
    snprintf(path, sizeof path, "%s/rd/report.md", old.dir);
    char *md = slurp(path);
    cr_expect(!strncmp(md, "## Reshape conformance: CONFORMANT WITH 8 KNOWN FAILURES\n", 56),
              "%.300s", md);
    cr_expect(strstr(md, "**Gate: passed** -- conformant with 8 known failures, no regressions"),
              "%.600s", md);
    cr_expect(!strstr(md, "meets every case"), "%.600s", md);
    free(md);
    snprintf(path, sizeof path, "%s/rd/report.html", old.dir);
    char *html = slurp(path);
    cr_expect(strstr(html, "<div class=\"verdict\">CONFORMANT WITH 8 KNOWN FAILURES</div>"));
    free(html);
    run_free(&now);
    run_free(&old);
}

Test(gate_cli, filter_takes_the_printed_id_variant_and_adds_up, .timeout = 60)
{
    run r = run_harness(SEGV " --filter trigger_f32/dense --filter 'ok_big_*/infer'");
    cr_expect_eq(json_array_size(json_object_get(r.report, "cases")), 3, "%s", r.err);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "SIGSEGV");
    expect_verdict(&r, "ok_big_f32", "infer", "PASS", "");
    expect_verdict(&r, "ok_big_s32", "infer", "PASS", "");
    json_t *f = json_object_get(json_object_get(r.report, "options"), "filters");
    cr_expect_eq(json_array_size(f), 2);
    run_free(&r);
    r = run_harness(SEGV " --filter trigger_f32/no_such_variant");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "unknown variant in '--filter trigger_f32/no_such_variant'"), "%s",
              r.err);
    run_free(&r);
}
