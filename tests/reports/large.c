/*
 * large.c - a run of thousands of entries, most failing: the page stays a
 * sane size (failing cases listed up to a limit, passing ones summarised)
 * and both views say how many they left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>

#include "support.h"

#define CASE_IDS 3000
#define VARIANTS 10

static const char *const ops[] = {"openvino_reshape_1", "onednn_static_reshape_1",
                                  "onednn_dynamic_reshape_1", "onnx_reshape_14"};
static const char *const dtypes[] = {"f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2",
                                     "s64", "s32", "s16", "s8", "u64", "u32", "u16",
                                     "u8", "s4", "u4", "u1", "boolean"};
static const char *const variants[VARIANTS] = {
    "dense", "in_place", "strided_src_padded", "strided_src_permuted", "strided_dst",
    "misaligned", "dst_too_small", "infer", "threads", "repeat"};
static const char *const verdicts[] = {"PASS", "FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT",
                                       "MEMORY_VIOLATION", "LEAK", "FLOOD", "NOT_SUPPORTED",
                                       "WAIVED", "UNEXPECTED_PASS"};
#define N_VERDICTS (sizeof verdicts / sizeof verdicts[0])

/* A matrix row keyed by `key` in `index`, created with every count 0. */
static json_t *row(json_t *index, json_t *rows, const char *key, const char *k1, const char *v1,
                   const char *k2, const char *v2)
{
    json_t *r = json_object_get(index, key);
    if (r)
        return r;
    r = json_object();
    json_object_set_new(r, k1, json_string(v1));
    if (k2)
        json_object_set_new(r, k2, json_string(v2));
    json_object_set_new(r, "total", json_integer(0));
    for (size_t v = 0; v < N_VERDICTS; v++)
        json_object_set_new(r, verdicts[v], json_integer(0));
    json_object_set(index, key, r);
    json_array_append_new(rows, r);
    return r;
}

static void bump(json_t *obj, const char *field)
{
    json_object_set_new(obj, field, json_integer(json_integer_value(json_object_get(obj, field)) + 1));
}

/* 3000 cases x 10 variants: every fifth case fails in every variant (6000
 * FAIL), the next one is NOT_SUPPORTED in "threads" (600), the rest pass.
 * Summary and matrices agree with the cases. */
static json_t *large_report(void)
{
    json_t *report = rt_load_fixture("nonconformant.json");
    json_t *cases = json_array(), *summary = json_object();
    json_t *by_dtype = json_array(), *by_clause = json_array(), *by_tag = json_array();
    json_t *index = json_object();
    json_object_set_new(summary, "total", json_integer(0));
    for (size_t v = 0; v < N_VERDICTS; v++)
        json_object_set_new(summary, verdicts[v], json_integer(0));

    char id[64], clause[96], key[200], text[64];
    for (int i = 0; i < CASE_IDS; i++) {
        const char *op = ops[i % 4], *dtype = dtypes[i % 18];
        snprintf(id, sizeof id, "large_case_%04d", i);
        snprintf(clause, sizeof clause, "%s.md, Section %d", op, i % 30);
        for (int k = 0; k < VARIANTS; k++) {
            const char *verdict = i % 5 == 0 ? "FAIL"
                                : i % 5 == 1 && k == 8 ? "NOT_SUPPORTED" : "PASS";
            json_t *c = json_object();
            json_object_set_new(c, "id", json_string(id));
            json_object_set_new(c, "op", json_string(op));
            json_object_set_new(c, "variant", json_string(variants[k]));
            json_object_set_new(c, "verdict", json_string(verdict));
            snprintf(text, sizeof text, "first differing element %d", i);
            json_object_set_new(c, "detail", json_string(strcmp(verdict, "FAIL") ? "" : text));
            json_object_set_new(c, "clause", json_string(clause));
            json_object_set_new(c, "dtype", json_string(dtype));
            json_object_set_new(c, "tags", json_pack("[s]", i % 2 ? "odd" : "even"));
            json_object_set_new(c, "file", json_string("cases/generated/large.yaml"));
            json_object_set_new(c, "line", json_integer(1 + 12 * i));
            snprintf(text, sizeof text, "shape [%d,4]", i);
            json_object_set_new(c, "expected", json_string(text));
            json_object_set_new(c, "got", json_string(text));
            json_object_set_new(c, "status_agrees", json_null());
            json_object_set_new(c, "waiver", json_null());
            json_array_append_new(cases, c);

            bump(summary, "total");
            bump(summary, verdict);
            snprintf(key, sizeof key, "d|%s|%s", op, dtype);
            json_t *r = row(index, by_dtype, key, "op", op, "dtype", dtype);
            bump(r, "total");
            bump(r, verdict);
            snprintf(key, sizeof key, "c|%s|%s", op, clause);
            r = row(index, by_clause, key, "op", op, "clause", clause);
            bump(r, "total");
            bump(r, verdict);
            snprintf(key, sizeof key, "t|%s", i % 2 ? "odd" : "even");
            r = row(index, by_tag, key, "tag", i % 2 ? "odd" : "even", NULL, NULL);
            bump(r, "total");
            bump(r, verdict);
        }
    }
    json_object_set_new(report, "cases", cases);
    json_object_set_new(report, "summary", summary);
    json_object_set_new(report, "matrices", json_pack("{s:o,s:o,s:o}", "op_clause", by_clause,
                                                      "op_dtype", by_dtype, "tag", by_tag));
    json_object_set_new(report, "load_errors", json_array());
    json_object_set_new(json_object_get(report, "suite"), "load_errors", json_integer(0));
    json_object_set_new(report, "status_agreement", json_pack("{s:i,s:i}", "agree", 0, "disagree", 0));
    json_decref(index);
    return report;
}

