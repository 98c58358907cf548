/*
 * gate.h - the gate of a CI run: the answer of `run`, `merge` and
 * `compare` with `--baseline` and/or `--expectations`, computed from a
 * JSON report's "cases" (reports/SCHEMA.md), so that the console, the
 * JSON, Markdown, HTML and JUnit views all say the same thing.  Each
 * (case, variant) entry is one of
 *
 *   regression  counts against conformance now (UNEXPECTED_PASS aside) and
 *               was not known to fail: absent from the baseline or PASS,
 *               NOT_SUPPORTED or WAIVED there; without a baseline, every
 *               such failure that no expectation waives
 *   fix         a known failure that passes now: UNEXPECTED_PASS (an
 *               expectation says it fails), or PASS where the baseline
 *               has a verdict that counts against conformance or WAIVED
 *   known       WAIVED now (by an expectation), or a failure that the
 *               baseline has failing too (baselined)
 *
 * The gate fails on a regression, and on a fix that is an UNEXPECTED_PASS
 * unless fixes are allowed (`--allow-fixes`, pytest's xfail(strict=False));
 * without a baseline it also fails when nothing passed.  Depends on
 * jansson, baseline.h, findings.h and judge.h.
 */
#ifndef HARNESS_GATE_H
#define HARNESS_GATE_H

#include <jansson.h>
#include <stdio.h>

#include "baseline.h"

/* The gate's exit statuses, run's: 0 it passes, 1 it fails. */
enum { GATE_PASSES = 0, GATE_FAILS = 1 };

/*
 * Judges `report`'s cases against `b` (or NULL: no baseline) and the
 * waivers the entries carry, and writes the result into the report: each
 * entry of "cases" gets "gate" ("regression", "fix", "known" or null) and,
 * with a baseline, "baseline_was" (OLD's verdict, or null: not in OLD);
 * the report gets "gate" {"baseline", "expectations", "allow_fixes",
 * "passed", "regressions", "fixes", "unexpected_passes", "known",
 * "waived", "baselined", "headline"} and "baseline" {"path",
 * "regressions": [{"id", "variant", "was", "verdict", "detail"}],
 * "new_passes": [{"id", "variant", "was"}]} (null without a baseline),
 * both replaced if there.  `expectations` is the expectations file's
 * path, named in the headline (NULL: none given).  Returns GATE_PASSES or
 * GATE_FAILS.
 */
int gate_apply(json_t *report, const baseline *b, const char *expectations, int allow_fixes);

/*
 * The gate's lines on `out` from a report gate_apply judged: the
 * regressions grouped by what went wrong ("N regressions: VERDICT: KIND"
 * and at most `cap` lines "  REGRESSION id/variant: was V, now W: detail
 * [file:line]", then "  and N more"), the fixes grouped by their old
 * verdict ("  FIX id/variant: was V, now W"), and one line counting the
 * known failures.  Nothing when the report has no gate.
 */
void gate_print(FILE *out, json_t *report, int cap);

/* The report's gate headline ("conformant with 3 known failures, no
 * regressions against OLD.json"), or NULL when it has no gate.  Borrowed
 * from the report. */
const char *gate_headline(json_t *report);

#endif
