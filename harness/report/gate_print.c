/*
 * gate_print.c - the gate's lines on the terminal (gate.h): regressions
 * grouped by what went wrong, a few ids each with the rest counted, fixes
 * grouped by their old verdict, known failures counted.  Depends on
 * jansson, findings.h and util.h.
 */
#include "gate.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "findings.h"

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* The group an entry of class `cls` belongs to: "VERDICT: KIND" for a
 * regression, "was V, now W" for a fix.  A new string. */
static char *group_of(json_t *e, const char *cls)
{
    const char *was = json_string_value(json_object_get(e, "baseline_was"));
    if (!strcmp(cls, "fix"))
        return xasprintf("was %s, now %s",
                         !strcmp(str(e, "verdict"), "UNEXPECTED_PASS") ? "expected to fail"
                         : was ? was : "failing",
                         str(e, "verdict"));
    char *kind = findings_kind(str(e, "verdict"), str(e, "detail"), str(e, "expected"));
    char *g = xasprintf("%s: %s", str(e, "verdict"), kind);
    free(kind);
    return g;
}

static void print_entry(FILE *out, json_t *e, const char *cls)
{
    const char *was = json_string_value(json_object_get(e, "baseline_was"));
    int has_base = json_object_get(e, "baseline_was") != NULL;
    if (!strcmp(cls, "fix")) {
        fprintf(out, "  FIX %s/%s: ", str(e, "id"), str(e, "variant"));
        if (!strcmp(str(e, "verdict"), "UNEXPECTED_PASS"))
            fprintf(out, "passes, expected to fail by '%s'",
                    str(json_object_get(e, "waiver"), "pattern"));
        else
            fprintf(out, "was %s, now %s", was ? was : "-", str(e, "verdict"));
        fprintf(out, " [%s:%lld]\n", str(e, "file"),
                (long long)json_integer_value(json_object_get(e, "line")));
        return;
    }
    const char *d = str(e, "detail");
    fprintf(out, "  REGRESSION %s/%s: %s%s, now %s: %s [%s:%lld]\n", str(e, "id"),
            str(e, "variant"), !has_base ? "no expectation waives it" : was ? "was "
                                                                              : "not in the baseline",
            has_base && was ? was : "", str(e, "verdict"), *d ? d : "-", str(e, "file"),
            (long long)json_integer_value(json_object_get(e, "line")));
}

/* Prints the entries of class `cls` grouped; `noun` names one of them,
 * `nouns` more. */
static void print_class(FILE *out, json_t *cases, const char *cls, const char *noun,
                        const char *nouns, int cap)
{
    size_t n = json_array_size(cases);
    char **groups = xmalloc((n ? n : 1) * sizeof *groups);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(cases, i);
        groups[i] = strcmp(str(e, "gate"), cls) ? NULL : group_of(e, cls);
    }
    for (size_t i = 0; i < n; i++) {
        if (!groups[i])
            continue;
        long count = 0;
        for (size_t k = i; k < n; k++)
            count += groups[k] && !strcmp(groups[k], groups[i]);
        fprintf(out, "%ld %s: %s\n", count, count == 1 ? noun : nouns, groups[i]);
        long shown = 0;
        char *g = groups[i];
        for (size_t k = i; k < n; k++) {
            if (!groups[k] || (k != i && strcmp(groups[k], g)))
                continue;
            if (shown++ < cap)
                print_entry(out, json_array_get(cases, k), cls);
            if (k != i) {
                free(groups[k]);
                groups[k] = NULL;
            }
        }
        if (count > cap)
            fprintf(out, "  and %ld more (the report lists them all)\n", count - cap);
        free(g);
        groups[i] = NULL;
    }
    free(groups);
}

void gate_print(FILE *out, json_t *report, int cap)
{
    json_t *g = json_object_get(report, "gate");
    if (!json_is_object(g))
        return;
    json_t *cases = json_object_get(report, "cases");
    print_class(out, cases, "regression", "regression", "regressions", cap);
    print_class(out, cases, "fix", "fix", "fixes", cap);
    long long waived = json_integer_value(json_object_get(g, "waived")),
              baselined = json_integer_value(json_object_get(g, "baselined"));
    if (waived || baselined)
        fprintf(out, "known failures: %lld (%lld waived by the expectations, %lld failing in "
                "the baseline too)\n", waived + baselined, waived, baselined);
}
