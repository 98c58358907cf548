/*
 * test_isolation.c - each test candidate's defect gets its verdict, and
 * the run goes on: every other case still passes.  Runs the real
 * reshape-conform on tests/harness/data/basic.
 */
#include "run_harness.h"

#include "judge/judge.h"

Test(isolation, good_candidate_is_conformant)
{
    run r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 0, "exit %d: %s %s", r.code, r.out, r.err);
    cr_assert(r.report);
    cr_expect_str_eq(field(r.report, "verdict"), "conformant");
    static const char *const variants[] = {"dense", "in_place", "strided_src_padded",
        "strided_src_permuted", "strided_dst", "misaligned", "dst_too_small", "infer"};
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++)
        expect_verdict(&r, "trigger_f32", variants[i], "PASS", "");
    expect_verdict(&r, "err_volume", "dense", "PASS", "");
    expect_verdict(&r, "ok_16k_f32", "threads", "PASS", "");
    expect_verdict(&r, "ok_u4_padding", "repeat", "PASS", "");
    cr_expect_null(entry(&r, "err_volume", "in_place"), "no in_place for an error case");
    cr_expect(json_is_true(json_object_get(entry(&r, "err_volume", "dense"), "status_agrees")));
    cr_expect_eq(others_not_passing(&r, NULL), 0);
    run_free(&r);
}

Test(isolation, segfault_is_crash_and_the_run_goes_on)
{
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "SIGSEGV at address 0x0 in execute");
    expect_verdict(&r, "trigger_f32", "misaligned", "CRASH", "SIGSEGV");
    expect_verdict(&r, "trigger_f32", "infer", "PASS", "");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, abort_is_crash_with_its_message)
{
    run r = run_harness("--candidate " CANDS "abort.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "signal 6");
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "assertion failed: trigger");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, exit_zero_is_crash)
{
    run r = run_harness("--candidate " CANDS "exit0.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "exited with status 0 in execute");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, hang_is_timeout, .timeout = 60)
{
    run r = run_harness("--candidate " CANDS "hang.so --cases " BASIC
                        " --quiet --timeout-ms 300 --variants dense,infer");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "TIMEOUT", "no return within 300 ms (in execute)");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, write_past_dst_is_memory_violation)
{
    run r = run_harness("--candidate " CANDS "write_past_dst.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "MEMORY_VIOLATION", "past the end of dst");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, write_far_past_dst_faults_in_the_guard_page)
{
    run r = run_harness("--candidate " CANDS "write_far_past_dst.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "MEMORY_VIOLATION",
                   "past the end of dst (guard page) (SIGSEGV in execute)");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, write_before_dst_is_memory_violation)
{
    run r = run_harness("--candidate " CANDS "write_before_dst.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "MEMORY_VIOLATION", "1 bytes before dst");
    expect_verdict(&r, "trigger_f32", "strided_dst", "MEMORY_VIOLATION", "before dst");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, write_into_src_is_memory_violation)
{
    run r = run_harness("--candidate " CANDS "write_into_src.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "MEMORY_VIOLATION", "in src at byte 0");
    expect_verdict(&r, "trigger_f32", "in_place", "PASS", "");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, flood_is_flood_and_never_reaches_our_output)
{
    run r = run_harness("--candidate " CANDS "flood.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "FLOOD", "more than 65536 bytes");
    cr_expect_null(strstr(r.out, "00000000"), "candidate output leaked into stdout");
    cr_expect_null(strstr(r.err, "00000000"), "candidate output leaked into stderr");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, leak_per_call_is_leak)
{
    run r = run_harness("--candidate " CANDS "leak.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "ok_big_f32", "repeat", "LEAK", "bytes per call over 1000 calls");
    expect_verdict(&r, "ok_big_f32", "dense", "PASS", "");
    run_free(&r);
}

Test(isolation, global_scratch_buffer_is_a_race)
{
    run r = run_harness("--candidate " CANDS "race.so --cases " BASIC " --quiet --variants threads");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "ok_16k_f32", "threads", "FAIL", "race: ");
    run_free(&r);
}

Test(isolation, wrong_shape_fails_infer)
{
    run r = run_harness("--candidate " CANDS "wrong_shape.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "infer", "FAIL", "wrong shape [6,4], expected shape [4,6]");
    expect_verdict(&r, "trigger_f32", "dense", "FAIL", "returned error INVALID_ARGUMENT");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, accepting_invalid_input_is_accepted_invalid)
{
    run r = run_harness("--candidate " CANDS "accept_invalid.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "err_two_minus_ones", "infer", "ACCEPTED_INVALID",
                   "returned OK, expected error MULTIPLE_MINUS_ONE");
    cr_expect_eq(others_not_passing(&r, "err_two_minus_ones"), 0);
    run_free(&r);
}

Test(isolation, fork_and_none_modes_agree_with_workers)
{
    run w = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet");
    run f = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet --isolation fork");
    run n = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet --isolation none");
    cr_expect_eq(f.code, 0, "%s", f.err);
    cr_expect_eq(n.code, 0, "%s", n.err);
    json_int_t total = json_integer_value(json_object_get(json_object_get(w.report, "summary"), "total"));
    cr_expect_gt(total, 40);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(f.report, "summary"), "PASS")), total);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(n.report, "summary"), "PASS")), total);
    run_free(&w);
    run_free(&f);
    run_free(&n);
}

/* A worker is never a fork of the harness (whose every page would then be
 * copied on its next write): the harness spawns a zygote per slot, and
 * every worker, one per request with --isolation fork too, is a fork of
 * that spawned image, which the candidate sees. */
Test(isolation, workers_are_spawned_not_forked)
{
    run w = run_harness("--candidate " CANDS "spawned_only.so --cases " BASIC " --quiet --variants dense");
    run f = run_harness("--candidate " CANDS "spawned_only.so --cases " BASIC
                        " --quiet --variants dense --isolation fork");
    cr_expect_eq(w.code, 0, "%s %s", w.out, w.err);
    cr_expect_eq(f.code, 0, "%s %s", f.out, f.err);
    run_free(&w);
    run_free(&f);
}

Test(isolation, a_worker_started_by_hand_explains_itself)
{
    run r = run_harness("__worker");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "started by the harness itself") != NULL, "%s", r.err);
    run_free(&r);
}

