/*
 * scoreboard_test.c - candidates/scoreboard.py against a stand-in harness
 * (scoreboard_world.h): a shell script that writes a fixed JSON report (or
 * fails) for each adapter, so the table, the grouping of findings and the
 * exit status are checked without any library installed.  The certificate
 * section is scoreboard_certify_test.c's.  Depends on Criterion, libc and
 * Debian's /usr/bin/python3.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "scoreboard_world.h"

/* Two oneDNN reports on StaticReshape, for the scoreboard's run-by-run
 * comparison: "%s" is the name, then the verdicts of runs a/dense,
 * b/dense, c/dense, d/dense and e/dense.  Run e is NOT_SUPPORTED in one of
 * them, so the comparison leaves it out. */
static const char static_report_fmt[] =
    "{\"schema_version\": 1,"
    " \"candidate\": {\"name\": \"%s\", \"version\": \"1\","
    "   \"path\": \"adapters/x.so\", \"sha256\": \"0123456789abcdef\", \"abi_version\": 1},"
    " \"suite\": {\"version\": \"0.1.0\", \"git_commit\": \"fedcba987654\", \"cases_loaded\": 5},"
    " \"duration_s\": 0.5, \"verdict\": \"nonconformant\","
    " \"summary\": {\"total\": 5},"
    " \"status_agreement\": {\"agree\": 0, \"disagree\": 0},"
    " \"findings\": [], \"cases\": ["
    "  {\"id\": \"a\", \"op\": \"onednn_static_reshape_1\", \"variant\": \"dense\","
    "   \"verdict\": \"%s\", \"detail\": \"\", \"expected\": \"shape [1]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"b\", \"op\": \"onednn_static_reshape_1\", \"variant\": \"dense\","
    "   \"verdict\": \"%s\", \"detail\": \"\", \"expected\": \"shape [1]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"c\", \"op\": \"onednn_static_reshape_1\", \"variant\": \"dense\","
    "   \"verdict\": \"%s\", \"detail\": \"\", \"expected\": \"shape [1]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"d\", \"op\": \"onednn_static_reshape_1\", \"variant\": \"dense\","
    "   \"verdict\": \"%s\", \"detail\": \"\", \"expected\": \"shape [1]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"e\", \"op\": \"onednn_static_reshape_1\", \"variant\": \"dense\","
    "   \"verdict\": \"%s\", \"detail\": \"\", \"expected\": \"shape [1]\", \"dtype\": \"f32\"}"
    " ]}\n";

Test(scoreboard, a_nonconformant_library_is_a_result_not_a_failure,
     .fini = remove_world)
{
    static const char *const built[] = {"numpy", NULL};
    make_world(built, 3);
    cr_assert_eq(run_scoreboard(""), 0, "a harness exit 1 must not fail the scoreboard");
    char *text = scoreboard_text();
    cr_expect(strstr(text, "| NumPy 9.9 | openvino_reshape_1 | **nonconformant** |  "
                           "| 1 | 2 |") != NULL,
              "openvino row: 1 FAIL, 2 ACCEPTED_INVALID:\n%s", text);
    cr_expect(strstr(text, "| NumPy 9.9 | onnx_reshape_14 | **nonconformant** | 1 |  "
                           "|  | 1 |") != NULL,
              "onnx row: 1 PASS, 1 CRASH:\n%s", text);
    cr_expect(strstr(text, "| NumPy 9.9 | onednn_static_reshape_1 | not supported |") != NULL,
              "an op with no entries is not supported:\n%s", text);
    cr_expect(strstr(text, "| libtorch | (all) | not built |") != NULL, "%s", text);
}