Test(large, thirty_thousand_entries_stay_a_sane_page, .timeout = 300)
{
    char *dir = rt_workdir("large");
    json_t *report = large_report();
    char *json = rt_save(report, dir, "report.json");
    json_decref(report);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rt_result r;
    cr_assert_eq(rt_render(&r, json, dir), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_assert_eq(r.exit_code, 0, "exit %d:\n%s", r.exit_code, r.err);
    cr_log_info("rendered 30000 entries in %.2f s",
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);

    size_t html_len = 0;
    char *html_path = rt_join(dir, "report.html");
    char *html = rt_read(html_path, &html_len);
    cr_assert_not_null(html);
    cr_assert_lt(html_len, 4u << 20, "report.html is %zu bytes; keep it under 4 MiB", html_len);
    cr_assert_eq(rt_count(html, "<div class=\"case\" id=\"case-"), 200, "the first 200 failing cases in full");
    cr_assert_not_null(strstr(html, "; the first 200 cases in full, the rest one line per entry."));
    /* 600 failing cases x 10 variants: 2000 in cards, 2000 listed, 2000 left. */
    cr_assert_not_null(strstr(html, "...and 2,000 more failing entries in report.json."));
    cr_assert_not_null(strstr(html, "<summary>600 entries that do not count against conformance</summary>"));
    /* Passing entries are summarised, never listed one by one. */
    cr_assert_null(strstr(html, "large_case_0002"), "a passing case got a row of its own");
    cr_assert_not_null(strstr(html, "<tr><th>all</th><th class=\"num\">30,000</th><th class=\"num\">79%</th>"));

    char *md_path = rt_join(dir, "report.md");
    char *md = rt_read(md_path, NULL);
    cr_assert_not_null(md);
    cr_assert_not_null(strstr(md, "### Not passing (first 20 of 6,600, worst first)\n"), "%s", md);
    cr_assert_not_null(strstr(md, "\n...and 6,580 more not passing: see `report.html` or `report.json`.\n"), "%s", md);
    cr_assert_eq(rt_count(md, "| **FAIL** |"), 21, "20 listed, and the count row");
    cr_assert_lt(strlen(md), 8000u, "the summary must fit a pull-request comment");

    rt_run_free(&r);
    free(md);
    free(md_path);
    free(html);
    free(html_path);
    free(json);
    free(dir);
}