Test(isolation, fork_mode_survives_a_crash)
{
    run r = run_harness("--candidate " CANDS "segfault.so --cases " BASIC " --quiet --isolation fork");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "SIGSEGV");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

Test(isolation, out_rank_beyond_32_is_fail_never_read)
{
    run r = run_harness("--candidate " CANDS "no_out_rank.so --cases " BASIC " --quiet --variants infer");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "trigger_f32", "infer", "FAIL", "out_rank 2147483647 is outside 0..32");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

/* Regression: a case that accepts a shape or an error runs dst_too_small;
 * the candidate refuses with the case's own error, which must pass and
 * agree even under --strict-errors, and the report must say so. */
Test(isolation, dst_too_small_accepts_the_cases_own_error)
{
    run r = run_harness("--candidate " CANDS "good.so --cases tests/harness/data/open"
                        " --quiet --strict-errors");
    cr_expect_eq(r.code, 0, "exit %d: %s %s", r.code, r.out, r.err);
    expect_verdict(&r, "open_rank_0_shape", "dst_too_small", "PASS", "");
    json_t *e = entry(&r, "open_rank_0_shape", "dst_too_small");
    cr_assert(e);
    cr_expect(json_is_true(json_object_get(e, "status_agrees")));
    cr_expect_str_eq(field(e, "got"), "error SHAPE_NOT_1D");
    expect_verdict(&r, "open_rank_0_shape", "dense", "PASS", "");
    expect_verdict(&r, "open_rank_0_shape", "in_place", "PASS", "");
    cr_expect_eq(others_not_passing(&r, NULL), 0);
    run_free(&r);
}

/* The expectation a variant holds a case to: dst_too_small names
 * INVALID_ARGUMENT and every error the case itself lists. */
Test(isolation, dst_too_small_expectation_names_the_cases_errors)
{
    rcase c;
    memset(&c, 0, sizeof c);
    c.noutcomes = 2;
    c.any_of = 1;
    c.outcomes[0].is_error = 1;
    c.outcomes[0].error = RESHAPE_E_SHAPE_NOT_1D;
    c.outcomes[1].rank = 1;
    c.outcomes[1].dims[0] = 6;
    char *d = job_expected_describe(&c, V_DST_TOO_SMALL);
    cr_expect_str_eq(d, "any of: error INVALID_ARGUMENT (dst one element short), error SHAPE_NOT_1D");
    free(d);
    d = job_expected_describe(&c, V_DENSE);
    cr_expect_str_eq(d, "any of: error SHAPE_NOT_1D, shape [6]");
    free(d);
    c.noutcomes = 1;
    c.any_of = 0;
    c.outcomes[0] = c.outcomes[1];
    d = job_expected_describe(&c, V_DST_TOO_SMALL);
    cr_expect_str_eq(d, "error INVALID_ARGUMENT (dst one element short)");
    free(d);
}

/* Regression: NOT_SUPPORTED from execute is a skip in the threads variant
 * as in every other, not a FAIL; the other cases of its thread group still
 * pass. */
Test(isolation, not_supported_in_threads_is_a_skip)
{
    run r = run_harness("--candidate " CANDS "not_supported_16k.so --cases " BASIC
                        " --quiet --variants dense,threads");
    cr_expect_eq(r.code, 0, "exit %d: %s %s", r.code, r.out, r.err);
    expect_verdict(&r, "ok_16k_f32", "dense", "NOT_SUPPORTED", "execute returned NOT_SUPPORTED");
    expect_verdict(&r, "ok_16k_f32", "threads", "NOT_SUPPORTED", "execute returned NOT_SUPPORTED");
    cr_expect_str_eq(field(entry(&r, "ok_16k_f32", "threads"), "got"), "error NOT_SUPPORTED");
    expect_verdict(&r, "ok_big_f32", "threads", "PASS", "");
    cr_expect_eq(others_not_passing(&r, "ok_16k_f32"), 0);
    run_free(&r);
}

