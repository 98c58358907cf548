/*
 * markdown.c - report.md: the pull-request summary says the verdict, the
 * counts, the op x verdict table and the worst cases, and cannot be broken
 * or used to inject markup by a case's text.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "support.h"

/* Asserts `needle` occurs in `md`, showing the whole summary when not. */
static void has(const char *md, const char *needle)
{
    cr_assert_not_null(strstr(md, needle), "report.md lacks \"%s\"; it is:\n%s", needle, md);
}

/* Asserts `first` occurs in `md` before `second`. */
static void before(const char *md, const char *first, const char *second)
{
    const char *a = strstr(md, first), *b = strstr(md, second);
    cr_assert(a && b && a < b, "report.md should list \"%s\" before \"%s\":\n%s", first, second, md);
}

Test(markdown, nonconformant_heading_and_failing_count)
{
    char *md = rt_render_fixture("nonconformant.json", "md_heading", "report.md", NULL);
    cr_assert_eq(strncmp(md, "## Reshape conformance: NONCONFORMANT\n", 38), 0,
                 "report.md should open with the verdict:\n%s", md);
    has(md, "**fixture-kernel 2.3** fails 9 of 13 entries (case x variant); 2 skipped or waived.");
    free(md);
}

Test(markdown, conformant_heading_says_so)
{
    char *md = rt_render_fixture("conformant.json", "md_conformant", "report.md", NULL);
    cr_assert_eq(strncmp(md, "## Reshape conformance: CONFORMANT\n", 35), 0,
                 "report.md should open with the verdict:\n%s", md);
    has(md, "none counts against conformance; 1 skipped or waived.");
    cr_assert_null(strstr(md, "NONCONFORMANT"), "a conformant run must not say NONCONFORMANT");
    free(md);
}

Test(markdown, counts_every_verdict_that_occurred)
{
    char *md = rt_render_fixture("nonconformant.json", "md_counts", "report.md", NULL);
    has(md, "| verdict | entries |\n| --- | ---: |\n| PASS | 2 |\n| **FAIL** | 2 |\n"
            "| **ACCEPTED_INVALID** | 1 |\n| **CRASH** | 1 |\n| **TIMEOUT** | 1 |\n"
            "| **MEMORY_VIOLATION** | 1 |\n| **LEAK** | 1 |\n| **FLOOD** | 1 |\n"
            "| NOT_SUPPORTED | 1 |\n| WAIVED | 1 |\n| **UNEXPECTED_PASS** | 1 |\n");
    free(md);
}

Test(markdown, leaves_out_verdicts_with_no_entries)
{
    char *md = rt_render_fixture("conformant.json", "md_zero_rows", "report.md", NULL);
    has(md, "| verdict | entries |\n| --- | ---: |\n| PASS | 5 |\n| NOT_SUPPORTED | 1 |\n\n");
    cr_assert_null(strstr(md, "FAIL"), "a verdict with no entries gets no row:\n%s", md);
    free(md);
}

Test(markdown, status_name_agreement)
{
    char *md = rt_render_fixture("nonconformant.json", "md_status", "report.md", NULL);
    has(md, "Error status names: 2 agree, 1 disagree (any error status satisfies an error case;");
    free(md);
}

Test(markdown, op_by_verdict_table)
{
    char *md = rt_render_fixture("nonconformant.json", "md_ops", "report.md", NULL);
    has(md, "| op | entries | PASS | FAIL | ACCEPTED_INVALID | CRASH | TIMEOUT | MEMORY_VIOLATION"
            " | LEAK | FLOOD | NOT_SUPPORTED | WAIVED | UNEXPECTED_PASS |\n");
    has(md, "| `openvino_reshape_1` | 5 | 1 | 2 | 0 | 0 | 0 | 1 | 1 | 0 | 0 | 0 | 0 |\n");
    has(md, "| `onednn_static_reshape_1` | 4 | 0 | 0 | 1 | 1 | 1 | 0 | 0 | 1 | 0 | 0 | 0 |\n");
    has(md, "| `onnx_reshape_14` | 4 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 1 | 1 |\n");
    before(md, "`openvino_reshape_1` |", "`onednn_static_reshape_1` |");
    free(md);
}

