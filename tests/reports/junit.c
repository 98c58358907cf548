/*
 * junit.c - the harness's JUnit report (report.xml) is JUnit as CI systems
 * read it: it validates against tests/reports/junit.xsd with xmllint, has one
 * testcase per (case, variant) of the JSON report of the same run, and one
 * failure per result that counts against conformance.  Runs the real
 * build/reshape-conform on broken candidates so that failures and crashes
 * are in the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "support.h"

#define HARNESS "build/reshape-conform"
#define XSD "tests/reports/junit.xsd"

/* Counts the occurrences of `needle` in `text`. */
static size_t count(const char *text, const char *needle)
{
    size_t n = 0;

    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* Validates `xml` against the schema; returns xmllint's exit status. */
static int xmllint(const char *xml, const char *dir)
{
    char *argv[] = {"xmllint", "--noout", "--schema", XSD, (char *)xml, NULL};
    rt_result r;
    int code;

    cr_assert_eq(rt_run(&r, argv, dir, 60.0), 0, "cannot start xmllint");
    code = r.exit_code;
    rt_run_free(&r);
    return code;
}

/* Runs the harness on `candidate` over the hand-written OpenVINO cases,
 * writing report.json and report.xml into a fresh workdir `name`; returns the
 * workdir (the caller frees it). */
static char *run_harness(const char *candidate, const char *name)
{
    char *dir = rt_workdir(name);
    char *json = rt_join(dir, "report.json"), *xml = rt_join(dir, "report.xml");
    char *argv[] = {HARNESS, "--candidate", (char *)candidate,
                    "--cases", "cases/openvino_reshape_1.yaml",
                    "--variants", "dense,infer,strided_dst", "--quiet",
                    "--timeout-ms", "3000", "--json", json, "--junit", xml, NULL};
    rt_result r;

    cr_assert_eq(rt_run(&r, argv, dir, 120.0), 0, "cannot start %s", HARNESS);
    cr_assert_eq(r.exit_code, 1, "the harness should find %s nonconformant "
                 "(exit %d); see %s", candidate, r.exit_code, dir);
    rt_run_free(&r);
    free(json);
    free(xml);
    return dir;
}

/* The number of results in the JSON report that count against conformance. */
static size_t failing(const char *json_path)
{
    json_error_t err;
    json_t *report = json_load_file(json_path, 0, &err), *entry;
    size_t i, n = 0;

    cr_assert_not_null(report, "%s: %s", json_path, err.text);
    json_array_foreach(json_object_get(report, "cases"), i, entry) {
        const char *v = json_string_value(json_object_get(entry, "verdict"));

        n += strcmp(v, "PASS") != 0 && strcmp(v, "NOT_SUPPORTED") != 0 &&
             strcmp(v, "WAIVED") != 0;
    }
    json_decref(report);
    return n;
}

static size_t json_total(const char *json_path)
{
    json_t *report = json_load_file(json_path, 0, NULL);
    size_t total;

    cr_assert_not_null(report, "cannot read %s", json_path);
    total = (size_t)json_integer_value(
        json_object_get(json_object_get(report, "summary"), "total"));
    json_decref(report);
    return total;
}

static void check_candidate(const char *candidate, const char *name)
{
    char *dir = run_harness(candidate, name);
    char *json = rt_join(dir, "report.json"), *xml = rt_join(dir, "report.xml");
    char *text = rt_read(xml, NULL);

    cr_assert_not_null(text, "no %s", xml);
    cr_expect_eq(xmllint(xml, dir), 0, "%s does not validate against %s",
                 xml, XSD);
    cr_expect_eq(count(text, "<testcase "), json_total(json),
                 "one testcase per (case, variant) of the JSON report");
    cr_expect_gt(failing(json), 0u, "the run should have failures");
    cr_expect_eq(count(text, "<failure "), failing(json),
                 "one failure per result against conformance");
    free(text);
    free(json);
    free(xml);
    free(dir);
}

Test(junit, failures_validate_as_junit, .timeout = 180)
{
    check_candidate("build/broken/special_zero_ignored.so", "junit-fail");
}

Test(junit, crashes_validate_as_junit, .timeout = 180)
{
    check_candidate("build/broken/segfault_on_shape.so", "junit-crash");
}

/* The control: the schema check can fail.  A testcase without its required
 * classname must not validate. */
Test(junit, schema_rejects_a_testcase_without_classname, .timeout = 60)
{
    char *dir = rt_workdir("junit-control");
    char *xml = rt_join(dir, "bad.xml");
    static const char bad[] =
        "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"s\" tests=\"1\">"
        "<testcase name=\"c\"/></testsuite></testsuites>\n";

    cr_assert_eq(rt_write(xml, bad, sizeof bad - 1), 0);
    cr_expect_neq(xmllint(xml, dir), 0, "xmllint accepted a testcase with no "
                  "classname");
    free(xml);
    free(dir);
}
