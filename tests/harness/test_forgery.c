/*
 * test_forgery.c - the forgeries of issue 19, made as a forger with this
 * repository would make them: the bundle read and written again with
 * libarchive (bundle.c), the report edited with jansson, the summary,
 * JUnit, Markdown and HTML made again with our own code (report_summarize,
 * report_write_junit, reports/render.py) and the manifest recomputed.
 * `verify` must name each: a flipped verdict, edited results, a dropped
 * variant, a swapped suite, a report from another candidate (signatures:
 * test_signature.c).  What only a rerun can see (results edited and
 * everything made consistent) is caught by `verify --rerun`.
 */
#include "forge.h"

Test(forgery, a_flipped_verdict_is_verdict_mismatch, .timeout = 120)
{
    forge f;
    forge_certify(&f, "wrong_shape", BASIC);
    cr_assert_eq(f.code, 1);
    json_t *r = member(&f.b, "report.json");
    json_object_set_new(r, "verdict", json_string("conformant"));
    put_report(&f, r);
    forge_write(&f);
    char *out;
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: verdict-mismatch: the report says 'conformant'; its results make it "
             "'nonconformant' (8 count against conformance)\n");
    cr_expect_not(strstr(out, "manifest-mismatch"), "%s", out);
    free(out);
    forge_free(&f);
}

Test(forgery, edited_results_are_caught_by_what_they_imply_or_by_a_rerun, .timeout = 120)
{
    forge f;
    forge_certify(&f, "wrong_shape", BASIC);
    cr_assert_eq(f.code, 1);
    char *out;
    /* results edited, the rest left: the summary, matrices, views disagree */
    json_t *r = member(&f.b, "report.json");
    set_verdicts(r, "FAIL", "PASS");
    put(&f.b, "report.json", r);
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: verdict-mismatch: the report says 'nonconformant'; its results make it "
             "'conformant' (0 count against conformance)\n");
    HAS(out, "problem: summary-mismatch: the summary's 'PASS' is 57; the results give 65\n");
    HAS(out, "problem: matrix-mismatch: matrix 'op_clause' is not what the results give\n");
    HAS(out, "problem: junit-mismatch: report.xml is not what report.json renders");
    HAS(out, "problem: markdown-mismatch: report.md is not what report.json renders");
    HAS(out, "problem: html-mismatch: report.html is not what report.json renders");
    free(out);
    /* and everything made to agree: only the rerun shows it */
    r = member(&f.b, "report.json");
    report_summarize(r);
    put_report(&f, r);
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 0, "%s", out);
    HAS(out, "valid: '");
    free(out);
    cr_expect_eq(verify(f.forged, "--cases " BASIC " --rerun " CANDS "wrong_shape.so", &out), 1);
    HAS(out, "problem: rerun-verdict-mismatch: trigger_f32/dense: the bundle says PASS, the rerun "
             "FAIL: returned error INVALID_ARGUMENT, expected shape [4,6]\n");
    HAS(out, "rerun: '" CANDS "wrong_shape.so' (sha256 ");
    HAS(out, "65 results, verdicts differ from the bundle's\n");
    free(out);
    /* the bundle as certify wrote it is reproduced */
    cr_expect_eq(verify(f.path, "--cases " BASIC " --rerun " CANDS "wrong_shape.so", &out), 0,
                 "%s", out);
    HAS(out, "65 results, every verdict as the bundle says\n");
    free(out);
    forge_free(&f);
}

Test(forgery, a_dropped_variant_is_variant_missing, .timeout = 120)
{
    forge f;
    forge_certify(&f, "wrong_shape", BASIC);
    json_t *r = member(&f.b, "report.json"), *kept = json_array();
    size_t i;
    json_t *e;
    /* the strided_dst results, trigger_f32's among them, are gone */
    json_array_foreach(json_object_get(r, "cases"), i, e)
        if (strcmp(json_string_value(json_object_get(e, "variant")), "strided_dst"))
            json_array_append(kept, e);
    json_object_set_new(r, "cases", kept);
    report_summarize(r);
    put_report(&f, r);
    forge_write(&f);
    char *out;
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: variant-missing: trigger_f32/strided_dst applies and has no result\n");
    HAS(out, "problem: variant-missing: ok_big_f32/strided_dst applies and has no result\n");
    cr_expect_not(strstr(out, "verdict-mismatch"), "%s", out);
    free(out);
    forge_free(&f);
}