Test(scoreboard, findings_are_listed_with_the_notes_of_their_signatures, .fini = remove_world)
{
    static const char *const built[] = {"numpy", NULL};
    make_world(built, 3);
    cr_assert_eq(run_scoreboard(""), 0);
    char *text = scoreboard_text();
    cr_expect(strstr(text, "| `ACCEPTED_INVALID: returned OK where BELOW_MINUS_ONE was expected` "
                           "| PyArray_Newshape takes every negative value as the unknown "
                           "dimension") != NULL,
              "the numpy note is attached to its finding's signature:\n%s", text);
    cr_expect(strstr(text, "| 2 | 1 | openvino_reshape_1 | infer, dense | `below_m2/infer`: "
                           "expected error BELOW_MINUS_ONE, got shape [2,3] |") != NULL,
              "two variants of one case are one finding:\n%s", text);
    cr_expect(strstr(text, "| `CRASH: signal N (Floating point exception) in execute (on "
                           "strided_dst)` |  | 1 | 1 | onnx_reshape_14 | strided_dst |") != NULL,
              "a finding without a note is listed:\n%s", text);
    cr_expect(strstr(text, "`plain`") == NULL, "a passing case is no finding:\n%s", text);
    cr_expect(strstr(text, "Skipped: 1 of 6 runs are NOT_SUPPORTED") != NULL, "%s", text);
}

Test(scoreboard, a_failing_harness_fails_the_scoreboard_after_writing_it,
     .fini = remove_world)
{
    static const char *const built[] = {"numpy", "onednn", NULL};
    make_world(built, 2);
    cr_assert_eq(run_scoreboard(""), 3, "a harness exit 2 is a scoreboard failure");
    char *text = scoreboard_text();
    cr_expect(strstr(text, "| onednn | (all) | harness failed (exit 2) |") != NULL,
              "%s", text);
    cr_expect(strstr(text, "| NumPy 9.9 | openvino_reshape_1 |") != NULL,
              "the other libraries are still written:\n%s", text);
}

Test(scoreboard, each_library_gets_its_performance_headline, .fini = remove_world)
{
    static const char *const built[] = {"numpy", NULL};
    make_world(built, 3);
    cr_assert_eq(run_scoreboard(""), 0);
    char *text = scoreboard_text();
    cr_expect(strstr(text, "| NumPy 9.9 | [openvino_reshape_1 1 MiB f32: 0.97x memcpy; "
                           "strided_src: 0.12x](numpy/perf.md) |") != NULL,
              "the profile's headline links its perf.md:\n%s", text);
    cr_expect(strstr(text, "| reference | no profile |") != NULL,
              "a profile that was not written says so:\n%s", text);
}

/* Writes report_<lib>.json, which the stand-in harness hands out for <lib>. */
static void write_static_report(const char *lib, const char *name, const char *a,
                                const char *b, const char *c, const char *d, const char *e)
{
    char file[64], text[4096];
    snprintf(file, sizeof file, "report_%s.json", lib);
    snprintf(text, sizeof text, static_report_fmt, name, a, b, c, d, e);
    write_file(file, text, 0);
}

Test(scoreboard, onednn_graph_is_compared_with_onednn_run_by_run, .fini = remove_world)
{
    static const char *const built[] = {"onednn", "onednn_graph", NULL};
    make_world(built, 3);
    write_static_report("onednn_graph", "oneDNN Graph", "PASS", "PASS", "FAIL", "CRASH",
                        "NOT_SUPPORTED");
    write_static_report("onednn", "oneDNN", "PASS", "FAIL", "FAIL", "PASS", "PASS");
    cr_assert_eq(run_scoreboard(""), 0);
    char *text = scoreboard_text();
    cr_expect(strstr(text, "Against oneDNN 1 on onednn_static_reshape_1, run by run") != NULL,
              "%s", text);
    cr_expect(strstr(text, "- both pass: 1 runs\n") != NULL, "%s", text);
    cr_expect(strstr(text, "- both fail: 1 runs, e.g. `c` (dense: FAIL vs FAIL)") != NULL,
              "%s", text);
    cr_expect(strstr(text, "- only this one fails: 1 runs, e.g. `d` (dense: CRASH vs PASS)")
                  != NULL, "%s", text);
    cr_expect(strstr(text, "- only the other fails: 1 runs, e.g. `b` (dense: PASS vs FAIL)")
                  != NULL, "%s", text);
    cr_expect(strstr(text, "`e`") == NULL, "a NOT_SUPPORTED run is not compared:\n%s", text);
}

