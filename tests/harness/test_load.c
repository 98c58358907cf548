/*
 * test_load.c - the case loader on valid and malformed YAML: every problem
 * comes with its message and FILE:LINE:COL (from 1), and a bad case never
 * stops the others.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite/suite.h"

/* A valid case; tests replace one line to break it. */
#define CASE_HEAD \
    "cases:\n" \
    "  - id: one\n" \
    "    op: openvino_reshape_1\n" \
    "    clause: \"openvino_reshape_1.rst, Examples\"\n" \
    "    quote: \"q\"\n"
#define CASE_REST \
    "    input: {dtype: f32, dims: [2, 3]}\n" \
    "    shape: {dtype: s64, values: [3, -1]}\n" \
    "    special_zero: false\n" \
    "    expect: {shape: [3, 2]}\n"

static case_set load(const char *yaml)
{
    case_set s;
    memset(&s, 0, sizeof s);
    case_load_text(&s, "t.yaml", yaml, strlen(yaml));
    return s;
}

/* Asserts exactly one error, at line:col, whose message contains `text`. */
static void expect_error(const char *yaml, int line, int col, const char *text)
{
    case_set s = load(yaml);
    cr_assert_eq(s.nerrors, 1, "want one error, got %d (first: %s)", s.nerrors,
                 s.nerrors ? s.errors[0].message : "-");
    cr_expect_str_eq(s.errors[0].file, "t.yaml");
    cr_expect_eq(s.errors[0].line, line, "line %d, want %d (%s)", s.errors[0].line, line,
                 s.errors[0].message);
    cr_expect_eq(s.errors[0].column, col, "column %d, want %d (%s)", s.errors[0].column, col,
                 s.errors[0].message);
    cr_expect(strstr(s.errors[0].message, text), "message '%s' lacks '%s'", s.errors[0].message,
              text);
    cr_expect_eq(s.ncases, 0);
    case_set_free(&s);
}

Test(load, valid_case_has_every_field)
{
    case_set s = load(CASE_HEAD "    tags: [minus_one, example]\n" CASE_REST);
    cr_assert_eq(s.nerrors, 0, "%s", s.nerrors ? s.errors[0].message : "");
    cr_assert_eq(s.ncases, 1);
    const rcase *c = &s.cases[0];
    cr_expect_str_eq(c->id, "one");
    cr_expect_eq(c->op, RESHAPE_OP_OPENVINO_RESHAPE_1);
    cr_expect_eq(c->dtype, RESHAPE_DT_F32);
    cr_expect_eq(c->rank, 2);
    cr_expect_eq(c->volume, 6);
    cr_expect_eq(c->payload_bytes, 24);
    cr_expect_eq(c->nvalues, 2);
    cr_expect_eq((int64_t)c->values[1], -1);
    cr_expect_eq(c->shape_nbytes, 16);
    cr_expect_eq(c->ntags, 2);
    cr_expect_eq(c->noutcomes, 1);
    cr_expect_eq(c->outcomes[0].dims[0], 3);
    cr_expect_eq(c->line, 2);
    cr_expect_eq(c->column, 5);
    case_set_free(&s);
}

Test(load, missing_required_field)
{
    expect_error("cases:\n  - id: one\n    op: openvino_reshape_1\n"
                 "    clause: \"openvino_reshape_1.rst\"\n" CASE_REST,
                 2, 5, "missing required key 'quote'");
}

Test(load, unknown_key_is_an_error)
{
    expect_error(CASE_HEAD CASE_REST "    expext: {shape: [6]}\n", 10, 5,
                 "unknown key 'expext' in a case");
}

Test(load, unknown_key_in_input)
{
    expect_error(CASE_HEAD "    input: {dtype: f32, dims: [6], fill: iota}\n"
                 "    shape: {dtype: s64, values: [6]}\n    special_zero: false\n"
                 "    expect: {shape: [6]}\n",
                 6, 36, "unknown key 'fill' in 'input'");
}

Test(load, wrong_type_for_dims)
{
    expect_error(CASE_HEAD "    input: {dtype: f32, dims: 6}\n"
                 "    shape: {dtype: s64, values: [6]}\n    special_zero: false\n"
                 "    expect: {shape: [6]}\n",
                 6, 31, "'dims' must be a list of integers, not a scalar");
}

