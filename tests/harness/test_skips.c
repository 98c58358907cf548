/*
 * test_skips.c - skips have reasons: a candidate's declared limits
 * (reshape_limits) skip every (case, variant) outside them without a call,
 * naming the limit; a NOT_SUPPORTED keeps the candidate's last_error; the
 * report groups the skips by reason (reports/SCHEMA.md, "Skips") and every
 * view gives them a section of their own.
 */
#include "run_harness.h"

/* The skip group of `r` whose reason is `reason`, or NULL. */
static json_t *skip_group(const run *r, const char *reason)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(r->report, "skips"), i, g)
        if (!strcmp(field(g, "reason"), reason))
            return g;
    return NULL;
}

static json_int_t count(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* No entry is CRASH: limits_declared.so aborts when called outside its
 * limits, so none was. */
static void expect_no_crash(const run *r)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e)
        cr_expect_str_neq(field(e, "verdict"), "CRASH", "%s/%s was called: %s", field(e, "id"),
                          field(e, "variant"), field(e, "detail"));
}

Test(skips, declared_limits_skip_without_a_call_and_name_the_limit)
{
    run r = run_harness("--candidate " CANDS "limits_declared.so --cases " BASIC);
    cr_assert_eq(r.code, 0, "a run whose skips are declared limits is conformant: %s%s", r.out,
                 r.err);
    cr_assert(r.report);
    expect_no_crash(&r);
    expect_verdict(&r, "trigger_f32", "dense", "NOT_SUPPORTED",
                   "skipped: rank 3 above the candidate's declared max_rank 2");
    expect_verdict(&r, "ok_u4_padding", "infer", "NOT_SUPPORTED",
                   "skipped: dtype u4 is not among the candidate's declared data_dtypes "
                   "(f32, s32, s8)");
    expect_verdict(&r, "ok_special_zero_s8", "in_place", "NOT_SUPPORTED",
                   "skipped: layout in_place is not among the candidate's declared layouts "
                   "(dense, strided_src)");
    expect_verdict(&r, "ok_16k_f32", "threads", "NOT_SUPPORTED",
                   "skipped: volume 4096 above the candidate's declared max_volume 2048");
    cr_expect_str_eq(field(entry(&r, "trigger_f32", "dense"), "got"), "not called");
    /* within the limits it runs: a strided src of rank 2, and the threads
     * job without the case it could not take */
    expect_verdict(&r, "ok_big_f32", "strided_src_padded", "PASS", "");
    expect_verdict(&r, "ok_big_f32", "threads", "PASS", "");
    json_t *g = skip_group(&r, "skipped: rank N above the candidate's declared max_rank N");
    cr_assert(g, "no group for the rank limit");
    cr_expect_eq(count(g, "runs"), 6);
    cr_expect_eq(count(g, "cases"), 1);
    cr_expect_eq(count(json_object_get(g, "dtypes"), "f32"), 6);
    cr_expect_eq(count(json_object_get(g, "variants"), "infer"), 1);
    cr_expect_str_eq(field(json_object_get(g, "example"), "id"), "trigger_f32");
    cr_expect_eq(json_array_size(json_object_get(r.report, "skips")), 6);
    cr_expect(strstr(r.out, "skipped 38 runs for 6 reasons"), "%s", r.out);
    run_free(&r);
}

Test(skips, a_short_limits_table_is_read_only_as_far_as_its_struct_size)
{
    run r = run_harness("--candidate " CANDS "limits_short.so --cases " BASIC);
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert(r.report);
    expect_verdict(&r, "trigger_f32", "infer", "NOT_SUPPORTED",
                   "skipped: rank 3 above the candidate's declared max_rank 2");
    /* the fields past struct_size (f64 only, ONNX only, max_dim 1) are no limit */
    cr_expect_eq(count(json_object_get(r.report, "summary"), "NOT_SUPPORTED"), 9);
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(skips, not_supported_keeps_the_candidates_reason)
{
    run r = run_harness("--candidate " CANDS "not_supported_reason.so --cases " BASIC);
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert(r.report);
    expect_verdict(&r, "ok_u4_padding", "dense", "NOT_SUPPORTED",
                   "supports() said NOT_SUPPORTED: no 4-bit kernels");
    expect_verdict(&r, "trigger_f32", "strided_dst", "NOT_SUPPORTED",
                   "execute returned NOT_SUPPORTED: strided dst: only dense outputs");
    json_t *g = skip_group(&r, "supports() said NOT_SUPPORTED: no N-bit kernels");
    cr_assert(g, "no group for the candidate's reason");
    cr_expect_eq(count(g, "runs"), 10);
    g = skip_group(&r, "execute returned NOT_SUPPORTED: strided dst: only dense outputs");
    cr_assert(g);
    cr_expect_eq(count(g, "runs"), 5);
    cr_expect_eq(count(json_object_get(g, "ops"), "openvino_reshape_1"), 5);
    cr_expect_eq(count(json_object_get(g, "variants"), "strided_dst"), 5);
    run_free(&r);
}

Test(skips, every_view_has_a_section_of_its_own)
{
    char dir[64], path[256];
    temp_template(dir, sizeof dir, "/tmp/harness-skips-");
    cr_assert(mkdtemp(dir));
    run r = run_harness("--candidate " CANDS "not_supported_reason.so --cases " BASIC
                        " --report-dir %s", dir);
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    snprintf(path, sizeof path, "%s/report.md", dir);
    char *md = slurp(path);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *html = slurp(path);
    snprintf(path, sizeof path, "%s/report.xml", dir);
    char *xml = slurp(path);
    cr_expect(strstr(md, "### Skipped (15 entries: grouped by reason)"), "%s", md);
    cr_expect(strstr(md, "| supports() said NOT_SUPPORTED: no N-bit kernels | 10 | 1 | "
                         "openvino_reshape_1 (10) | u4 (10) |"), "%s", md);
    /* not mixed into the failing ones: nothing fails here */
    cr_expect_null(strstr(md, "### Not passing"), "%s", md);
    cr_expect(strstr(html, "<h3 id=\"skip-reasons\">Skipped, by reason</h3>"));
    cr_expect(strstr(html, "<td>execute returned NOT_SUPPORTED: strided dst: only dense "
                           "outputs</td><td>5</td>"));
    cr_expect(strstr(xml, "<skipped message=\"NOT_SUPPORTED: supports() said NOT_SUPPORTED: no "
                          "4-bit kernels\"/>"), "%s", xml);
    cr_expect(strstr(xml, "<property name=\"skips\" value=\"15 runs for 2 reasons\"/>"), "%s",
              xml);
    /* the properties keep it valid JUnit */
    snprintf(path, sizeof path, "xmllint --noout --schema tests/reports/junit.xsd %s/report.xml "
             ">/dev/null 2>&1", dir);
    cr_expect_eq(system(path), 0, "%s/report.xml is no valid JUnit", dir);
    free(md);
    free(html);
    free(xml);
    run_free(&r);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    cr_expect_eq(system(path), 0);
}
