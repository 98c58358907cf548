/*
 * report_junit.c - the JUnit XML view of a JSON report (report.h), valid
 * under Jenkins' junit-10.xsd, the strictest common reader: one
 * <testsuite> whose name is stable across candidate versions, what the run
 * was in its <properties>, one <testcase> per entry (junit_entry.c).  Only
 * the JSON report is read, so a merged report renders the same way.
 * Depends on jansson and stdio.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"
#include "junit.h"
#include "report.h"

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static void property(FILE *f, const char *name, const char *value)
{
    fprintf(f, "      <property name=\"");
    junit_xml_text(f, name);
    fprintf(f, "\" value=\"");
    junit_xml_text(f, value);
    fprintf(f, "\"/>\n");
}

/* property NAME.K = VALUE for the K-th (from 1) of a list */
static void property_k(FILE *f, const char *name, size_t k, const char *value)
{
    char *n = xasprintf("%s.%zu", name, k);
    property(f, n, value);
    free(n);
}

/* The run: candidate, suite (version, commit, digest), tool, options that
 * pick or judge results, and the verdict. */
static void write_run_properties(FILE *f, json_t *report)
{
    json_t *cand = json_object_get(report, "candidate"), *suite = json_object_get(report, "suite");
    json_t *opts = json_object_get(report, "options"), *tool = json_object_get(report, "tool");
    property(f, "candidate.name", str(cand, "name"));
    property(f, "candidate.version", str(cand, "version"));
    property(f, "candidate.sha256", str(cand, "sha256"));
    property(f, "suite.version", str(suite, "version"));
    property(f, "suite.git_commit", str(suite, "git_commit"));
    property(f, "suite.cases_sha256", str(suite, "cases_sha256"));
    property(f, "tool.version", str(tool, "version"));
    property(f, "verdict", str(report, "verdict"));
    property(f, "started_utc", str(report, "started_utc"));
    property(f, "options.shard", str(opts, "shard"));
    static const char *const paths[] = {"expectations", "baseline", "filter"};
    for (int k = 0; k < 3; k++)
        if (json_is_string(json_object_get(opts, paths[k]))) {
            char *n = xasprintf("options.%s", paths[k]);
            property(f, n, str(opts, paths[k]));
            free(n);
        }
}

/* One "case_file.K" per case file of the entries, repository-relative, in
 * the order first met. */
static void write_case_files(FILE *f, json_t *cases)
{
    json_t *seen = json_object(), *e;
    size_t i, k = 0;
    json_array_foreach(cases, i, e) {
        const char *file = junit_case_path(str(e, "file"));
        if (*file && !json_object_get(seen, file)) {
            json_object_set_new(seen, file, json_true());
            property_k(f, "case_file", ++k, file);
        }
    }
    json_decref(seen);
}

/*
 * "adaptive_timeouts.rerun", ".confirmed" and ".not_confirmed", "skips"
 * ("N runs for M reasons") and one "skip.K" per group ("RUNS runs:
 * REASON"), then one "library.K" per shared object the workers had mapped
 * ("SONAME sha256 HEX, PACKAGE, ROLE: PATH").
 */
static void write_run_notes(FILE *f, json_t *report)
{
    json_t *skips = json_object_get(report, "skips"), *libs = json_object_get(report, "libraries");
    json_t *at = json_object_get(report, "adaptive_timeouts");
    static const char *const counts[] = {"rerun", "confirmed", "not_confirmed"};
    for (int k = 0; k < 3; k++)
        fprintf(f, "      <property name=\"adaptive_timeouts.%s\" value=\"%lld\"/>\n", counts[k],
                (long long)json_integer_value(json_object_get(at, counts[k])));
    size_t i;
    json_t *g;
    if (json_array_size(skips)) {
        json_int_t runs = 0;
        json_array_foreach(skips, i, g)
            runs += json_integer_value(json_object_get(g, "runs"));
        char *v = xasprintf("%lld runs for %zu reasons", (long long)runs, json_array_size(skips));
        property(f, "skips", v);
        free(v);
    }
    json_array_foreach(skips, i, g) {
        char *v = xasprintf("%lld runs: %s", (long long)json_integer_value(json_object_get(g, "runs")),
                            str(g, "reason"));
        property_k(f, "skip", i + 1, v);
        free(v);
    }
    json_array_foreach(libs, i, g) {
        const char *so = str(g, "soname"), *pkg = str(g, "package");
        char *v = xasprintf("%s sha256 %s, %s, %s: %s", *so ? so : "(no soname)",
                            str(g, "sha256"), *pkg ? pkg : "no package", str(g, "role"),
                            str(g, "path"));
        property_k(f, "library", i + 1, v);
        free(v);
    }
}

/* The name of the suite: options.junit_suite_name, else the tool's name. */
static const char *suite_name(json_t *report)
{
    const char *s = json_string_value(
        json_object_get(json_object_get(report, "options"), "junit_suite_name"));
    return s && *s ? s : TOOL_NAME;
}

int report_write_junit(json_t *report, const char *path, char **err)
{
    atomic_file af;
    char *why = NULL;
    if (atomic_open(&af, path, &why)) {
        *err = xasprintf("cannot write junit report: %s", why);
        free(why);
        return -1;
    }
    FILE *f = af.f;
    json_t *cases = json_object_get(report, "cases");
    junit_known known;
    junit_known_init(&known, report);
    long n[JK_KNOWN + 1] = {0};
    size_t i;
    json_t *e;
    json_array_foreach(cases, i, e)
        n[junit_entry_kind(e)]++;
    double secs = json_number_value(json_object_get(report, "duration_s"));
    const char *name = suite_name(report);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
    junit_xml_text(f, name);
    fprintf(f, "\" tests=\"%zu\" failures=\"%ld\" errors=\"%ld\" time=\"%.3f\">\n",
            json_array_size(cases), n[JK_FAILURE], n[JK_ERROR], secs);
    fprintf(f, "  <testsuite name=\"");
    junit_xml_text(f, name);
    fprintf(f, "\" tests=\"%zu\" failures=\"%ld\" errors=\"%ld\" skipped=\"%ld\" time=\"%.3f\" "
               "timestamp=\"", json_array_size(cases), n[JK_FAILURE], n[JK_ERROR],
            n[JK_SKIPPED] + n[JK_KNOWN], secs);
    junit_xml_text(f, str(report, "started_utc"));
    fprintf(f, "\">\n    <properties>\n");
    write_run_properties(f, report);
    write_case_files(f, cases);
    write_run_notes(f, report);
    fprintf(f, "    </properties>\n");
    json_array_foreach(cases, i, e)
        junit_write_testcase(f, e, &known);
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    if (atomic_commit(&af, &why)) {
        *err = xasprintf("cannot write junit report: %s", why);
        free(why);
        return -1;
    }
    return 0;
}
