/*
 * test_contract.c - contract cases (cases/FORMAT.md, "Contract cases"): the
 * loader's checks of `abuse`, the worker making each abused call, the
 * verdicts of candidates that crash on or accept such a call, and the run
 * verdict of a candidate that supports nothing.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "suite/suite.h"
#include "run_harness.h"

#define CONTRACT "tests/harness/data/contract"
#define SUITE_CONTRACT "cases/generated/contract.yaml"

static case_set load(const char *yaml)
{
    case_set s;
    memset(&s, 0, sizeof s);
    case_load_text(&s, "t.yaml", yaml, strlen(yaml));
    return s;
}

#define CASE(abuse, extra)                                        \
    "cases:\n"                                                    \
    "  - id: one\n"                                               \
    "    op: openvino_reshape_1\n"                                \
    "    clause: \"include/reshape_candidate.h, execute\"\n"      \
    "    quote: \"q\"\n"                                          \
    "    input: {dtype: f32, dims: [2, 3]}\n"                     \
    "    shape: {dtype: s64, values: [2, 3]}\n"                   \
    "    special_zero: false\n" extra                             \
    "    expect: {error: INVALID_ARGUMENT}\n"                     \
    "    abuse: " abuse "\n"

Test(contract, loader_reads_every_abuse_and_its_clause)
{
    case_set s = load(CASE("in_place_strided", ""));
    cr_assert_eq(s.nerrors, 0, "%s", s.nerrors ? s.errors[0].message : "");
    cr_assert_eq(s.ncases, 1);
    cr_expect_eq(s.cases[0].abuse, ABUSE_IN_PLACE_STRIDED);
    case_set_free(&s);
    for (int a = ABUSE_NONE + 1; a < ABUSE_COUNT; a++) {
        cr_expect_eq(abuse_parse(abuse_name((case_abuse)a)), a);
        cr_expect(strstr(abuse_names(), abuse_name((case_abuse)a)));
    }
    cr_expect_eq(abuse_parse("none"), -1);
}

Test(contract, loader_refuses_an_unknown_abuse_with_its_position)
{
    case_set s = load(CASE("params_missing", ""));
    cr_assert_eq(s.nerrors, 1);
    cr_expect_eq(s.ncases, 0);
    cr_expect_eq(s.errors[0].line, 10);
    cr_expect_eq(s.errors[0].column, 12);
    cr_expect(strstr(s.errors[0].message, "unknown abuse 'params_missing' (one of params_null,"),
              "%s", s.errors[0].message);
    case_set_free(&s);
}

Test(contract, loader_refuses_an_abuse_the_case_cannot_make)
{
    case_set s = load(CASE("dst_null", "    infer_only: true\n"));
    cr_assert_eq(s.nerrors, 1);
    cr_expect(strstr(s.errors[0].message, "made by execute only"), "%s", s.errors[0].message);
    case_set_free(&s);
    s = load(CASE("out_rank_null", ""));
    cr_assert_eq(s.nerrors, 1);
    cr_expect(strstr(s.errors[0].message, "needs infer_only: true"), "%s", s.errors[0].message);
    case_set_free(&s);
    /* [2, 3]: dims[0] is below 4, and the input is no scalar */
    s = load(CASE("src_stride_wraps", ""));
    cr_assert_eq(s.nerrors, 1);
    cr_expect(strstr(s.errors[0].message, "first dim is >= 4"), "%s", s.errors[0].message);
    case_set_free(&s);
    s = load(CASE("strides_scalar", ""));
    cr_assert_eq(s.nerrors, 1);
    cr_expect(strstr(s.errors[0].message, "rank 0 and a shape of no values"), "%s",
              s.errors[0].message);
    case_set_free(&s);
}

Test(contract, the_reference_passes_every_contract_case_strictly)
{
    run r = run_harness("--candidate build/libreshape_ref.so --cases " SUITE_CONTRACT
                        " --quiet --strict-errors");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    json_t *sum = json_object_get(r.report, "summary");
    json_int_t total = json_integer_value(json_object_get(sum, "total"));
    cr_expect_gt(total, 200);
    cr_expect_eq(json_integer_value(json_object_get(sum, "PASS")), total);
    /* the execute-only abuses have no infer run, out_*_null no dense one */
    cr_expect(entry(&r, "contract_openvino_dst_null", "dense"));
    cr_expect_null(entry(&r, "contract_openvino_dst_null", "infer"));
    cr_expect(entry(&r, "contract_openvino_out_rank_null", "infer"));
    cr_expect_null(entry(&r, "contract_openvino_out_rank_null", "dense"));
    cr_expect_null(entry(&r, "contract_openvino_params_null", "in_place"));
    run_free(&r);
}

/* good.so checks no pointer and reads special_zero as a truth value: the
 * abused calls crash it or are accepted, each judged by the usual rules. */
Test(contract, a_candidate_that_crashes_on_or_accepts_misuse_fails)
{
    run r = run_harness("--candidate " CANDS "good.so --cases " CONTRACT " --quiet");
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "params_null", "infer", "CRASH", "SIGSEGV");
    expect_verdict(&r, "params_null", "dense", "CRASH", "in execute");
    expect_verdict(&r, "special_zero_2", "infer", "ACCEPTED_INVALID",
                   "returned OK, expected error INVALID_ARGUMENT");
    expect_verdict(&r, "dst_null", "dense", "CRASH", "SIGSEGV");
    expect_verdict(&r, "scalar_dims_null", "infer", "PASS", "");
    expect_verdict(&r, "scalar_dims_null", "dense", "PASS", "");
    run_free(&r);
}

Test(contract, supporting_nothing_is_not_conformant)
{
    run r = run_harness("--candidate " CANDS "supports_nothing.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_expect_str_eq(json_string_value(json_object_get(r.report, "verdict")), "nonconformant");
    json_t *sum = json_object_get(r.report, "summary");
    cr_expect_eq(json_integer_value(json_object_get(sum, "NOT_SUPPORTED")),
                 json_integer_value(json_object_get(sum, "total")));
    cr_expect(strstr(r.err, "no (case, variant) passed"), "%s", r.err);
    cr_expect(strstr(r.out, "nonconformant:"), "%s", r.out);
    run_free(&r);
}

Test(contract, skipping_a_layout_is_still_conformant)
{
    run r = run_harness("--candidate " CANDS "supports_dense_only.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_expect_str_eq(json_string_value(json_object_get(r.report, "verdict")), "conformant");
    json_t *sum = json_object_get(r.report, "summary");
    cr_expect_gt(json_integer_value(json_object_get(sum, "NOT_SUPPORTED")), 0);
    cr_expect_gt(json_integer_value(json_object_get(sum, "PASS")), 0);
    expect_verdict(&r, "ok_big_f32", "strided_dst", "NOT_SUPPORTED", "supports()");
    run_free(&r);
}
