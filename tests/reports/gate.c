/*
 * gate.c - report.md and report.html open with the gate's answer (the
 * report's "gate", reports/SCHEMA.md): a run whose failures are all known
 * is headlined with them, never "meets every case", and a failing gate
 * lists its regressions before anything else.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "support.h"

/* Renders `report` (consumed) as rt_render_report does. */
static char *render(json_t *report, const char *name, const char *file)
{
    char *text = rt_render_report(report, name, file, NULL);
    json_decref(report);
    return text;
}

/* The nonconformant fixture with a gate: every entry that counts against
 * conformance is "known" (failing in the baseline too), but the first
 * `regressions` of them. */
static json_t *gated(int regressions)
{
    json_t *r = rt_load_fixture("nonconformant.json");
    size_t i;
    json_t *e;
    int known = 0, reg = 0;
    json_array_foreach(json_object_get(r, "cases"), i, e) {
        const char *v = json_string_value(json_object_get(e, "verdict"));
        int bad = strcmp(v, "PASS") && strcmp(v, "NOT_SUPPORTED") && strcmp(v, "WAIVED") &&
                  strcmp(v, "UNEXPECTED_PASS");
        const char *cls = !bad ? NULL : reg < regressions ? "regression" : "known";
        reg += cls && !strcmp(cls, "regression");
        known += cls && !strcmp(cls, "known");
        json_object_set_new(e, "gate", cls ? json_string(cls) : json_null());
        json_object_set_new(e, "baseline_was", json_string(bad && reg > 0 && !strcmp(cls, "regression")
                                                               ? "PASS" : v));
    }
    char head[128];
    if (regressions)
        snprintf(head, sizeof head, "nonconformant: %d regressions against old.json; %d known "
                 "failures", reg, known);
    else
        snprintf(head, sizeof head, "conformant with %d known failures, no regressions against "
                 "old.json", known);
    json_object_set_new(r, "gate", json_pack("{s:s, s:n, s:b, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:s}",
                                             "baseline", "old.json", "expectations", "allow_fixes", 0,
                                             "passed", !regressions, "regressions", reg, "fixes", 0,
                                             "unexpected_passes", 0, "known", known, "waived", 0,
                                             "baselined", known, "headline", head));
    return r;
}

Test(gate_views, known_failures_are_headlined_never_meets_every_case)
{
    char *md = render(gated(0), "gate_known", "report.md");
    cr_assert_eq(strncmp(md, "## Reshape conformance: CONFORMANT WITH 8 KNOWN FAILURES\n", 56), 0,
                 "report.md should open with the gate:\n%s", md);
    cr_expect(strstr(md, "**Gate: passed** -- conformant with 8 known failures, no regressions "
                         "against old.json."), "%s", md);
    cr_expect_null(strstr(md, "meets every case"), "%s", md);
    free(md);
    char *html = render(gated(0), "gate_known_html", "report.html");
    cr_expect(strstr(html, "<header class=\"banner conformant\" id=\"verdict\">"));
    cr_expect(strstr(html, "<div class=\"verdict\">CONFORMANT WITH 8 KNOWN FAILURES</div>"));
    free(html);
}

Test(gate_views, a_failing_gate_lists_its_regressions_first)
{
    char *md = render(gated(2), "gate_regressions", "report.md");
    cr_assert_eq(strncmp(md, "## Reshape conformance: NONCONFORMANT: 2 REGRESSIONS\n", 53), 0,
                 "report.md should open with the gate:\n%s", md);
    const char *reg = strstr(md, "### Regressions (2)"), *ops = strstr(md, "### By operation");
    cr_expect(reg && ops && reg < ops, "the regressions come first:\n%s", md);
    cr_expect(strstr(md, "| `openvino_example_2_copy_first_infer_second/in_place` | PASS | **FAIL** |"),
              "%s", md);
    free(md);
    char *html = render(gated(2), "gate_regressions_html", "report.html");
    cr_expect(strstr(html, "<h2>Regressions (2)</h2>"));
    free(html);
}