/* Regression: allocations of a kernel's first calls (a cache warming up)
 * are no LEAK; the measurement starts after the warm-up calls.  A leak of
 * every call is still caught (leak_per_call_is_leak). */
Test(isolation, warm_up_allocations_are_no_leak)
{
    run r = run_harness("--candidate " CANDS "warmup_alloc.so --cases " BASIC
                        " --quiet --variants repeat");
    cr_expect_eq(r.code, 0, "exit %d: %s %s", r.code, r.out, r.err);
    expect_verdict(&r, "ok_big_f32", "repeat", "PASS", "");
    cr_expect_eq(others_not_passing(&r, NULL), 0);
    run_free(&r);
}

/* Regression: dims whose dense strides leave int64 (an infer-only volume
 * of 2^62, an empty tensor beside dims of 2^40) run without a signed
 * overflow; under UBSan (make test-harness-san) one would stop the run. */
Test(isolation, huge_dims_run_without_overflow)
{
    run r = run_harness("--candidate " CANDS "good.so --cases tests/harness/data/extremes --quiet");
    cr_expect_eq(r.code, 0, "exit %d: %s %s", r.code, r.out, r.err);
    cr_expect_null(strstr(r.err, "runtime error"), "%s", r.err);
    cr_assert(r.report, "no report: %s", r.err);
    expect_verdict(&r, "huge_volume_2p62_infer_only", "infer", "PASS", "");
    cr_expect_null(entry(&r, "huge_volume_2p62_infer_only", "dense"), "an infer-only case runs infer alone");
    static const char *const variants[] = {"dense", "in_place", "strided_src_padded",
        "strided_src_permuted", "strided_dst", "misaligned", "infer"};
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++)
        expect_verdict(&r, "zero_dim_beside_huge_dims", variants[i], "PASS", "");
    cr_expect_eq(others_not_passing(&r, NULL), 0);
    run_free(&r);
}

/* (id, variant) -> verdict of every entry of `r` but the threads ones. */
static json_t *verdicts_but_threads(const run *r)
{
    json_t *map = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e) {
        if (!strcmp(field(e, "variant"), "threads"))
            continue;
        char key[512];
        snprintf(key, sizeof key, "%s/%s", field(e, "id"), field(e, "variant"));
        json_object_set_new(map, key, json_string(field(e, "verdict")));
    }
    return map;
}

/*
 * A copy one byte past the end reads the byte after src and writes it
 * after dst.  That byte is the complement of the canary it lands on, so
 * every such copy is caught (a byte left by an earlier job, or a canary
 * of a stream of its own, matched it 1 time in 256), and the verdicts are
 * the same whatever the number of slots and the order they took the jobs
 * in (the canaries are seeded by the job, not by that order).
 */
/* 300 s: two whole-suite runs, each dense case a worker replaced; the
 * sanitized harness took over 120 s at load 8 to 15 on the 2 shared cores.
 * Dense and infer only: every other layout crashes as well, and with all of
 * them this was the costliest test of make test (58 CPU-s plain and
 * sanitized), for no more than what dense shows. */
Test(isolation, a_copy_past_the_end_is_always_caught_and_verdicts_do_not_depend_on_jobs,
     .timeout = 300)
{
    run one = run_harness("--candidate " CANDS "copies_one_past.so --cases cases "
                          "--variants dense,infer --jobs 1 --quiet");
    run three = run_harness("--candidate " CANDS "copies_one_past.so --cases cases "
                            "--variants dense,infer --jobs 3 --quiet");
    cr_assert(one.report && three.report, "%s %s", one.err, three.err);
    size_t i, dense = 0;
    json_t *e;
    json_array_foreach(json_object_get(one.report, "cases"), i, e) {
        /* contract cases make their own call (a stride of 0, NULL data),
         * and layout cases theirs (strides: the copy is not dense) */
        if (strcmp(field(e, "variant"), "dense") || strncmp(field(e, "expected"), "shape", 5) ||
            !strcmp(field(e, "verdict"), "NOT_SUPPORTED") || !strncmp(field(e, "id"), "contract_", 9) ||
            !strncmp(field(e, "id"), "layout_", 7))
            continue;
        dense++;
        cr_expect_str_neq(field(e, "verdict"), "PASS", "%s/dense passed", field(e, "id"));
    }
    cr_expect_gt(dense, 1000);
    json_t *a = verdicts_but_threads(&one), *b = verdicts_but_threads(&three);
    const char *key;
    json_t *v;
    int differ = 0;
    json_object_foreach(a, key, v) {
        const char *w = json_string_value(json_object_get(b, key));
        if (!w || strcmp(w, json_string_value(v))) {
            cr_log_error("%s: %s with --jobs 1, %s with --jobs 3", key, json_string_value(v),
                         w ? w : "absent");
            differ++;
        }
    }
    cr_expect_eq(differ, 0);
    cr_expect_eq(json_object_size(a), json_object_size(b));
    json_decref(a);
    json_decref(b);
    run_free(&one);
    run_free(&three);
}