/* A report with runs of the layout variants: "%s" is the name, then the
 * verdicts (and details) of a/broadcast_src, b/broadcast_src and
 * a/size1_strides, then the verdict of b/dense. */
static const char layout_report_fmt[] =
    "{\"schema_version\": 1,"
    " \"candidate\": {\"name\": \"%s\", \"version\": \"1\","
    "   \"path\": \"adapters/x.so\", \"sha256\": \"0123456789abcdef\", \"abi_version\": 1},"
    " \"suite\": {\"version\": \"0.1.0\", \"git_commit\": \"fedcba987654\", \"cases_loaded\": 2},"
    " \"duration_s\": 0.5, \"verdict\": \"nonconformant\","
    " \"summary\": {\"total\": 3}, \"status_agreement\": {\"agree\": 0, \"disagree\": 0},"
    " \"findings\": [], \"cases\": ["
    "  {\"id\": \"a\", \"op\": \"openvino_reshape_1\", \"variant\": \"broadcast_src\","
    "   \"verdict\": \"%s\", \"detail\": \"%s\", \"expected\": \"shape [4,3]\","
    "   \"got\": \"shape [4,3]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"b\", \"op\": \"openvino_reshape_1\", \"variant\": \"broadcast_src\","
    "   \"verdict\": \"%s\", \"detail\": \"%s\", \"expected\": \"shape [12]\","
    "   \"got\": \"shape [12]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"a\", \"op\": \"openvino_reshape_1\", \"variant\": \"size1_strides\","
    "   \"verdict\": \"%s\", \"detail\": \"%s\", \"expected\": \"shape [4,3]\","
    "   \"got\": \"shape [4,3]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"b\", \"op\": \"openvino_reshape_1\", \"variant\": \"dense\","
    "   \"verdict\": \"%s\", \"detail\": \"\", \"expected\": \"shape [12]\","
    "   \"got\": \"shape [12]\", \"dtype\": \"f32\"}"
    " ]}\n";

Test(scoreboard, layout_variants_get_their_section, .fini = remove_world)
{
    static const char *const built[] = {"libtorch", "xnnpack", "opencv", NULL};
    static const char refused[] = "execute returned NOT_SUPPORTED: xnnpack tensors are dense: "
                                  "layout strided_src|broadcast_src cannot be expressed";
    char text[4096];

    make_world(built, 3);
    snprintf(text, sizeof text, layout_report_fmt, "libtorch", "PASS", "", "PASS", "",
             "FAIL", "bytes differ at element 1", "PASS");
    write_file("report_libtorch.json", text, 0);
    snprintf(text, sizeof text, layout_report_fmt, "XNNPACK", "NOT_SUPPORTED", refused,
             "NOT_SUPPORTED", refused, "NOT_SUPPORTED", "execute returned NOT_SUPPORTED",
             "NOT_SUPPORTED");
    write_file("report_xnnpack.json", text, 0);
    /* b fails broadcast_src as it fails dense: not the layout's doing. */
    snprintf(text, sizeof text, layout_report_fmt, "OpenCV", "PASS", "", "FAIL", "", "PASS", "",
             "FAIL");
    write_file("report_opencv.json", text, 0);
    cr_assert_eq(run_scoreboard(""), 0);
    char *board = scoreboard_text();
    cr_expect(strstr(board, "| libtorch 1 | broadcast_src | copies them | 2 | 0 | 0 | 0 | 2 |")
                  != NULL, "%s", board);
    cr_expect(strstr(board, "| libtorch 1 | size1_strides | **gets them wrong** | 0 | 0 | 1 "
                            "| 1 | 1 |") != NULL, "%s", board);
    cr_expect(strstr(board, "  - FAIL `a/size1_strides`: expected shape [4,3], got shape "
                            "[4,3] (bytes differ at element 1)") != NULL, "%s", board);
    cr_expect(strstr(board, "| XNNPACK 1 | broadcast_src | refuses them | 0 | 2 | 0 | 0 | 2 |")
                  != NULL, "%s", board);
    cr_expect(strstr(board, "  - skipped, 2 runs: execute returned NOT_SUPPORTED: xnnpack "
                            "tensors are dense: layout strided_src\\|broadcast_src cannot be "
                            "expressed (e.g. `a/broadcast_src`)") != NULL, "%s", board);
    cr_expect(strstr(board, "| OpenCV 1 | broadcast_src | copies them, failing only where "
                            "dense fails | 1 | 0 | 1 | 0 | 2 |") != NULL, "%s", board);
}

