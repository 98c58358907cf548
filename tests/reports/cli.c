/*
 * cli.c - render.py as a command: its exit codes (0 written, 2 bad usage or
 * invalid report, 3 cannot write), its one-line messages naming what is
 * wrong and where, and where it writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <criterion/criterion.h>

#include "support.h"

/* Runs render.py with `argv_tail` (NULL-terminated) after it; logs in `dir`. */
static void render_args(rt_result *r, const char *dir, char *const argv_tail[])
{
    char *argv[16] = {RT_PYTHON, RT_RENDER};
    size_t n = 2;
    for (; argv_tail[n - 2]; n++) {
        cr_assert_lt(n, 15u);
        argv[n] = argv_tail[n - 2];
    }
    argv[n] = NULL;
    cr_assert_eq(rt_run(r, argv, dir, 120.0), 0, "cannot start %s", RT_PYTHON);
}

static int exists(const char *dir, const char *file)
{
    char *path = rt_join(dir, file);
    struct stat st;
    int found = stat(path, &st) == 0;
    free(path);
    return found;
}

/* Renders `report` after writing it to `dir`; the renderer's result in `r`. */
static void render_json(rt_result *r, json_t *report, const char *dir)
{
    char *json = rt_save(report, dir, "report.json");
    cr_assert_eq(rt_render(r, json, dir), 0);
    free(json);
}

Test(cli, writes_both_files_and_says_nothing)
{
    char *dir = rt_workdir("cli_ok");
    rt_result r;
    cr_assert_eq(rt_render(&r, RT_DATA "/nonconformant.json", dir), 0);
    cr_assert_eq(r.exit_code, 0, "exit %d:\n%s", r.exit_code, r.err);
    cr_assert_eq(r.out_len, 0, "stdout should be empty: %s", r.out);
    cr_assert_eq(r.err_len, 0, "stderr should be empty: %s", r.err);
    cr_assert(exists(dir, "report.md") && exists(dir, "report.html"));
    rt_run_free(&r);
    free(dir);
}

Test(cli, missing_field_exits_2_and_names_it)
{
    char *dir = rt_workdir("cli_missing_field");
    rt_result r;
    cr_assert_eq(rt_render(&r, RT_DATA "/invalid_missing_field.json", dir), 0);
    cr_assert_eq(r.exit_code, 2, "exit %d", r.exit_code);
    cr_assert_str_eq(r.err, "render: missing field \"cases[2].variant\" (case "
                     "\"openvino_example_2_copy_first_infer_second\") in "
                     RT_DATA "/invalid_missing_field.json\n");
    cr_assert(!exists(dir, "report.md") && !exists(dir, "report.html"),
              "nothing is written for an invalid report");
    rt_run_free(&r);
    free(dir);
}

Test(cli, missing_top_level_field_exits_2)
{
    char *dir = rt_workdir("cli_missing_summary");
    json_t *report = rt_load_fixture("conformant.json");
    json_object_del(json_object_get(report, "summary"), "FLOOD");
    rt_result r;
    render_json(&r, report, dir);
    cr_assert_eq(r.exit_code, 2);
    cr_assert_not_null(strstr(r.err, "render: missing field \"summary.FLOOD\" in "), "%s", r.err);
    rt_run_free(&r);
    json_decref(report);
    free(dir);
}

Test(cli, wrong_type_exits_2)
{
    char *dir = rt_workdir("cli_wrong_type");
    json_t *report = rt_load_fixture("conformant.json");
    json_object_set_new(json_object_get(report, "summary"), "PASS", json_string("5"));
    rt_result r;
    render_json(&r, report, dir);
    cr_assert_eq(r.exit_code, 2);
    cr_assert_not_null(strstr(r.err, "render: field \"summary.PASS\" is a string, expected an integer in "),
                       "%s", r.err);
    rt_run_free(&r);
    json_decref(report);
    free(dir);
}

Test(cli, a_boolean_is_not_a_count)
{
    char *dir = rt_workdir("cli_bool_count");
    json_t *report = rt_load_fixture("conformant.json");
    json_object_set_new(json_object_get(report, "summary"), "total", json_true());
    rt_result r;
    render_json(&r, report, dir);
    cr_assert_eq(r.exit_code, 2);
    cr_assert_not_null(strstr(r.err, "field \"summary.total\" is a boolean, expected an integer"), "%s", r.err);
    rt_run_free(&r);
    json_decref(report);
    free(dir);
}

