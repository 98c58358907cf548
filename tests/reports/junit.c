/*
 * junit.c - the harness's JUnit report (report.xml) is JUnit as CI systems
 * read it: it validates against tests/reports/junit.xsd and against Jenkins'
 * junit-10.xsd (JUNIT_XSD) with xmllint, has one testcase per (case,
 * variant) of the JSON report of the same run, one <error> per result the
 * candidate did not answer (CRASH, TIMEOUT) and one <failure> per other
 * result against conformance, names its case files as they are in the
 * repository, and names its suite without the candidate's version.  Runs the
 * real build/reshape-conform on broken candidates so that failures and
 * crashes are in the file.  junit_known.c has the waived and baselined
 * results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "junit_support.h"
#include "support.h"

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

static const char *const no_answer[] = {"CRASH", "TIMEOUT", NULL};
static const char *const wrong_answer[] = {"FAIL", "ACCEPTED_INVALID", "MEMORY_VIOLATION", "LEAK",
                                           "FLOOD", "UNEXPECTED_PASS", NULL};

static void check_candidate(const char *candidate, const char *name)
{
    const char *jenkins = jt_jenkins_xsd();
    char *dir = jt_run(name, candidate, 1, NULL);
    char *json = rt_join(dir, "report.json"), *xml = rt_join(dir, "report.xml");
    char *text = rt_read(xml, NULL);

    cr_assert_not_null(text, "no %s", xml);
    cr_expect_eq(jt_xmllint(xml, JT_XSD, dir), 0, "%s does not validate against %s", xml,
                 JT_XSD);
    cr_expect_eq(jt_xmllint(xml, jenkins, dir), 0,
                 "%s does not validate against Jenkins' %s", xml, jenkins);
    cr_expect_eq(rt_count(text, "<testcase "), json_total(json),
                 "one testcase per (case, variant) of the JSON report");
    cr_expect_gt(jt_verdicts(json, no_answer) + jt_verdicts(json, wrong_answer), 0u,
                 "the run should have failures");
    cr_expect_eq(rt_count(text, "<error "), jt_verdicts(json, no_answer),
                 "one error per result the candidate did not answer");
    cr_expect_eq(rt_count(text, "<failure "), jt_verdicts(json, wrong_answer),
                 "one failure per other result against conformance");
    cr_expect_eq(rt_count(text, " file=\""), 0u, "junit-10.xsd has no file attribute");
    cr_expect_gt(rt_count(text, ">case: cases/openvino_reshape_1.yaml:"), 0u,
                 "a failing testcase names its case file as it is in the repository");
    cr_expect_eq(rt_count(text, "<property name=\"case_file.1\" "
                                "value=\"cases/openvino_reshape_1.yaml\"/>"), 1u,
                 "the case files are properties, repository-relative");
    cr_expect_eq(rt_count(text, "<testsuite name=\"reshape-conform\" "), 1u,
                 "the suite's default name is the tool's, not the candidate's version");
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

Test(junit, the_suite_name_is_the_one_given, .timeout = 180)
{
    static const char *const extra[] = {"--junit-suite-name", "kernels & co", NULL};
    const char *jenkins = jt_jenkins_xsd();
    char *dir = jt_run("junit-suite-name", "build/broken/special_zero_ignored.so", 1, extra);
    char *xml = rt_join(dir, "report.xml"), *text = rt_read(xml, NULL);

    cr_assert_not_null(text, "no %s", xml);
    cr_expect_eq(rt_count(text, "<testsuites name=\"kernels &amp; co\" "), 1u);
    cr_expect_eq(rt_count(text, "<testsuite name=\"kernels &amp; co\" "), 1u);
    cr_expect_eq(jt_xmllint(xml, jenkins, dir), 0);
    free(text);
    free(xml);
    free(dir);
}

/* The controls: the schema checks can fail.  A testcase without its
 * required classname must not validate against junit.xsd, and one with a
 * file attribute (as the harness wrote before) not against Jenkins'. */
static void rejected(const char *name, const char *xsd, const char *doc)
{
    char *dir = rt_workdir(name);
    char *xml = rt_join(dir, "bad.xml");

    cr_assert_eq(rt_write(xml, doc, strlen(doc)), 0);
    cr_expect_neq(jt_xmllint(xml, xsd, dir), 0, "xmllint accepted %s against %s", doc, xsd);
    free(xml);
    free(dir);
}

Test(junit, schema_rejects_a_testcase_without_classname, .timeout = 60)
{
    rejected("junit-control", JT_XSD,
             "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"s\" tests=\"1\">"
             "<testcase name=\"c\"/></testsuite></testsuites>\n");
}

Test(junit, jenkins_schema_rejects_a_file_attribute, .timeout = 60)
{
    rejected("junit-control-jenkins", jt_jenkins_xsd(),
             "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"s\" tests=\"1\" "
             "failures=\"0\" errors=\"0\"><testcase classname=\"o\" name=\"c\" "
             "file=\"cases/x.yaml\"/></testsuite></testsuites>\n");
}