Test(scoreboard, reports_without_layout_runs_say_so, .fini = remove_world)
{
    static const char *const built[] = {"numpy", NULL};
    make_world(built, 3);
    cr_assert_eq(run_scoreboard(""), 0);
    char *text = scoreboard_text();
    cr_expect(strstr(text, "## Broadcast and size-1 strides") != NULL, "%s", text);
    cr_expect(strstr(text, "No report has runs of these variants") != NULL, "%s", text);
}

Test(scoreboard, only_runs_the_libraries_named_and_renders_the_others, .fini = remove_world)
{
    static const char *const built[] = {"numpy", "xnnpack", NULL};
    char text[4096];

    make_world(built, 3);
    snprintf(text, sizeof text, layout_report_fmt, "XNNPACK", "PASS", "", "PASS", "", "PASS",
             "", "PASS");
    write_file("report_xnnpack.json", text, 0);
    cr_assert_eq(run_scoreboard(""), 0);
    snprintf(text, sizeof text, layout_report_fmt, "XNNPACK 2", "FAIL", "", "FAIL", "", "FAIL",
             "", "FAIL");
    write_file("report_xnnpack.json", text, 0);
    cr_assert_eq(run_scoreboard("--only numpy"), 0);
    char *board = scoreboard_text();
    cr_expect(strstr(board, "| XNNPACK 1 | broadcast_src | copies them |") != NULL,
              "xnnpack is rendered from its first report:\n%s", board);
    cr_expect(strstr(board, "XNNPACK 2") == NULL, "xnnpack was run again:\n%s", board);
    cr_expect(strstr(board, "| NumPy 9.9 | openvino_reshape_1 |") != NULL, "%s", board);
    cr_expect_eq(run_scoreboard("--only nosuchlib"), 2, "an unknown library is bad usage");
}

/* A library this repository can no longer build keeps the row of its dated
 * record (candidates/scoreboard_record.py) instead of "not built", with the
 * record's date, build and the version its findings were reported against. */
