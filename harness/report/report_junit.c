/*
 * report_junit.c - the JUnit XML view of a JSON report (report.h).  Only
 * the JSON report is read, so a merged report renders the same way.
 * Depends on jansson and stdio.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"
#include "report.h"

/* Writes `s` with the five XML special characters escaped; control
 * characters (never in our strings after sanitize_text) become '?'. */
static void xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            fputc((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' ? '?' : *s, f);
        }
    }
}

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static int is_verdict(const char *s, verdict v)
{
    return !strcmp(s, verdict_name(v));
}

static void property(FILE *f, const char *name, const char *value)
{
    fprintf(f, "      <property name=\"");
    xml_text(f, name);
    fprintf(f, "\" value=\"");
    xml_text(f, value);
    fprintf(f, "\"/>\n");
}

/*
 * The suite's properties: "adaptive_timeouts.rerun", ".confirmed" and
 * ".not_confirmed", "skips" ("N runs for M reasons") and one "skip.K" per
 * group ("RUNS runs: REASON"), then one "library.K" per shared object the
 * workers had mapped ("SONAME sha256 HEX, PACKAGE, ROLE: PATH").
 */
static void write_properties(FILE *f, json_t *report)
{
    json_t *skips = json_object_get(report, "skips"), *libs = json_object_get(report, "libraries");
    fprintf(f, "    <properties>\n");
    /* runs that ran out of an adaptive budget, run again with the full one */
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
        char *name = xasprintf("skip.%zu", i + 1);
        char *v = xasprintf("%lld runs: %s", (long long)json_integer_value(json_object_get(g, "runs")),
                            str(g, "reason"));
        property(f, name, v);
        free(name);
        free(v);
    }
    json_array_foreach(libs, i, g) {
        char *name = xasprintf("library.%zu", i + 1);
        const char *so = str(g, "soname"), *pkg = str(g, "package");
        char *v = xasprintf("%s sha256 %s, %s, %s: %s", *so ? so : "(no soname)",
                            str(g, "sha256"), *pkg ? pkg : "no package", str(g, "role"),
                            str(g, "path"));
        property(f, name, v);
        free(name);
        free(v);
    }
    fprintf(f, "    </properties>\n");
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
    long failures = 0, skipped = 0;
    size_t i;
    json_t *e;
    json_array_foreach(cases, i, e) {
        const char *vd = str(e, "verdict");
        if (is_verdict(vd, VD_NOT_SUPPORTED) || is_verdict(vd, VD_WAIVED))
            skipped++;
        else if (!is_verdict(vd, VD_PASS))
            failures++;
    }
    double secs = json_real_value(json_object_get(report, "duration_s"));
    json_t *cand = json_object_get(report, "candidate");
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"%s\" tests=\"%zu\" failures=\"%ld\" errors=\"0\" "
               "skipped=\"%ld\" time=\"%.3f\">\n",
            TOOL_NAME, json_array_size(cases), failures, skipped, secs);
    fprintf(f, "  <testsuite name=\"");
    xml_text(f, str(cand, "name"));
    fprintf(f, " ");
    xml_text(f, str(cand, "version"));
    fprintf(f, "\" tests=\"%zu\" failures=\"%ld\" errors=\"0\" skipped=\"%ld\" time=\"%.3f\">\n",
            json_array_size(cases), failures, skipped, secs);
    write_properties(f, report);
    json_array_foreach(cases, i, e) {
        const char *vd = str(e, "verdict");
        fprintf(f, "    <testcase classname=\"");
        xml_text(f, str(e, "op"));
        fprintf(f, "\" name=\"");
        xml_text(f, str(e, "id"));
        fputc('/', f);
        xml_text(f, str(e, "variant"));
        fprintf(f, "\" file=\"");
        xml_text(f, str(e, "file"));
        fprintf(f, "\" line=\"%lld\"", (long long)json_integer_value(json_object_get(e, "line")));
        if (is_verdict(vd, VD_PASS)) {
            fprintf(f, "/>\n");
            continue;
        }
        fprintf(f, ">\n      ");
        int skip = is_verdict(vd, VD_NOT_SUPPORTED) || is_verdict(vd, VD_WAIVED);
        if (skip) {
            fprintf(f, "<skipped message=\"");
        } else {
            fprintf(f, "<failure type=\"");
            xml_text(f, vd);
            fprintf(f, "\" message=\"");
        }
        xml_text(f, vd);
        fprintf(f, ": ");
        xml_text(f, str(e, "detail"));
        if (skip) {
            fprintf(f, "\"/>\n");
        } else {
            fprintf(f, "\">expected: ");
            xml_text(f, str(e, "expected"));
            fprintf(f, "\ngot: ");
            xml_text(f, str(e, "got"));
            fprintf(f, "\nclause: ");
            xml_text(f, str(e, "clause"));
            fprintf(f, "</failure>\n");
        }
        fprintf(f, "    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    if (atomic_commit(&af, &why)) {
        *err = xasprintf("cannot write junit report: %s", why);
        free(why);
        return -1;
    }
    return 0;
}