Test(load, quoted_integer_is_a_wrong_type)
{
    expect_error(CASE_HEAD "    input: {dtype: f32, dims: [\"6\"]}\n"
                 "    shape: {dtype: s64, values: [6]}\n    special_zero: false\n"
                 "    expect: {shape: [6]}\n",
                 6, 32, "must be a plain integer");
}

Test(load, wrong_type_for_special_zero)
{
    expect_error(CASE_HEAD "    input: {dtype: f32, dims: [2, 3]}\n"
                 "    shape: {dtype: s64, values: [6]}\n    special_zero: yes\n"
                 "    expect: {shape: [6]}\n",
                 8, 19, "'special_zero' must be true or false, not 'yes'");
}

Test(load, unknown_dtype)
{
    expect_error(CASE_HEAD "    input: {dtype: float32, dims: [6]}\n"
                 "    shape: {dtype: s64, values: [6]}\n    special_zero: false\n"
                 "    expect: {shape: [6]}\n",
                 6, 20, "unknown dtype 'float32'");
}

Test(load, shape_value_out_of_range_for_dtype)
{
    expect_error(CASE_HEAD "    input: {dtype: f32, dims: [6]}\n"
                 "    shape: {dtype: u8, values: [256]}\n    special_zero: false\n"
                 "    expect: {error: VOLUME_MISMATCH}\n",
                 7, 33, "shape value 256 does not fit u8");
}

Test(load, negative_dim_out_of_range)
{
    expect_error(CASE_HEAD "    input: {dtype: f32, dims: [-2, 3]}\n"
                 "    shape: {dtype: s64, values: [6]}\n    special_zero: false\n"
                 "    expect: {shape: [6]}\n",
                 6, 32, "'dims' must be between 0 and");
}

Test(load, integer_beyond_64_bits)
{
    expect_error(CASE_HEAD "    input: {dtype: f32, dims: [6]}\n"
                 "    shape: {dtype: u64, values: [18446744073709551616]}\n"
                 "    special_zero: false\n    expect: {error: OVERFLOW}\n",
                 7, 34, "integer '18446744073709551616' is out of range");
}

Test(load, u64_max_fits)
{
    case_set s = load(CASE_HEAD "    input: {dtype: f32, dims: [6]}\n"
                      "    shape: {dtype: u64, values: [18446744073709551615]}\n"
                      "    special_zero: false\n    expect: {error: OVERFLOW}\n");
    cr_assert_eq(s.nerrors, 0, "%s", s.nerrors ? s.errors[0].message : "");
    cr_expect_eq(s.cases[0].values[0], UINT64_MAX);
    case_set_free(&s);
}

Test(load, bad_utf8_is_reported_with_position)
{
    case_set s = load("cases:\n  - id: one\n    quote: \"caf\xc3\x28\"\n");
    cr_assert_eq(s.nerrors, 1);
    cr_expect(strstr(s.errors[0].message, "invalid yaml"), "%s", s.errors[0].message);
    cr_expect(strstr(s.errors[0].message, "UTF-8"), "%s", s.errors[0].message);
    cr_expect_eq(s.errors[0].line, 3, "line %d", s.errors[0].line);
    /* libyaml points at the bad trailing octet, the 17th byte */
    cr_expect_eq(s.errors[0].column, 17, "column %d", s.errors[0].column);
    case_set_free(&s);
}

Test(load, duplicate_key_in_a_mapping)
{
    expect_error(CASE_HEAD "    quote: \"again\"\n" CASE_REST, 6, 5, "duplicate key 'quote'");
}

Test(load, hex_with_odd_digits)
{
    expect_error(CASE_HEAD "    input: {dtype: u8, dims: [2], data: {hex: \"abc\"}}\n"
                 "    shape: {dtype: s64, values: [2]}\n    special_zero: false\n"
                 "    expect: {shape: [2]}\n",
                 6, 47, "odd number of hex digits");
}

Test(load, hex_length_must_equal_payload)
{
    expect_error(CASE_HEAD "    input: {dtype: u8, dims: [3], data: {hex: \"00 01\"}}\n"
                 "    shape: {dtype: s64, values: [3]}\n    special_zero: false\n"
                 "    expect: {shape: [3]}\n",
                 6, 41, "'hex' has 2 bytes, the payload of u8 dims has 3");
}