Test(cli, unknown_verdict_exits_2)
{
    char *dir = rt_workdir("cli_unknown_verdict");
    json_t *report = rt_load_fixture("conformant.json");
    json_object_set_new(json_array_get(json_object_get(report, "cases"), 1), "verdict",
                        json_string("MAYBE"));
    rt_result r;
    render_json(&r, report, dir);
    cr_assert_eq(r.exit_code, 2);
    cr_assert_not_null(strstr(r.err, "render: field \"cases[1].verdict\" is \"MAYBE\", expected one of PASS, FAIL,"),
                       "%s", r.err);
    rt_run_free(&r);
    json_decref(report);
    free(dir);
}

Test(cli, other_schema_version_exits_2)
{
    char *dir = rt_workdir("cli_schema_version");
    json_t *report = rt_load_fixture("conformant.json");
    json_object_set_new(report, "schema_version", json_integer(2));
    rt_result r;
    render_json(&r, report, dir);
    cr_assert_eq(r.exit_code, 2);
    cr_assert_not_null(strstr(r.err, "render: unsupported schema_version \"2\", this renderer reads 1 in "),
                       "%s", r.err);
    rt_run_free(&r);
    json_decref(report);
    free(dir);
}

Test(cli, broken_json_exits_2_with_its_position)
{
    char *dir = rt_workdir("cli_broken_json");
    char *json = rt_join(dir, "report.json");
    const char text[] = "{\n  \"schema_version\": 1,\n  \"tool\": {,}\n}\n";
    cr_assert_eq(rt_write(json, text, sizeof text - 1), 0);
    rt_result r;
    cr_assert_eq(rt_render(&r, json, dir), 0);
    cr_assert_eq(r.exit_code, 2);
    char want[512];
    snprintf(want, sizeof want, "render: invalid JSON, expecting property name enclosed in double "
             "quotes at %s:3:12\n", json);
    cr_assert_str_eq(r.err, want);
    rt_run_free(&r);
    free(json);
    free(dir);
}

Test(cli, missing_input_exits_2)
{
    char *dir = rt_workdir("cli_no_input");
    rt_result r;
    cr_assert_eq(rt_render(&r, RT_DATA "/no_such_report.json", dir), 0);
    cr_assert_eq(r.exit_code, 2);
    cr_assert_str_eq(r.err, "render: cannot read \"" RT_DATA "/no_such_report.json\": "
                     "No such file or directory\n");
    rt_run_free(&r);
    free(dir);
}

Test(cli, no_arguments_is_bad_usage)
{
    char *dir = rt_workdir("cli_usage");
    rt_result r;
    char *none[] = {NULL};
    render_args(&r, dir, none);
    cr_assert_eq(r.exit_code, 2);
    cr_assert_eq(strncmp(r.err, "usage: render ", 14), 0, "%s", r.err);
    cr_assert_not_null(strstr(r.err, "render: the following arguments are required: report"), "%s", r.err);
    rt_run_free(&r);
    free(dir);
}

Test(cli, unwritable_output_exits_3)
{
    char *dir = rt_workdir("cli_unwritable");
    /* A regular file where the output folder's parent should be: even root
     * cannot create a folder below it. */
    char *blocker = rt_join(dir, "file");
    cr_assert_eq(rt_write(blocker, "x", 1), 0);
    char *out = rt_join(blocker, "out");
    rt_result r;
    char *args[] = {RT_DATA "/conformant.json", "--out", out, NULL};
    render_args(&r, dir, args);
    cr_assert_eq(r.exit_code, 3, "exit %d: %s", r.exit_code, r.err);
    char want[512];
    snprintf(want, sizeof want, "render: cannot create \"%s\": Not a directory\n", out);
    cr_assert_str_eq(r.err, want);
    rt_run_free(&r);
    free(out);
    free(blocker);
    free(dir);
}

Test(cli, writes_beside_the_report_by_default)
{
    char *dir = rt_workdir("cli_default_out");
    json_t *report = rt_load_fixture("conformant.json");
    char *json = rt_save(report, dir, "report.json");
    rt_result r;
    char *args[] = {json, NULL};
    render_args(&r, dir, args);
    cr_assert_eq(r.exit_code, 0, "%s", r.err);
    cr_assert(exists(dir, "report.md") && exists(dir, "report.html"));
    rt_run_free(&r);
    json_decref(report);
    free(json);
    free(dir);
}

Test(cli, same_report_same_bytes)
{
    /* Published reports are diffed in git: rendering must be deterministic. */
    const char *files[] = {"report.html", "report.md"};
    for (size_t i = 0; i < 2; i++) {
        char *a = rt_render_fixture("nonconformant.json", "cli_same_a", files[i], NULL);
        char *b = rt_render_fixture("nonconformant.json", "cli_same_b", files[i], NULL);
        cr_assert_str_eq(a, b, "two renderings of one report differ in %s", files[i]);
        free(a);
        free(b);
    }
}
