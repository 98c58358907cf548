/*
 * test_determinism.c - two runs of the same candidate give the same
 * verdict (and detail) for every (case, variant): the reference over the
 * whole suite, and broken candidates whose defects crash, write outside
 * dst and leak, over a quarter of it.  A verdict that depends on timing,
 * on which worker took a job or on leftovers of an earlier job shows here.
 * (Races are left out: which interleavings a run meets varies by nature.)
 */
#include "run_harness.h"

/* "id/variant" -> "VERDICT: detail" of a report (for LEAK the verdict
 * only: its detail gives the worker's bytes in use, which depend on what
 * that worker ran before).  New reference. */
static json_t *verdicts(const run *r)
{
    json_t *m = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e) {
        char key[512], val[2048];
        snprintf(key, sizeof key, "%s/%s", field(e, "id"), field(e, "variant"));
        int leak = !strcmp(field(e, "verdict"), "LEAK");
        snprintf(val, sizeof val, "%s: %s", field(e, "verdict"), leak ? "" : field(e, "detail"));
        cr_expect_null(json_object_get(m, key), "%s twice in one report", key);
        json_object_set_new(m, key, json_string(val));
    }
    return m;
}

static void expect_same_twice(const char *args, int min_failing)
{
    run a = run_harness("%s --quiet", args);
    run b = run_harness("%s --quiet --jobs 1", args);
    cr_assert(a.report && b.report, "%s: no report: %s %s", args, a.err, b.err);
    json_t *va = verdicts(&a), *vb = verdicts(&b);
    cr_expect_eq(json_object_size(va), json_object_size(vb), "%s: %zu and %zu results", args,
                 json_object_size(va), json_object_size(vb));
    int differ = 0, failing = 0;
    const char *key;
    json_t *v;
    json_object_foreach(va, key, v) {
        const char *x = json_string_value(v);
        const char *y = json_string_value(json_object_get(vb, key));
        failing += strncmp(x, "PASS", 4) != 0 && strncmp(x, "NOT_SUPPORTED", 13) != 0;
        if (!y || strcmp(x, y)) {
            if (differ++ < 10)
                cr_log_error("%s: %s: '%s' then '%s'", args, key, x, y ? y : "(none)");
        }
    }
    cr_expect_eq(differ, 0, "%s: %d results differ between two runs", args, differ);
    cr_expect_geq(failing, min_failing, "%s: only %d failing results: the defect did not show",
                  args, failing);
    json_decref(va);
    json_decref(vb);
    run_free(&a);
    run_free(&b);
}

Test(determinism, the_reference_twice_over_the_whole_suite, .timeout = 300)
{
    expect_same_twice("--candidate build/libreshape_ref.so", 0);
}

Test(determinism, a_crashing_candidate_twice, .timeout = 300)
{
    expect_same_twice("--candidate build/broken/segfault_on_shape.so --shard 2/4", 1);
}

Test(determinism, a_candidate_writing_before_dst_twice, .timeout = 300)
{
    expect_same_twice("--candidate build/broken/writes_before_dst.so --shard 1/4", 1);
}

Test(determinism, a_leaking_candidate_twice, .timeout = 300)
{
    expect_same_twice("--candidate build/broken/leaks_per_call.so --shard 1/4", 1);
}

/* Regression: growth that stops is no LEAK.  A burst of 400 calls keeping
 * 88 bytes each, straddling the end of the warm-up, grew in each of the 4
 * intervals the repeat variant sampled before (LEAK, as ONNX Runtime got
 * in one full run of ten); over 20 intervals it grows in fewer than 19. */
Test(determinism, a_burst_of_growth_after_the_warm_up_is_no_leak)
{
    run r = run_harness("--candidate " CANDS "burst_alloc.so --cases " BASIC
                        " --quiet --variants repeat");
    cr_expect_eq(r.code, 0, "exit %d: %s %s", r.code, r.out, r.err);
    expect_verdict(&r, "ok_big_f32", "repeat", "PASS", "");
    run_free(&r);
}

/* Regression: a repeat request that supports() refuses takes no memory
 * sample, and the parent gave the next request's samples to it: the four
 * repeat requests of ONNX Reshape-14, in a batch after the twelve refused
 * of the other ops, were LEAK ("stopped at 0 sampling points"), as ONNX
 * Runtime's were in the scoreboard.  Samples go by the running request. */
Test(determinism, refused_repeat_requests_leave_the_others_samples_alone)
{
    run r = run_harness("--candidate " CANDS "supports_onnx_only.so --quiet --variants repeat");
    cr_expect_eq(r.code, 0, "exit %d: %s %s", r.code, r.out, r.err);
    cr_assert(r.report);
    int pass = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r.report, "cases"), i, e) {
        const char *v = json_string_value(json_object_get(e, "verdict"));
        cr_expect(strcmp(v, "LEAK") != 0, "%s: %s", json_string_value(json_object_get(e, "id")),
                  json_string_value(json_object_get(e, "detail")));
        pass += strcmp(v, "PASS") == 0;
    }
    cr_expect_eq(pass, 4, "ONNX's four repeat requests pass");
    run_free(&r);
}
