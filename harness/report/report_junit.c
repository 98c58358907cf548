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
    /* runs that ran out of an adaptive budget, run again with the full one */
    json_t *at = json_object_get(report, "adaptive_timeouts");
    fprintf(f, "    <properties>\n");
    static const char *const counts[] = {"rerun", "confirmed", "not_confirmed"};
    for (int k = 0; k < 3; k++)
        fprintf(f, "      <property name=\"adaptive_timeouts.%s\" value=\"%lld\"/>\n", counts[k],
                (long long)json_integer_value(json_object_get(at, counts[k])));
    fprintf(f, "    </properties>\n");
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
