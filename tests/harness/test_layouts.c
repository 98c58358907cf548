/*
 * test_layouts.c - layouts (reference/DECISIONS.md D12, cases/FORMAT.md
 * "Layouts"): the loader reading a case's strides, offset, dst and
 * in_place and refusing with FILE:LINE:COL what the rules forbid; the
 * extents and overlaps of strided.h; the flags the variants ask with; and
 * end to end, the src_stride_zero on [4] judged by the header's
 * definition, the reference passing every layout case strictly, a
 * candidate whose supports() knows only the first flags skipped cleanly.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "suite/suite.h"
#include "judge/judge.h"
#include "run_harness.h"

#define HEAD                                                     \
    "cases:\n"                                                   \
    "  - id: one\n"                                              \
    "    op: openvino_reshape_1\n"                               \
    "    clause: \"reference/DECISIONS.md, D12\"\n"              \
    "    quote: \"q\"\n"                                         \
    "    shape: {dtype: s64, values: [12]}\n"                    \
    "    special_zero: false\n"

static case_set load(const char *yaml)
{
    case_set s;
    memset(&s, 0, sizeof s);
    case_load_text(&s, "t.yaml", yaml, strlen(yaml));
    return s;
}

/* Asserts one error at line:col whose message holds `text`. */
static void refused(const char *yaml, int line, int col, const char *text)
{
    case_set s = load(yaml);
    cr_assert_eq(s.nerrors, 1, "want one error, got %d (first: %s)", s.nerrors,
                 s.nerrors ? s.errors[0].message : "-");
    cr_expect_eq(s.errors[0].line, line, "line %d (%s)", s.errors[0].line, s.errors[0].message);
    cr_expect_eq(s.errors[0].column, col, "column %d (%s)", s.errors[0].column,
                 s.errors[0].message);
    cr_expect(strstr(s.errors[0].message, text), "'%s' lacks '%s'", s.errors[0].message, text);
    cr_expect_eq(s.ncases, 0);
    case_set_free(&s);
}

Test(layouts_load, a_broadcast_view_of_a_padded_buffer_with_its_gathered_payload)
{
    /* u8 buffer 0..10, offset 2: rows of index 0 are 2 3 4, repeated */
    case_set s = load(HEAD "    input: {dtype: u8, dims: [4, 3], strides: [0, 1], offset: 2}\n"
                           "    expect: {shape: [12], data: {hex: \"020304020304020304020304\"}}\n");
    cr_assert_eq(s.nerrors, 0, "%s", s.nerrors ? s.errors[0].message : "");
    const rcase *c = &s.cases[0];
    cr_expect(c->src_layout.strided);
    cr_expect_eq(c->src_layout.strides[0], 0);
    cr_expect_eq(c->src_layout.offset, 2);
    cr_expect_eq(c->storage_elems, 5, "offset 2 + extent 3");
    cr_expect_eq(c->payload_bytes, 12);
    cr_expect(case_has_layout(c));
    case_set_free(&s);
}

Test(layouts_load, a_stated_payload_other_than_the_gather_is_refused)
{
    refused(HEAD "    input: {dtype: u8, dims: [4, 3], strides: [0, 1]}\n"
                 "    expect: {shape: [12], data: {hex: \"000102030405060708090a0b\"}}\n",
            9, 39, "differs from the input's elements gathered by their offsets at byte 3");
}

Test(layouts_load, strides_must_fit_the_dims_and_the_offset_a_byte)
{
    refused(HEAD "    input: {dtype: f32, dims: [4, 3], strides: [1]}\n"
                 "    expect: {shape: [12]}\n",
            8, 48, "'strides' has 1 entries, the tensor has rank 2");
    refused(HEAD "    input: {dtype: f32, dims: [12], offset: 3}\n    expect: {shape: [12]}\n",
            8, 45, "'offset' goes with 'strides'");
    refused(HEAD "    input: {dtype: u4, dims: [12], strides: [1], offset: 3}\n"
                 "    expect: {shape: [12]}\n",
            8, 58, "not on a byte boundary");
    refused(HEAD "    input: {dtype: f32, dims: [12], strides: [-1]}\n    expect: {shape: [12]}\n",
            8, 47, "between 0 and");
    refused(HEAD "    input: {dtype: f32, dims: [12], strides: [1152921504606846976]}\n"
                 "    expect: {shape: [12]}\n",
            8, 46, "past bit 2^63 - 8");
}

