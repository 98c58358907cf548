/*
 * gate.c - judging a report's entries against a baseline and the
 * expectations' waivers, and the gate's headline (gate.h).  Depends on
 * jansson, baseline.h, judge.h and util.h.
 */
#include "gate.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"
#include "findings.h"

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* Nonzero when the verdict named `s` counts against conformance; unknown
 * names count (a verdict this harness does not know is no pass). */
static int name_counts_against(const char *s)
{
    for (int v = 0; v < VD_COUNT; v++)
        if (!strcmp(s, verdict_name((verdict)v)))
            return verdict_counts_against((verdict)v);
    return 1;
}

typedef struct tally {
    long regressions, fixes, unexpected_passes, waived, baselined, passed;
} tally;

/* The class of entry `e` (gate.h) or NULL, counted in `t`; `was` is OLD's
 * verdict or NULL. */
static const char *classify(json_t *e, const baseline *b, const char *was, tally *t)
{
    const char *vd = str(e, "verdict");
    t->passed += !strcmp(vd, "PASS") || !strcmp(vd, "UNEXPECTED_PASS");
    if (!strcmp(vd, "UNEXPECTED_PASS")) {
        t->fixes++;
        t->unexpected_passes++;
        return "fix";
    }
    if (!strcmp(vd, "WAIVED")) {
        t->waived++;
        return "known";
    }
    if (name_counts_against(vd)) {
        if (b && was && name_counts_against(was) && strcmp(was, "UNEXPECTED_PASS")) {
            t->baselined++;
            return "known";
        }
        t->regressions++;
        return "regression";
    }
    if (b && was && !strcmp(vd, "PASS") &&
        (!strcmp(was, "WAIVED") || (name_counts_against(was) && strcmp(was, "UNEXPECTED_PASS")))) {
        t->fixes++;
        return "fix";
    }
    return NULL;
}

static const char *plural(long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static char *headline(const tally *t, const baseline *b, int allow_fixes, int passed)
{
    strbuf h;
    sb_init(&h);
    long known = t->waived + t->baselined;
    if (passed) {
        sb_addf(&h, "conformant");
        if (known)
            sb_addf(&h, " with %ld known failure%s", known, plural(known, "", "s"));
        if (b)
            sb_addf(&h, ", no regressions against %s", b->path);
        if (t->fixes)
            sb_addf(&h, ", %ld fixed%s", t->fixes,
                    t->unexpected_passes && allow_fixes ? " (--allow-fixes)" : "");
        return sb_take(&h);
    }
    sb_addf(&h, "nonconformant: ");
    const char *sep = "";
    if (t->regressions) {
        if (b)
            sb_addf(&h, "%ld regression%s against %s", t->regressions,
                    plural(t->regressions, "", "s"), b->path);
        else
            sb_addf(&h, "%ld unexpected failure%s", t->regressions,
                    plural(t->regressions, "", "s"));
        sep = ", ";
    }
    if (t->unexpected_passes && !allow_fixes) {
        sb_addf(&h, "%s%ld fixed known failure%s still expected to fail (drop %s from the "
                "expectations, or --allow-fixes)", sep, t->unexpected_passes,
                plural(t->unexpected_passes, "", "s"), plural(t->unexpected_passes, "it", "them"));
        sep = ", ";
    }
    if (!t->regressions && !(t->unexpected_passes && !allow_fixes))
        sb_addf(&h, "%snothing passed", sep);
    if (known)
        sb_addf(&h, "; %ld known failure%s", known, plural(known, "", "s"));
    return sb_take(&h);
}

int gate_apply(json_t *report, const baseline *b, const char *expectations, int allow_fixes)
{
    tally t = {0, 0, 0, 0, 0, 0};
    json_t *reg = json_array(), *np = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(report, "cases"), i, e) {
        const char *was = NULL;
        if (b) {
            char *key = xasprintf("%s/%s", str(e, "id"), str(e, "variant"));
            was = json_string_value(json_object_get(b->old, key));
            free(key);
            json_object_set_new(e, "baseline_was", was ? json_string(was) : json_null());
        }
        const char *c = classify(e, b, was, &t);
        json_object_set_new(e, "gate", c ? json_string(c) : json_null());
        if (!b || !c || !strcmp(c, "known"))
            continue;
        if (!strcmp(c, "regression"))
            json_array_append_new(
                reg, json_pack("{s:s, s:s, s:o, s:s, s:s}", "id", str(e, "id"), "variant",
                               str(e, "variant"), "was", was ? json_string(was) : json_null(),
                               "verdict", str(e, "verdict"), "detail", str(e, "detail")));
        else
            json_array_append_new(np, json_pack("{s:s, s:s, s:o}", "id", str(e, "id"), "variant",
                                                str(e, "variant"), "was",
                                                was ? json_string(was) : json_null()));
    }
    int passed = !t.regressions && (allow_fixes || !t.unexpected_passes) && (b || t.passed);
    char *head = headline(&t, b, allow_fixes, passed);
    json_object_set_new(
        report, "gate",
        json_pack("{s:o, s:o, s:b, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:s}",
                  "baseline", b ? json_string(b->path) : json_null(),
                  "expectations", expectations ? json_string(expectations) : json_null(),
                  "allow_fixes", allow_fixes, "passed", passed,
                  "regressions", (json_int_t)t.regressions, "fixes", (json_int_t)t.fixes,
                  "unexpected_passes", (json_int_t)t.unexpected_passes,
                  "known", (json_int_t)(t.waived + t.baselined), "waived", (json_int_t)t.waived,
                  "baselined", (json_int_t)t.baselined, "headline", head));
    free(head);
    /* the findings say which of them are known now */
    json_object_set_new(report, "findings", findings_build(json_object_get(report, "cases")));
    if (b)
        json_object_set_new(report, "baseline", json_pack("{s:s, s:o, s:o}", "path", b->path,
                                                          "regressions", reg, "new_passes", np));
    else {
        json_object_set_new(report, "baseline", json_null());
        json_decref(reg);
        json_decref(np);
    }
    return passed ? GATE_PASSES : GATE_FAILS;
}

const char *gate_headline(json_t *report)
{
    return json_string_value(json_object_get(json_object_get(report, "gate"), "headline"));
}