static const char record_json[] =
    "{\"record\": {\"measured\": \"2026-11-26\", \"build\": \"oneDNN 3.13.1 from its source\","
    "   \"rebuild\": \"No registry provides it.\", \"findings_against\": \"oneDNN v3.13.1\"},"
    " \"candidate\": {\"name\": \"oneDNN\", \"version\": \"3.13.1 Graph\","
    "   \"path\": \"adapters/onednn_graph.so\", \"sha256\": \"0123456789ab\"},"
    " \"suite\": {\"version\": \"0.1.0\", \"git_commit\": \"fedcba987654\", \"cases_loaded\": 5},"
    " \"duration_s\": 4.4, \"verdict\": \"nonconformant\","
    " \"summary\": {\"total\": 6, \"PASS\": 3, \"CRASH\": 2, \"NOT_SUPPORTED\": 1},"
    " \"status_agreement\": {\"agree\": 1, \"disagree\": 2},"
    " \"op_counts\": {\"onednn_static_reshape_1\": {\"PASS\": 3, \"CRASH\": 2,"
    "   \"NOT_SUPPORTED\": 1}},"
    " \"findings\": [{\"signature\": \"CRASH: signal N (Aborted) in execute\", \"runs\": 2,"
    "   \"cases\": 2, \"ops\": [\"onednn_static_reshape_1\"], \"variants\": [\"dense\"],"
    "   \"example\": {\"id\": \"a\", \"variant\": \"dense\", \"expected\": \"shape [3,2]\","
    "     \"got\": \"crash\"}}],"
    " \"compare_heading\": \"Against oneDNN 2.6.3, as recorded:\","
    " \"compare_lines\": [\"- both pass: 7 runs\"],"
    " \"layout_rows\": [\"| oneDNN 3.13.1 Graph | broadcast_src | copies some | 1 | 0 | 0 | 0 | 1 |\"],"
    " \"certificate\": {\"bundle\": \"onednn-3.13.1-graph.tar.gz\", \"bundle_says\": \"ok\","
    "   \"verify_exit\": 0, \"rerun\": \"every verdict\", \"certify_seconds\": 1,"
    "   \"verify_seconds\": 1},"
    " \"perf_headline\": \"0.21x memcpy\"}\n";

Test(scoreboard, a_library_that_cannot_be_built_keeps_its_dated_record, .fini = remove_world)
{
    static const char *const built[] = {"numpy", NULL};
    make_world(built, 3);
    cr_assert_eq(mkdir_world("reports/onednn_graph"), 0);
    write_file("reports/onednn_graph/record.json", record_json, 0);
    cr_assert_eq(run_scoreboard(""), 0);
    char *text = scoreboard_text();
    cr_expect(strstr(text, "| oneDNN 3.13.1 Graph (record of 2026-11-26) | "
                           "onednn_static_reshape_1 | **nonconformant** | 3 |  |  | 2 |") != NULL,
              "the record's row:\n%s", text);
    cr_expect(strstr(text, "| onednn_graph | (all) | not built |") == NULL, "%s", text);
    cr_expect(strstr(text, "**Dated record, measured 2026-11-26; not rerun here.** Build: oneDNN "
                           "3.13.1 from its source. No registry provides it. The findings below "
                           "were reported against oneDNN v3.13.1.") != NULL, "%s", text);
    cr_expect(strstr(text, "| `CRASH: signal N (Aborted) in execute` |") != NULL, "%s", text);
    cr_expect(strstr(text, "Against oneDNN 2.6.3, as recorded:\n\n- both pass: 7 runs") != NULL,
              "%s", text);
    cr_expect(strstr(text, "| oneDNN 3.13.1 Graph | broadcast_src | copies some |") != NULL,
              "%s", text);
    cr_expect(strstr(text, "`onednn-3.13.1-graph.tar.gz`: ok | reproduced: every verdict") != NULL,
              "%s", text);
    cr_expect(strstr(text, "| oneDNN 3.13.1 Graph | [0.21x memcpy](onednn_graph/perf.md) |") != NULL,
              "%s", text);
    cr_expect(strstr(text, "| NumPy 9.9 | openvino_reshape_1 |") != NULL, "%s", text);
}

Test(scoreboard, a_broken_record_fails_with_its_path, .fini = remove_world)
{
    static const char *const built[] = {"numpy", NULL};
    make_world(built, 3);
    cr_assert_eq(mkdir_world("reports/onednn_graph"), 0);
    write_file("reports/onednn_graph/record.json", "{\"candidate\": {}}\n", 0);
    cr_expect_neq(run_scoreboard(""), 0);
    cr_expect(world_output_has("reports/onednn_graph/record.json: no 'record' field"));
}