Test(layouts_load, an_overlapping_dst_or_a_strided_src_in_place_expects_errors_only)
{
    refused(HEAD "    input: {dtype: f32, dims: [12]}\n    expect: {shape: [12]}\n"
                 "    dst: {strides: [0]}\n",
            10, 20, "two elements of dst share an offset");
    refused(HEAD "    input: {dtype: f32, dims: [4, 3], strides: [0, 1]}\n"
                 "    expect: {shape: [12]}\n    in_place: true\n",
            10, 15, "in place with strides is refused");
    refused(HEAD "    input: {dtype: f32, dims: [12]}\n    expect: {shape: [12]}\n"
                 "    in_place: true\n",
            10, 15, "needs strides on src or dst");
    case_set s = load(HEAD "    input: {dtype: f32, dims: [12]}\n"
                           "    expect: {error: INVALID_ARGUMENT}\n"
                           "    dst: {dims: [4, 3], strides: [2, 1]}\n");
    cr_assert_eq(s.nerrors, 0, "%s", s.nerrors ? s.errors[0].message : "");
    cr_expect_eq(s.cases[0].dst_rank, 2);
    cr_expect(s.cases[0].dst_has_dims);
    case_set_free(&s);
}

/* The dst_stride_zero on [4]: dst's four elements at one offset,
 * which D12 refuses; a case expecting success is refused at load. */
Test(layouts_load, an_abuse_that_overlaps_dst_expects_errors_only)
{
    refused("cases:\n  - id: one\n    op: openvino_reshape_1\n"
            "    clause: \"include/reshape_candidate.h, execute\"\n    quote: \"q\"\n"
            "    input: {dtype: f32, dims: [4]}\n    shape: {dtype: s64, values: [4]}\n"
            "    special_zero: false\n    expect: {shape: [4]}\n    abuse: dst_stride_zero\n",
            2, 5, "abuse 'dst_stride_zero' makes two elements of dst share an offset");
}

Test(layouts_load, dst_dims_only_for_errors_and_of_the_input_volume)
{
    refused(HEAD "    input: {dtype: f32, dims: [12]}\n    expect: {shape: [12]}\n"
                 "    dst: {dims: [12]}\n",
            10, 17, "only in a case that expects errors alone");
    refused(HEAD "    input: {dtype: f32, dims: [12]}\n    expect: {error: INVALID_ARGUMENT}\n"
                 "    dst: {dims: [5], strides: [0]}\n",
            10, 17, "dst dims hold 5 elements, the input 12");
    refused(HEAD "    input: {dtype: f32, dims: [12], strides: [1]}\n"
                 "    expect: {shape: [12]}\n    infer_only: true\n",
            2, 5, "needs a case that executes");
}

/* D12's overlap test, step by step, and extents that ignore dims of 1. */
Test(layouts_strided, overlaps_and_extents)
{
    cr_expect_eq(strided_overlaps(1, (int64_t[]){4}, (int64_t[]){0}), 1);
    cr_expect_eq(strided_overlaps(2, (int64_t[]){1, 3}, (int64_t[]){0, 1}), 0);
    cr_expect_eq(strided_overlaps(2, (int64_t[]){4, 3}, (int64_t[]){2, 1}), 1, "pigeonhole");
    cr_expect_eq(strided_overlaps(2, (int64_t[]){4, 3}, (int64_t[]){2, 3}), 1, "offset 6 twice");
    cr_expect_eq(strided_overlaps(2, (int64_t[]){3, 2}, (int64_t[]){2, 3}), 0);
    cr_expect_eq(strided_overlaps(2, (int64_t[]){0, 3}, (int64_t[]){0, 0}), 0, "empty");
    cr_expect_eq(strided_overlaps(1, (int64_t[]){INT64_C(1) << 40}, (int64_t[]){1}), -1);
    cr_expect_eq(strided_extent(2, (int64_t[]){1, 4}, (int64_t[]){INT64_C(1) << 58, 1}), 4);
    cr_expect_eq(strided_extent(2, (int64_t[]){0, 4}, (int64_t[]){INT64_MAX, 1}), 0);
    cr_expect_eq(strided_extent(1, (int64_t[]){3}, (int64_t[]){INT64_MAX}), UINT64_MAX);
}

/* The flags a call asks supports() with: padded and permuted layouts ask
 * as before (their dims of 1 carry the dense stride); the new variants
 * add theirs. */
Test(layouts_strided, the_variants_ask_with_their_flags)
{
    const int64_t dims[3] = {1, 4, 3};
    tlayout l;
    layout_padded(&l, 3, dims, 32);
    cr_expect_eq(layout_flags(&l, 1), RESHAPE_LAYOUT_STRIDED_SRC);
    layout_permuted(&l, 3, dims, 32);
    cr_expect_eq(layout_flags(&l, 1), RESHAPE_LAYOUT_STRIDED_SRC);
    layout_broadcast(&l, 3, dims, 32);
    cr_expect_eq(l.strides[1], 0);
    cr_expect_eq(l.span_elems, 3, "the one stored row");
    cr_expect_eq(layout_flags(&l, 1), RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_BROADCAST_SRC);
    layout_size1(&l, 3, dims, 32);
    cr_expect_eq(l.strides[0], INT64_C(1) << 58);
    cr_expect_eq(l.span_elems, 12);
    cr_expect_eq(layout_flags(&l, 0), RESHAPE_LAYOUT_STRIDED_DST | RESHAPE_LAYOUT_SIZE1_STRIDES);
    layout_dense(&l, 3, dims, 32);
    cr_expect_eq(layout_flags(&l, 1), 0);
}