/* Copies the data set BASIC to DIR/suite with `sed` applied to its case
 * file; returns the folder. */
static const char *suite_copy(const forge *f, const char *sed, char *buf, size_t size)
{
    snprintf(buf, size, "%s/suite", f->dir);
    cr_assert_eq(sh_status("mkdir -p %s && sed %s " BASIC "/cases.yaml >%s/cases.yaml", buf, sed, buf), 0);
    return buf;
}

Test(forgery, a_swapped_suite_is_suite_digest_mismatch, .timeout = 120)
{
    forge f, real;
    forge_certify(&real, "good", BASIC);
    /* trigger_f32, the case wrong_shape fails, accepts its wrong shape in this
     * suite: the ids are the same, a case's text is not */
    char dir[128];
    forge_init(&f);
    suite_copy(&f, "-e 's/expect: {shape: \\[4, 6\\]}/expect: {any_of: [{shape: [6, 4]}, "
                   "{error: INVALID_ARGUMENT}], note: \"x\"}/'", dir, sizeof dir);
    cr_assert_eq(sh_status("%s certify --candidate " CANDS "wrong_shape.so --cases %s --out %s/out --quiet "
                    ">/dev/null 2>&1", harness_bin(), dir, f.dir), 0, "conformant on its own suite");
    char *err = NULL;
    cr_assert_eq(bundle_read(&f.b, f.path, &err), 0, "%s", err);
    char *out;
    cr_expect_eq(verify(f.path, "--cases " BASIC, &out), 1);
    HAS(out, "problem: suite-digest-mismatch: the report ran suite ");
    HAS(out, "problem: suite-digest-mismatch: suite.json describes suite ");
    free(out);
    /* the digests made the real suite's: the cases' own fields disagree */
    json_t *r = member(&f.b, "report.json"), *rs = member(&real.b, "report.json");
    json_object_set(json_object_get(r, "suite"), "cases_sha256",
                    json_object_get(json_object_get(rs, "suite"), "cases_sha256"));
    put_report(&f, r);
    json_decref(rs);
    put(&f.b, "suite.json", member(&real.b, "suite.json"));
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    cr_expect_not(strstr(out, "suite-digest-mismatch"), "%s", out);
    HAS(out, "problem: result-mismatch: trigger_f32/infer: its 'expected' is not the suite's");
    HAS(out, "problem: result-mismatch: trigger_f32/dense: its 'expected' is not the suite's");
    cr_expect_not(strstr(out, "verdict-mismatch"), "%s", out);
    free(out);
    forge_free(&f);
    forge_free(&real);
}

Test(forgery, a_report_from_another_candidate_is_candidate_mismatch, .timeout = 120)
{
    forge f, good;
    forge_certify(&f, "wrong_shape", BASIC);
    forge_certify(&good, "good", BASIC);
    put_report(&f, member(&good.b, "report.json"));
    forge_write(&f);
    char *out;
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: candidate-mismatch: the report tested candidate ");
    free(out);
    /* candidate.sha256 too: a whole bundle of good.so, which the rerun of
     * wrong_shape.so tells apart */
    const bundle_member *cm = bundle_get(&good.b, BUNDLE_CANDIDATE);
    bundle_add(&f.b, BUNDLE_CANDIDATE, cm->data, cm->size);
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC " --rerun " CANDS "wrong_shape.so", &out), 1);
    HAS(out, "problem: rerun-candidate-mismatch: '" CANDS "wrong_shape.so' has sha256 ");
    free(out);
    forge_free(&f);
    forge_free(&good);
}
