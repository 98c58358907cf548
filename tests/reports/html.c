/*
 * html.c - report.html, read as text: one self-contained file, every report
 * value escaped, the banner, the matrices, the chart and each failing case
 * with its diff and YAML.  What a browser makes of it is in browser.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "support.h"

static void has(const char *html, const char *needle)
{
    cr_assert_not_null(strstr(html, needle), "report.html lacks \"%s\"", needle);
}

/* The text between the first `open` after `from` and the next `close`, in a
 * buffer the caller frees; NULL when either is missing. */
static char *between(const char *from, const char *open, const char *close)
{
    const char *a = strstr(from, open);
    if (!a)
        return NULL;
    a += strlen(open);
    const char *b = strstr(a, close);
    if (!b)
        return NULL;
    return strndup(a, (size_t)(b - a));
}

Test(html, escapes_a_script_in_a_case_detail)
{
    char *html = rt_render_fixture("nonconformant.json", "html_escape", "report.html", NULL);
    has(html, "returned OK for an error case &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; | pipe &amp; amp");
    cr_assert_null(strstr(html, "<script>alert"), "the detail's <script> reached the page unescaped");
    /* The page's own two scripts, and no others. */
    cr_assert_eq(rt_count(html, "<script"), 2, "expected exactly the page's 2 scripts");
    free(html);
}