/* The report: src_stride_zero on [4] (f32 iota) reads element 0
 * four times, as the header defines, and the reference passes; a kernel
 * that reads the broadcast as dense fails it. */
Test(layouts_run, src_stride_zero_on_a_dim_of_4_is_judged_as_the_header_defines, .timeout = 60)
{
    char path[64];
    temp_template(path, sizeof path, "/tmp/harness-layout-");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *yaml = "cases:\n  - id: stride_zero_4\n    op: openvino_reshape_1\n"
                       "    clause: \"include/reshape_candidate.h, reshape_tensor, Layouts\"\n"
                       "    quote: \"q\"\n    input: {dtype: f32, dims: [4]}\n"
                       "    shape: {dtype: s64, values: [4]}\n    special_zero: false\n"
                       "    expect: {shape: [4]}\n    abuse: src_stride_zero\n";
    cr_assert_eq(write(fd, yaml, strlen(yaml)), (ssize_t)strlen(yaml));
    close(fd);
    run ok = run_harness("--candidate build/libreshape_ref.so --cases %s --quiet", path);
    cr_expect_eq(ok.code, 0, "%s%s", ok.out, ok.err);
    run bad = run_harness("--candidate build/broken/broadcast_read_as_dense.so --cases %s --quiet",
                          path);
    cr_expect_eq(bad.code, 1, "%s%s", bad.out, bad.err);
    cr_expect(strstr(bad.out, "expected 00 00 00 00, got 01 00 00 00"), "%s", bad.out);
    run_free(&ok);
    run_free(&bad);
    unlink(path);
}

Test(layouts_run, the_reference_passes_every_layout_case_strictly, .timeout = 120)
{
    run r = run_harness("--candidate build/libreshape_ref.so --cases cases/generated/layouts.yaml "
                        "--cases cases/generated/contract.yaml --strict-errors --quiet");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    run_free(&r);
}

/* A candidate built before the new flags refuses them in supports(): the
 * broadcast_src and size1_strides runs are skips, the run conformant. */
Test(layouts_run, a_candidate_that_refuses_the_new_flags_is_skipped_cleanly, .timeout = 60)
{
    run r = run_harness("--candidate " CANDS "supports_first_flags.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    size_t i, skipped = 0, passed = 0;
    json_t *e;
    json_array_foreach(json_object_get(r.report, "cases"), i, e) {
        const char *v = field(e, "variant"), *vd = field(e, "verdict");
        int fresh = !strcmp(v, "broadcast_src") || !strcmp(v, "size1_strides");
        skipped += fresh && !strcmp(vd, "NOT_SUPPORTED");
        passed += !fresh && !strcmp(vd, "PASS");
        cr_expect(!fresh || !strcmp(vd, "NOT_SUPPORTED"), "%s/%s: %s", field(e, "id"), v, vd);
    }
    cr_expect_gt(skipped, 0);
    cr_expect_gt(passed, 0);
    run_free(&r);
}

/* The two examples of cases/FORMAT.md, "Layouts" (docs/certify.md shows
 * them too) load, and the reference passes them. */
Test(layouts_run, the_format_examples_load_and_pass, .timeout = 60)
{
    char *text = slurp("cases/FORMAT.md");
    const char *at = strstr(text, "## Layouts");
    cr_assert(at, "no Layouts section");
    const char *from = strstr(at, "```yaml\n"), *to = from ? strstr(from + 8, "```\n") : NULL;
    cr_assert(from && to, "no yaml block in the Layouts section");
    from += 8;
    case_set s;
    memset(&s, 0, sizeof s);
    case_load_text(&s, "FORMAT.md", from, (size_t)(to - from));
    cr_expect_eq(s.nerrors, 0, "%s", s.nerrors ? s.errors[0].message : "");
    cr_expect_eq(s.ncases, 2);
    case_set_free(&s);
    char path[64];
    temp_template(path, sizeof path, "/tmp/harness-format-");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, from, (size_t)(to - from)), to - from);
    close(fd);
    run r = run_harness("--candidate build/libreshape_ref.so --cases %s --strict-errors --quiet",
                        path);
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_expect(strstr(r.out, "conformant: 2 runs of 2 cases"), "%s", r.out);
    run_free(&r);
    unlink(path);
    free(text);
}