Test(load, expected_shape_must_keep_the_volume)
{
    expect_error(CASE_HEAD "    input: {dtype: f32, dims: [2, 3]}\n"
                 "    shape: {dtype: s64, values: [3, -1]}\n    special_zero: false\n"
                 "    expect: {shape: [3, 3]}\n",
                 9, 21, "expected shape has 9 elements, the input has 6");
}

#define CASE_NO_EXPECT \
    "    input: {dtype: f32, dims: [0, 3]}\n" \
    "    shape: {dtype: s64, values: [0, -1]}\n" \
    "    special_zero: false\n"

Test(load, any_of_needs_a_note)
{
    expect_error(CASE_HEAD CASE_NO_EXPECT
                 "    expect: {any_of: [{shape: [0, 0]}, {error: ZERO_AND_MINUS_ONE}]}\n",
                 9, 13, "missing required key 'note'");
}

Test(load, any_of_lists_outcomes)
{
    case_set s = load(CASE_HEAD CASE_NO_EXPECT
                      "    expect: {any_of: [{shape: [0, 0]}, {error: ZERO_AND_MINUS_ONE}],"
                      " note: \"see DECISIONS.md D1\"}\n");
    cr_assert_eq(s.nerrors, 0, "%s", s.nerrors ? s.errors[0].message : "");
    cr_expect_eq(s.cases[0].noutcomes, 2);
    cr_expect(s.cases[0].outcomes[1].is_error);
    cr_expect_eq(s.cases[0].outcomes[1].error, RESHAPE_E_ZERO_AND_MINUS_ONE);
    char *d = case_expected_describe(&s.cases[0]);
    cr_expect_str_eq(d, "any of: shape [0,0], error ZERO_AND_MINUS_ONE");
    free(d);
    case_set_free(&s);
}

Test(load, unknown_error_status)
{
    expect_error(CASE_HEAD CASE_NO_EXPECT "    expect: {error: TOO_MANY}\n", 9, 21,
                 "unknown error status 'TOO_MANY'");
}

Test(load, bad_id_characters)
{
    expect_error("cases:\n  - id: One-Case\n    op: openvino_reshape_1\n"
                 "    clause: \"openvino_reshape_1.rst\"\n    quote: \"q\"\n" CASE_REST,
                 2, 9, "id 'One-Case' must be 1 to 120 characters");
}

Test(load, clause_must_name_a_spec_file)
{
    expect_error("cases:\n  - id: one\n    op: openvino_reshape_1\n"
                 "    clause: \"reshape.md, Examples\"\n    quote: \"q\"\n" CASE_REST,
                 4, 13, "clause 'reshape.md, Examples' does not start with a spec file name");
}

Test(load, a_bad_case_leaves_the_next_one)
{
    case_set s = load(CASE_HEAD "    bogus: 1\n" CASE_REST
                      "  - id: two\n    op: onnx_reshape_14\n"
                      "    clause: \"onnx_reshape_14.md\"\n    quote: \"q\"\n" CASE_REST);
    cr_expect_eq(s.nerrors, 1);
    cr_assert_eq(s.ncases, 1);
    cr_expect_str_eq(s.cases[0].id, "two");
    case_set_free(&s);
}

/* Writes `text` to DIR/NAME. */
static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

Test(load, duplicate_ids_across_files)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/harness-dup-%c%c%c%c%c%c", 'X', 'X', 'X', 'X', 'X', 'X');
    cr_assert(mkdtemp(dir));
    put(dir, "a.yaml", CASE_HEAD CASE_REST);
    put(dir, "b.yaml", "# a comment line\n" CASE_HEAD CASE_REST);
    case_set s;
    memset(&s, 0, sizeof s);
    const char *paths[] = {dir};
    case_set_load(&s, paths, 1);
    cr_assert_eq(s.nerrors, 1);
    cr_expect(strstr(s.errors[0].file, "b.yaml"), "%s", s.errors[0].file);
    cr_expect_eq(s.errors[0].line, 3);
    cr_expect_eq(s.errors[0].column, 5);
    cr_expect(strstr(s.errors[0].message, "duplicate id 'one', first at "), "%s",
              s.errors[0].message);
    cr_expect(strstr(s.errors[0].message, "a.yaml:2:5"), "%s", s.errors[0].message);
    cr_expect_eq(s.ncases, 1);
    cr_expect_eq(s.nfiles, 2);
    cr_expect_eq(strlen(s.cases_sha256), 64);
    case_set_free(&s);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}