Test(html, loads_nothing_from_outside)
{
    char *html = rt_render_fixture("nonconformant.json", "html_self_contained", "report.html", NULL);
    cr_assert_eq(rt_count(html, "src="), 0, "no element may load a source");
    cr_assert_null(strstr(html, "<link"), "no linked stylesheet or icon");
    cr_assert_null(strstr(html, "@import"), "no imported stylesheet");
    cr_assert_null(strstr(html, "url("), "no CSS url()");
    cr_assert_null(strstr(html, "http://"), "no http reference");
    cr_assert_null(strstr(html, "https://"), "no https reference");
    for (const char *p = strstr(html, "href=\""); p; p = strstr(p + 1, "href=\""))
        cr_assert_eq(p[6], '#', "a link leaves the page: %.60s", p);
    has(html, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;;");
    free(html);
}

Test(html, banner_says_the_verdict)
{
    char *bad = rt_render_fixture("nonconformant.json", "html_banner_bad", "report.html", NULL);
    has(bad, "<header class=\"banner nonconformant\" id=\"verdict\">\n  <div class=\"verdict\">NONCONFORMANT</div>");
    has(bad, "9 of 13 entries (case &times; variant) count against conformance, in 3 cases");
    char *good = rt_render_fixture("conformant.json", "html_banner_good", "report.html", NULL);
    has(good, "<header class=\"banner conformant\" id=\"verdict\">\n  <div class=\"verdict\">CONFORMANT</div>");
    has(good, "No entry counts against conformance: 5 of 6 entries");
    free(bad);
    free(good);
}

Test(html, op_by_dtype_heat_map)
{
    char *html = rt_render_fixture("nonconformant.json", "html_dtype", "report.html", NULL);
    char *grid = between(strstr(html, "<h2 id=\"dtypes\">"), "<table class=\"heat dtypes\">", "</table>");
    cr_assert_not_null(grid, "no op x dtype table");
    /* A row per dtype (in the ABI's order), a column per op. */
    has(grid, "<tr><th>dtype</th><th><code>openvino_reshape_1</code></th><th><code>onednn_static_reshape_1"
              "</code></th><th><code>onnx_reshape_14</code></th></tr>");
    const char *f32 = strstr(grid, "<tr><th class=\"dtype\">f32</th>");
    const char *bf16 = strstr(grid, "<tr><th class=\"dtype\">bf16</th>");
    const char *u4 = strstr(grid, "<tr><th class=\"dtype\">u4</th>");
    cr_assert(f32 && bf16 && u4 && f32 < bf16 && bf16 < u4, "rows f32, bf16, u4 in that order");
    /* openvino f32: 1 PASS of 5, a failing colour and every verdict on hover. */
    has(f32, "<tr><th class=\"dtype\">f32</th><td class=\"cell\" style=\"background: hsl(10, 85%, 74%)\" title=\"PASS 1, FAIL 2, "
              "MEMORY_VIOLATION 1, LEAK 1\">1/5<small>20%</small></td>");
    /* onednn static bf16: none passed, the reddest colour. */
    has(grid, "style=\"background: hsl(0, 85%, 74%)\" title=\"ACCEPTED_INVALID 1, CRASH 1, TIMEOUT 1, "
              "FLOOD 1\">0/4<small>0%</small>");
    /* onnx u4: skips are not judged. */
    has(grid, ">1/2<small>50% &middot; 2 skip</small>");
    /* A pair with no cases is an empty cell, not a zero. */
    cr_assert_eq(rt_count(grid, "class=\"cell empty\""), 6, "3 ops x 3 dtypes, 3 of them with cases");
    free(grid);
    free(html);
}

Test(html, all_passed_cells_are_green)
{
    char *html = rt_render_fixture("conformant.json", "html_green", "report.html", NULL);
    has(html, "style=\"background: hsl(120, 45%, 78%)\" title=\"PASS 3\">3/3<small>100%</small>");
    /* Every judged entry skipped: grey, and no rate. */
    has(html, "style=\"background: #e3e6ea\" title=\"NOT_SUPPORTED 1\">0/0<small>skipped &middot; 1 skip</small>");
    free(html);
}

Test(html, op_by_clause_heat_map)
{
    char *html = rt_render_fixture("nonconformant.json", "html_clause", "report.html", NULL);
    char *table = between(strstr(html, "<h2 id=\"clauses\">"), "<table class=\"heat counts\">", "</table>");
    cr_assert_not_null(table, "no op x clause table");
    has(table, "<tr><th class=\"op-head\" colspan=\"14\"><code>openvino_reshape_1</code></th></tr>");
    has(table, "<td class=\"clause\">openvino_reshape_1.rst, Examples, Example 2</td><td class=\"cell\"");
    has(table, ">1/5<small>20%</small></td><td class=\"num\">5</td><td class=\"num\">1</td>"
               "<td class=\"num bad\">2</td>");
    free(table);
    free(html);
}

Test(html, verdict_chart_has_a_bar_per_verdict)
{
    char *html = rt_render_fixture("nonconformant.json", "html_chart", "report.html", NULL);
    char *svg = between(html, "<svg role=\"img\" aria-label=\"entries per verdict\"", "</svg>");
    cr_assert_not_null(svg, "no verdict chart");
    cr_assert_eq(rt_count(svg, "<rect "), 11, "one bar per verdict of SCHEMA.md");
    /* PASS and FAIL tie at 2, the longest bar (330 px); a count of 1 is half. */
    has(svg, "width=\"330\" height=\"14\" fill=\"#2e7d32\"><title>PASS: 2</title>");
    has(svg, "width=\"330\" height=\"14\" fill=\"#c62828\"><title>FAIL: 2</title>");
    has(svg, "width=\"165\" height=\"14\" fill=\"#4a148c\"><title>CRASH: 1</title>");
    free(svg);
    free(html);
}

Test(html, failing_cases_grouped_worst_first)
{
    char *html = rt_render_fixture("nonconformant.json", "html_cards", "report.html", NULL);
    cr_assert_eq(rt_count(html, "<div class=\"case\" id=\"case-"), 3, "one card per failing case id");
    const char *crash = strstr(html, "id=\"case-onednn_static_two_minus_ones\"");
    const char *fail = strstr(html, "id=\"case-openvino_example_2_copy_first_infer_second\"");
    const char *unexpected = strstr(html, "id=\"case-onnx_copy_zero_u4_padding\"");
    cr_assert(crash && fail && unexpected && crash < fail && fail < unexpected,
              "cards should go CRASH, then FAIL, then UNEXPECTED_PASS");
    free(html);
}

Test(html, diff_marks_what_differs)
{
    char *html = rt_render_fixture("nonconformant.json", "html_diff", "report.html", NULL);
    has(html, "<span class=\"label\">expected</span>shape [2,150<del>,4</del>]</div>");
    has(html, "<span class=\"label\">got</span>shape [2,<ins>4,</ins>150]</div>");
    /* Texts with nothing in common are marked whole. */
    has(html, "<span class=\"label\">got</span><ins>signal 11</ins></div>");
    has(html, "<span class=\"label\">expected</span>shape [2,150,4] <span class=\"muted\">(got the same)</span>");
    free(html);
}

Test(html, shows_the_yaml_of_each_failing_case)
{
    char *html = rt_render_fixture("nonconformant.json", "html_yaml", "report.html", NULL);
    char *yaml = between(strstr(html, "id=\"case-onednn_static_two_minus_ones\""),
                         "<pre class=\"yaml\">", "</pre>");
    cr_assert_not_null(yaml, "no YAML for the case at cases.yaml:20");
    cr_assert_str_eq(yaml,
        "- id: onednn_static_two_minus_ones\n"
        "  op: onednn_static_reshape_1\n"
        "  clause: &#34;onednn_static_reshape_1.md, Attributes, shape&#34;\n"
        "  quote: &#34;Not more than one -1 can be used in a reshape operation.&#34;\n"
        "  tags: [errorif, minus_one]\n"
        "  input: {dtype: bf16, dims: [2, 3]}\n"
        "  shape: {dtype: s64, values: [-1, -1]}\n"
        "  special_zero: false\n"
        "  expect:\n"
        "    error: MULTIPLE_MINUS_ONE");
    free(yaml);
    /* The last case of the file ends at the end of the file. */
    yaml = between(strstr(html, "id=\"case-onnx_copy_zero_u4_padding\""), "<pre class=\"yaml\">", "</pre>");
    cr_assert_not_null(yaml, "no YAML for the last case of the file");
    cr_assert_eq(strncmp(yaml, "- id: onnx_copy_zero_u4_padding\n", 32), 0, "starts at its own id: %s", yaml);
    cr_assert_not_null(strstr(yaml, "    error: ZERO_OUT_OF_RANGE"), "ends with its expect: %s", yaml);
    free(yaml);
    free(html);
}

Test(html, says_when_a_case_file_is_missing)
{
    json_t *report = rt_load_fixture("nonconformant.json");
    json_t *cases = json_object_get(report, "cases");
    for (size_t i = 0; i < json_array_size(cases); i++)
        json_object_set_new(json_array_get(cases, i), "file", json_string("cases/gone.yaml"));
    char *html = rt_render_report(report, "html_no_yaml", "report.html", NULL);
    cr_assert_eq(rt_count(html, "No YAML for this case at <code>cases/gone.yaml:"), 3,
                 "each card says its YAML is missing");
    cr_assert_null(strstr(html, "<pre class=\"yaml\">"), "no YAML can be shown");
    json_decref(report);
    free(html);
}

Test(html, warns_when_the_summary_contradicts_the_cases)
{
    char *dir;
    json_t *report = rt_load_fixture("nonconformant.json");
    json_object_set_new(json_object_get(report, "summary"), "FAIL", json_integer(5));
    json_object_set_new(report, "verdict", json_string("conformant"));
    char *html = rt_render_report(report, "html_contradiction", "report.html", &dir);
    has(html, "The report contradicts itself; trust neither figure until the harness is fixed:");
    has(html, "<li>summary gives FAIL 5 but the cases list has 2</li>");
    has(html, "<li>verdict is &#34;conformant&#34; but the summary counts make it &#34;nonconformant&#34;</li>");
    char *path = rt_join(dir, "report.md");
    char *md = rt_read(path, NULL);
    cr_assert_not_null(md);
    cr_assert_not_null(strstr(md, "> **Warning:** the report contradicts itself: summary gives FAIL 5 "
                                  "but the cases list has 2\n"), "%s", md);
    json_decref(report);
    free(md);
    free(html);
    free(path);
    free(dir);
}

Test(html, lists_load_errors_and_skips)
{
    char *html = rt_render_fixture("nonconformant.json", "html_skips", "report.html", NULL);
    has(html, "<strong>1 case failed to load and did not run.</strong>");
    has(html, "<li><code>cases/broken.yaml:3:5</code>: unknown key &#34;shpae&#34;</li>");
    char *skips = between(html, "<h2 id=\"skipped\">", "</details>");
    cr_assert_not_null(skips, "no skipped section");
    has(skips, "<summary>2 entries that do not count against conformance</summary>");
    has(skips, "(waiver: reason: vendor bug #42: copies a 0 past the rank)");
    free(skips);
    free(html);
}

Test(html, status_name_bar_shows_a_few_disagreements)
{
    json_t *report = rt_load_fixture("conformant.json");
    json_object_set_new(report, "status_agreement", json_pack("{s:i,s:i}", "agree", 8924, "disagree", 2));
    char *html = rt_render_report(report, "html_status_bar", "report.html", NULL);
    has(html, "8,924 agree, 2 disagree.");
    /* 2 of 8,926 is under a pixel of 300; it still gets a visible 3. */
    has(html, "<rect x=\"0\" y=\"0\" width=\"297\" height=\"18\" fill=\"#2e7d32\"><title>agree: 8,924</title></rect>"
              "<rect x=\"297\" y=\"0\" width=\"3\" height=\"18\" fill=\"#b26a00\"><title>disagree: 2</title></rect>");
    json_decref(report);
    free(html);
}

Test(html, equal_outcomes_share_a_row)
{
    /* The same crash in two variants is one row naming both. */
    json_t *report = rt_load_fixture("nonconformant.json");
    json_t *cases = json_object_get(report, "cases");
    json_t *crash = json_array_get(cases, 6), *timeout = json_array_get(cases, 7);
    cr_assert_str_eq(json_string_value(json_object_get(crash, "verdict")), "CRASH");
    cr_assert_str_eq(json_string_value(json_object_get(timeout, "variant")), "in_place");
    json_t *copy = json_deep_copy(crash);
    json_object_set_new(copy, "variant", json_string("in_place"));
    json_array_set_new(cases, 7, copy);
    json_object_set_new(json_object_get(report, "summary"), "TIMEOUT", json_integer(0));
    json_object_set_new(json_object_get(report, "summary"), "CRASH", json_integer(2));
    char *html = rt_render_report(report, "html_shared_row", "report.html", NULL);
    has(html, "<tr><td><code>infer</code><br><code>in_place</code></td><td><span class=\"badge\" "
              "style=\"background: #4a148c\">CRASH</span></td>");
    cr_assert_eq(rt_count(html, "worker killed by signal 11 (SIGSEGV)"), 1, "one row for both variants");
    json_decref(report);
    free(html);
}

/* Renders the nonconformant fixture with every case's `file` set to `file`
 * and `line` to `line`, and returns the page (the caller frees it). */
static char *render_with_source(const char *name, const char *file, int line)
{
    json_t *report = rt_load_fixture("nonconformant.json");
    json_t *cases = json_object_get(report, "cases");
    for (size_t i = 0; i < json_array_size(cases); i++) {
        json_object_set_new(json_array_get(cases, i), "file", json_string(file));
        json_object_set_new(json_array_get(cases, i), "line", json_integer(line));
    }
    char *html = rt_render_report(report, name, "report.html", NULL);
    json_decref(report);
    return html;
}

Test(html, finds_yaml_of_a_report_from_another_checkout)
{
    /* An absolute path from the machine that ran the harness: the file is
     * found by its tail below this checkout. */
    char *html = render_with_source("html_relocated", "/some/other/checkout/" RT_DATA "/cases.yaml", 20);
    char *yaml = between(strstr(html, "id=\"case-onednn_static_two_minus_ones\""), "<pre class=\"yaml\">", "</pre>");
    cr_assert_not_null(yaml, "the relocated case file was not found");
    cr_assert_eq(strncmp(yaml, "- id: onednn_static_two_minus_ones\n", 35), 0, "%s", yaml);
    free(yaml);
    free(html);
}

Test(html, finds_a_moved_case_by_its_id)
{
    /* Every entry claims line 4 (the first case); the others must still get
     * their own YAML, never the first case's. */
    char *html = render_with_source("html_moved", RT_DATA "/cases.yaml", 4);
    const char *ids[] = {"onednn_static_two_minus_ones", "openvino_example_2_copy_first_infer_second",
                         "onnx_copy_zero_u4_padding"};
    for (size_t i = 0; i < 3; i++) {
        char anchor[96], start[96];
        snprintf(anchor, sizeof anchor, "id=\"case-%s\"", ids[i]);
        snprintf(start, sizeof start, "- id: %s\n", ids[i]);
        char *yaml = between(strstr(html, anchor), "<pre class=\"yaml\">", "</pre>");
        cr_assert_not_null(yaml, "no YAML for %s", ids[i]);
        cr_assert_eq(strncmp(yaml, start, strlen(start)), 0, "%s got the YAML of another case:\n%s", ids[i], yaml);
        free(yaml);
    }
    free(html);
}

Test(html, never_shows_the_yaml_of_another_case)
{
    /* A file that exists but does not hold these ids. */
    char *html = render_with_source("html_wrong_file", "cases/../" RT_DATA "/other_cases.yaml", 4);
    cr_assert_null(strstr(html, "<pre class=\"yaml\">"), "YAML of some other case was shown");
    cr_assert_eq(rt_count(html, "No YAML for this case at <code>"), 3);
    free(html);
}
