/*
 * junit_known.c - known failures are no JUnit failures: a result waived by
 * an expectations entry, or one that failed in the --baseline report too, is
 * <skipped message="known: ..."> with the reason and tracker (or the
 * baseline) in it, also after `merge` of shards; a regression against the
 * baseline stays a <failure> or <error>.  Runs the real build/reshape-conform
 * on broken candidates; every file validates against Jenkins' junit-10.xsd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "junit_support.h"
#include "support.h"

static const char *const failing[] = {"FAIL", "CRASH", NULL};

/* The text of `dir`/`file`, validated against junit-10.xsd. */
static char *valid_junit(const char *dir, const char *file)
{
    char *xml = rt_join(dir, file), *text = rt_read(xml, NULL);
    cr_assert_not_null(text, "no %s", xml);
    cr_expect_eq(jt_xmllint(xml, jt_jenkins_xsd(), dir), 0, "%s does not validate against %s",
                 xml, jt_jenkins_xsd());
    free(xml);
    return text;
}

Test(junit_known, a_waived_failure_is_skipped_with_its_reason_and_tracker, .timeout = 180)
{
    jt_jenkins_xsd(); /* skips the test where the schema is not there */
    char *dir = rt_workdir("junit-waived");
    char *exp = rt_join(dir, "expectations.yaml");
    static const char yaml[] =
        "expectations:\n"
        "  - id: \"openvino_example_2_*\"\n"
        "    verdict: FAIL\n"
        "    reason: \"special_zero is read as false\"\n"
        "    tracker: https://example.org/issues/7\n";
    cr_assert_eq(rt_write(exp, yaml, sizeof yaml - 1), 0);
    const char *extra[] = {"--expectations", exp, NULL};
    char *run = jt_run("junit-waived-run", "build/broken/special_zero_ignored.so", 1, extra);
    char *json = rt_join(run, "report.json"), *text = valid_junit(run, "report.xml");
    static const char *const waived[] = {"WAIVED", NULL};

    cr_assert_eq(jt_verdicts(json, waived), 2u, "example 2 dense and infer are waived");
    cr_expect_eq(rt_count(text, "<skipped type=\"WAIVED\" message=\"known: special_zero is read "
                                "as false (https://example.org/issues/7)\">"), 2u);
    cr_expect_eq(rt_count(text, "\nreason: special_zero is read as false\n"
                                "tracker: https://example.org/issues/7</skipped>"), 2u);
    cr_expect_eq(rt_count(text, "<failure "), jt_verdicts(json, failing),
                 "the failures not waived stay failures");
    free(text);
    free(json);
    free(run);
    free(exp);
    free(dir);
}

/* A run of `candidate` against the baseline `base`, shard `shard` (NULL:
 * all), its JUnit named `suite`. */
static char *against(const char *name, const char *candidate, int want_exit, const char *base,
                     const char *shard)
{
    const char *extra[] = {"--baseline", base, "--junit-suite-name", "ci",
                           shard ? "--shard" : NULL, shard, NULL};
    return jt_run(name, candidate, want_exit, extra);
}

Test(junit_known, a_failure_of_the_baseline_is_skipped_a_regression_is_not, .timeout = 180)
{
    jt_jenkins_xsd(); /* skips the test where the schema is not there */
    char *old = jt_run("junit-baseline-old", "build/broken/special_zero_ignored.so", 1, NULL);
    char *base = rt_join(old, "report.json");
    size_t known = jt_verdicts(base, failing);
    cr_assert_gt(known, 0u);

    /* the same candidate again: every failure is known, the gate passes */
    char *same = against("junit-baseline-same", "build/broken/special_zero_ignored.so", 0, base,
                         NULL);
    char *text = valid_junit(same, "report.xml");
    cr_expect_eq(rt_count(text, "<failure "), 0u, "a passing gate has no failure");
    cr_expect_eq(rt_count(text, "<error "), 0u, "a passing gate has no error");
    cr_expect_eq(rt_count(text, " message=\"known: failed in the baseline "), known);
    cr_expect_eq(rt_count(text, " failures=\"0\" errors=\"0\" "), 2u);
    free(text);

    /* another candidate: its crash where the baseline passed is an error */
    char *other = against("junit-baseline-regression", "build/broken/copies_one_long.so", 1,
                          base, NULL);
    char *json = rt_join(other, "report.json");
    text = valid_junit(other, "report.xml");
    static const char *const crash[] = {"CRASH", NULL};
    cr_assert_gt(jt_verdicts(json, crash), 0u);
    json_t *r = json_load_file(json, 0, NULL);
    size_t regressions = json_array_size(
        json_object_get(json_object_get(r, "baseline"), "regressions"));
    json_decref(r);
    cr_expect_gt(regressions, 0u);
    cr_expect_eq(rt_count(text, "<error ") + rt_count(text, "<failure "), regressions,
                 "one error or failure per regression");
    free(text);
    free(json);
    free(other);
    free(same);
    free(base);
    free(old);
}

Test(junit_known, merged_shards_keep_what_each_knew, .timeout = 180)
{
    jt_jenkins_xsd(); /* skips the test where the schema is not there */
    char *old = jt_run("junit-merge-old", "build/broken/special_zero_ignored.so", 1, NULL);
    char *base = rt_join(old, "report.json");
    char *s1 = against("junit-merge-1", "build/broken/special_zero_ignored.so", 0, base, "1/2");
    char *s2 = against("junit-merge-2", "build/broken/special_zero_ignored.so", 0, base, "2/2");
    char *dir = rt_workdir("junit-merged");
    char *j1 = rt_join(s1, "report.json"), *j2 = rt_join(s2, "report.json");
    char *out = rt_join(dir, "merged.json"), *xml = rt_join(dir, "merged.xml");
    char *argv[] = {(char *)JT_HARNESS, "merge", j1, j2, "-o", out, "--junit", xml, NULL};
    rt_result r;
    cr_assert_eq(rt_run(&r, argv, dir, 60.0), 0);
    cr_expect_eq(r.exit_code, 1, "the merged report is nonconformant (known failures)");
    rt_run_free(&r);

    char *text = valid_junit(dir, "merged.xml");
    cr_expect_eq(rt_count(text, "<failure "), 0u, "known in both shards: no failure");
    cr_expect_eq(rt_count(text, " message=\"known: failed in the baseline "),
                 jt_verdicts(base, failing));
    cr_expect_eq(rt_count(text, "<testsuite name=\"ci\" "), 1u,
                 "the shards' --junit-suite-name names the merged suite");
    free(text);
    free(xml);
    free(out);
    free(j1);
    free(j2);
    free(dir);
    free(s1);
    free(s2);
    free(base);
    free(old);
}
