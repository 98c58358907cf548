/*
 * junit_entry.c - one entry of a JSON report as a JUnit <testcase>
 * (junit.h): its kind, its repository-relative case file and its text.
 * Depends on jansson, stdio and judge/ (verdict names).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"
#include "junit.h"

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

void junit_xml_text(FILE *f, const char *s)
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

/* The verdict named `s`, or VD_COUNT for a name this harness does not know. */
static verdict verdict_of(const char *s)
{
    for (int v = 0; v < VD_COUNT; v++)
        if (!strcmp(s, verdict_name((verdict)v)))
            return (verdict)v;
    return VD_COUNT;
}

/* Nonzero when the verdict named `s` counts against conformance; an
 * unknown name counts (it is no pass). */
static int name_counts_against(const char *s)
{
    verdict v = verdict_of(s);
    return v == VD_COUNT || verdict_counts_against(v);
}

void junit_known_init(junit_known *k, json_t *report)
{
    json_t *opts = json_object_get(report, "options");
    k->baseline_path = json_string_value(json_object_get(opts, "baseline"));
}

junit_kind junit_entry_kind(json_t *entry)
{
    const char *vd = str(entry, "verdict");
    verdict v = verdict_of(vd);
    if (v == VD_PASS)
        return JK_PASS;
    if (v == VD_NOT_SUPPORTED)
        return JK_SKIPPED;
    if (v == VD_WAIVED)
        return JK_KNOWN;
    const char *was = json_string_value(json_object_get(entry, "baseline_was"));
    if (was && name_counts_against(was))
        return JK_KNOWN;
    return v == VD_CRASH || v == VD_TIMEOUT ? JK_ERROR : JK_FAILURE;
}

const char *junit_case_path(const char *file)
{
    const char *best = NULL;
    for (const char *p = file; (p = strstr(p, "cases/")) != NULL; p++)
        if (p == file || p[-1] == '/')
            best = p;
    return best ? best : file;
}

/* "known: REASON (TRACKER)" for a waived entry, "known: failed in the
 * baseline PATH as VERDICT" for a baselined one; a new string. */
static char *known_message(json_t *entry, const junit_known *k)
{
    json_t *w = json_object_get(entry, "waiver");
    if (json_is_object(w)) {
        const char *tracker = json_string_value(json_object_get(w, "tracker"));
        return xasprintf("known: %s (%s)", str(w, "reason"), tracker ? tracker : "no tracker");
    }
    const char *was = str(entry, "baseline_was");
    return k->baseline_path ? xasprintf("known: failed in the baseline %s as %s", k->baseline_path, was)
                            : xasprintf("known: failed in the baseline as %s", was);
}

/* The body of a non-passing testcase's element: where the case is, and what
 * was expected and got. */
static void write_body(FILE *f, json_t *entry)
{
    json_t *w = json_object_get(entry, "waiver");
    fprintf(f, "case: ");
    junit_xml_text(f, junit_case_path(str(entry, "file")));
    fprintf(f, ":%lld", (long long)json_integer_value(json_object_get(entry, "line")));
    static const char *const fields[] = {"verdict", "detail", "expected", "got", "clause"};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        fprintf(f, "\n%s: ", fields[i]);
        junit_xml_text(f, str(entry, fields[i]));
    }
    if (json_is_object(w)) {
        fprintf(f, "\nexpectation: ");
        junit_xml_text(f, str(w, "pattern"));
        fprintf(f, " (verdict ");
        junit_xml_text(f, str(w, "verdict"));
        fprintf(f, ")\nreason: ");
        junit_xml_text(f, str(w, "reason"));
        fprintf(f, "\ntracker: ");
        junit_xml_text(f, json_is_string(json_object_get(w, "tracker")) ? str(w, "tracker")
                                                                       : "none");
    }
}

void junit_write_testcase(FILE *f, json_t *entry, const junit_known *k)
{
    junit_kind kind = junit_entry_kind(entry);
    const char *vd = str(entry, "verdict");
    fprintf(f, "    <testcase classname=\"");
    junit_xml_text(f, str(entry, "op"));
    fprintf(f, "\" name=\"");
    junit_xml_text(f, str(entry, "id"));
    fputc('/', f);
    junit_xml_text(f, str(entry, "variant"));
    if (kind == JK_PASS) {
        fprintf(f, "\"/>\n");
        return;
    }
    fprintf(f, "\">\n      ");
    if (kind == JK_SKIPPED) {
        fprintf(f, "<skipped message=\"");
        junit_xml_text(f, vd);
        fprintf(f, ": ");
        junit_xml_text(f, str(entry, "detail"));
        fprintf(f, "\"/>\n    </testcase>\n");
        return;
    }
    static const char *const element[] = {
        [JK_FAILURE] = "failure", [JK_ERROR] = "error", [JK_KNOWN] = "skipped"};
    fprintf(f, "<%s type=\"", element[kind]);
    junit_xml_text(f, vd);
    fprintf(f, "\" message=\"");
    if (kind == JK_KNOWN) {
        char *m = known_message(entry, k);
        junit_xml_text(f, m);
        free(m);
    } else {
        junit_xml_text(f, vd);
        fprintf(f, ": ");
        junit_xml_text(f, str(entry, "detail"));
    }
    fprintf(f, "\">");
    write_body(f, entry);
    fprintf(f, "</%s>\n    </testcase>\n", element[kind]);
}
