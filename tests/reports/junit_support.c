/*
 * junit_support.c - running the harness and xmllint for the JUnit tests
 * (junit_support.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "junit_support.h"
#include "support.h"

const char *jt_harness(void)
{
    const char *h = getenv("REPORTS_HARNESS");
    return h && *h ? h : "build/reshape-conform";
}

const char *jt_jenkins_xsd(void)
{
    /* Jenkins' schema is a third-party file this repository does not carry:
     * a clone alone has none, and the tests that need it skip, naming the
     * make variable that points at it. */
    const char *xsd = getenv("JUNIT_XSD");
    if (!xsd || !*xsd || access(xsd, R_OK) != 0)
        cr_skip_test("Jenkins' junit-10.xsd is not readable at JUNIT_XSD='%s': this test "
                     "validates against it and is skipped; give make JUNIT_XSD=PATH to run it",
                     xsd ? xsd : "");
    return xsd;
}

int jt_xmllint(const char *xml, const char *xsd, const char *dir)
{
    char *argv[] = {"xmllint", "--noout", "--schema", (char *)xsd, (char *)xml, NULL};
    rt_result r;
    cr_assert_eq(rt_run(&r, argv, dir, 60.0), 0, "cannot start xmllint");
    int code = r.exit_code;
    rt_run_free(&r);
    return code;
}

char *jt_run(const char *name, const char *candidate, int want_exit, const char *const extra[])
{
    char *dir = rt_workdir(name);
    char *json = rt_join(dir, "report.json"), *xml = rt_join(dir, "report.xml");
    const char *base[] = {JT_HARNESS, "--candidate", candidate, "--cases", JT_CASES,
                          "--variants", "dense,infer", "--quiet", "--timeout-ms", "3000",
                          "--json", json, "--junit", xml};
    size_t nbase = sizeof base / sizeof *base, nextra = 0;
    while (extra && extra[nextra])
        nextra++;
    char **argv = calloc(nbase + nextra + 1, sizeof *argv);
    cr_assert_not_null(argv);
    for (size_t i = 0; i < nbase; i++)
        argv[i] = (char *)base[i];
    for (size_t i = 0; i < nextra; i++)
        argv[nbase + i] = (char *)extra[i];
    rt_result r;
    cr_assert_eq(rt_run(&r, argv, dir, 120.0), 0, "cannot start %s", JT_HARNESS);
    cr_assert_eq(r.exit_code, want_exit, "%s on %s exited %d, not %d; see %s", JT_HARNESS,
                 candidate, r.exit_code, want_exit, dir);
    rt_run_free(&r);
    free(argv);
    free(json);
    free(xml);
    return dir;
}

size_t jt_verdicts(const char *path, const char *const verdicts[])
{
    json_error_t err;
    json_t *report = json_load_file(path, 0, &err), *entry;
    size_t i, n = 0;
    cr_assert_not_null(report, "%s: %s", path, err.text);
    json_array_foreach(json_object_get(report, "cases"), i, entry) {
        const char *v = json_string_value(json_object_get(entry, "verdict"));
        for (size_t k = 0; v && verdicts[k]; k++)
            n += !strcmp(v, verdicts[k]);
    }
    json_decref(report);
    return n;
}