Test(markdown, lists_non_passing_worst_first)
{
    char *md = rt_render_fixture("nonconformant.json", "md_list", "report.md", NULL);
    has(md, "### Not passing (worst first)\n");
    const char *list = strstr(md, "### Not passing");
    has(md, "| `onednn_static_two_minus_ones` | `infer` | **CRASH** | `worker killed by signal 11 (SIGSEGV)` |\n");
    has(md, "| `openvino_example_2_copy_first_infer_second` | `in_place` | **FAIL** | `first differing element 17:");
    before(list, "**CRASH** |", "**MEMORY_VIOLATION** |");
    before(list, "**MEMORY_VIOLATION** |", "**FAIL** |");
    before(list, "**FAIL** |", "| WAIVED |");
    before(list, "| WAIVED |", "| NOT_SUPPORTED |");
    cr_assert_null(strstr(md, "more not passing"), "11 entries fit; no \"more\" line:\n%s", md);
    free(md);
}

Test(markdown, details_are_code_that_cannot_break_out)
{
    /* A detail is an inline code span: GitHub shows "<script>" in it as
     * text, and the escaped "|" keeps the table's columns. */
    char *md = rt_render_fixture("nonconformant.json", "md_escape", "report.md", NULL);
    has(md, "| **ACCEPTED_INVALID** | `returned OK for an error case <script>alert('x')</script> "
            "\\| pipe & amp` |\n");
    cr_assert_eq(rt_count(md, "<script>"), 1, "a <script> outside the code span:\n%s", md);
    free(md);
}

Test(markdown, plain_text_is_escaped)
{
    /* The load error's message is plain text, not code: Markdown and HTML
     * characters in it are escaped. */
    json_t *report = rt_load_fixture("nonconformant.json");
    json_t *error = json_array_get(json_object_get(report, "load_errors"), 0);
    json_object_set_new(error, "message", json_string("bad <b>key</b> *x* [y](z) a|b _u_"));
    char *text = rt_render_report(report, "md_plain_escape", "report.md", NULL);
    has(text, "the first: bad &lt;b&gt;key&lt;/b&gt; \\*x\\* \\[y\\](z) a\\|b \\_u\\_ at `cases/broken.yaml`:3:5\n");
    json_decref(report);
    free(text);
}

Test(markdown, warns_about_cases_that_did_not_load)
{
    char *md = rt_render_fixture("nonconformant.json", "md_load_errors", "report.md", NULL);
    has(md, "> **Warning:** 1 case failed to load and did not run; the first: unknown key \"shpae\""
            " at `cases/broken.yaml`:3:5\n");
    free(md);
}

Test(markdown, names_the_candidate_and_suite)
{
    char *md = rt_render_fixture("nonconformant.json", "md_identity", "report.md", NULL);
    has(md, "Candidate `build/libfixture.so` (sha256 `9f86d081884c`, ABI 1) · suite 0.1.0 at "
            "`0123456789ab` · 3 cases from 2 files · 2026-11-22T10:00:00Z · 1.2 s\n");
    free(md);
}

Test(markdown, skips_have_their_own_section_not_the_failing_list)
{
    /* a report with grouped skips lists them by reason, apart from the
     * entries that fail or are waived */
    json_t *report = rt_load_fixture("nonconformant.json");
    json_object_set_new(report, "skips", json_pack(
        "[{s:s, s:i, s:i, s:{s:i}, s:{s:i}, s:{s:i}, s:{s:s, s:s, s:s}}]",
        "reason", "supports() said NOT_SUPPORTED for layout in_place", "runs", 1, "cases", 1,
        "ops", "onnx_reshape_14", 1, "dtypes", "u4", 1, "variants", "in_place", 1,
        "example", "id", "onnx_copy_zero_u4_padding", "variant", "in_place", "detail",
        "supports() said NOT_SUPPORTED for layout in_place"));
    char *md = rt_render_report(report, "md_skips", "report.md", NULL);
    has(md, "### Skipped (1 entry: grouped by reason)\n");
    has(md, "| supports() said NOT_SUPPORTED for layout in_place | 1 | 1 | onnx_reshape_14 (1) | "
            "u4 (1) | in_place (1) | `onnx_copy_zero_u4_padding/in_place` |\n");
    const char *list = strstr(md, "### Not passing");
    cr_assert_not_null(list, "%s", md);
    cr_expect_null(strstr(list, "| NOT_SUPPORTED |"), "a skip in the failing list:\n%s", md);
    has(list, "| WAIVED |");
    before(md, "### Skipped", "### Not passing");
    json_decref(report);
    free(md);
}
