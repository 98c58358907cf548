/*
 * scoreboard_test.c - candidates/scoreboard.py against a stand-in harness:
 * a shell script that writes a fixed JSON report (or fails) for each
 * adapter, so the table, the grouping of findings and the exit status are
 * checked without any library installed.  Depends on Criterion, libc and
 * Debian's /usr/bin/python3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

/* One report: numpy accepts a -2 in two variants, crashes once, passes
 * once, and answers NOT_SUPPORTED in the threads variant; its findings as
 * the harness groups them (reports/SCHEMA.md). */
static const char report_json[] =
    "{\"schema_version\": 1,"
    " \"candidate\": {\"name\": \"NumPy\", \"version\": \"9.9\","
    "   \"path\": \"adapters/numpy.so\", \"sha256\": \"0123456789abcdef\", \"abi_version\": 1},"
    " \"suite\": {\"version\": \"0.1.0\", \"git_commit\": \"fedcba987654\", \"cases_loaded\": 4},"
    " \"duration_s\": 0.5, \"verdict\": \"nonconformant\","
    " \"summary\": {\"total\": 6, \"NOT_SUPPORTED\": 1},"
    " \"status_agreement\": {\"agree\": 0, \"disagree\": 0},"
    " \"findings\": ["
    "  {\"signature\": \"ACCEPTED_INVALID: returned OK where BELOW_MINUS_ONE was expected\","
    "   \"verdict\": \"ACCEPTED_INVALID\", \"kind\": \"returned OK where BELOW_MINUS_ONE was expected\","
    "   \"scope\": null, \"runs\": 2, \"cases\": 1, \"ops\": [\"openvino_reshape_1\"],"
    "   \"variants\": [\"infer\", \"dense\"], \"dtypes\": [\"f32\"],"
    "   \"example\": {\"id\": \"below_m2\", \"variant\": \"infer\","
    "    \"expected\": \"error BELOW_MINUS_ONE\", \"got\": \"shape [2,3]\", \"detail\": \"\"}},"
    "  {\"signature\": \"CRASH: signal N (Floating point exception) in execute (on strided_dst)\","
    "   \"verdict\": \"CRASH\", \"kind\": \"signal N (Floating point exception) in execute\","
    "   \"scope\": \"strided_dst\", \"runs\": 1, \"cases\": 1, \"ops\": [\"onnx_reshape_14\"],"
    "   \"variants\": [\"strided_dst\"], \"dtypes\": [\"f32\"],"
    "   \"example\": {\"id\": \"empty_strided\", \"variant\": \"strided_dst\","
    "    \"expected\": \"shape [0]\", \"got\": \"crash\", \"detail\": \"\"}}"
    " ],"
    " \"cases\": ["
    "  {\"id\": \"below_m2\", \"op\": \"openvino_reshape_1\", \"variant\": \"infer\","
    "   \"verdict\": \"ACCEPTED_INVALID\", \"detail\": \"\", \"expected\": \"error BELOW_MINUS_ONE\","
    "   \"dtype\": \"f32\"},"
    "  {\"id\": \"below_m2\", \"op\": \"openvino_reshape_1\", \"variant\": \"dense\","
    "   \"verdict\": \"ACCEPTED_INVALID\", \"detail\": \"\", \"expected\": \"error BELOW_MINUS_ONE\","
    "   \"dtype\": \"f32\"},"
    "  {\"id\": \"empty_strided\", \"op\": \"onnx_reshape_14\", \"variant\": \"strided_dst\","
    "   \"verdict\": \"CRASH\", \"detail\": \"signal 8 (Floating point exception) in execute\","
    "   \"expected\": \"shape [0]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"plain\", \"op\": \"onnx_reshape_14\", \"variant\": \"dense\","
    "   \"verdict\": \"PASS\", \"detail\": \"\", \"expected\": \"shape [4,6]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"copy_zero\", \"op\": \"openvino_reshape_1\", \"variant\": \"threads\","
    "   \"verdict\": \"FAIL\", \"detail\": \"64 of 64 iterations wrong; iteration 0 returned"
    " NOT_SUPPORTED\", \"expected\": \"shape [2,3]\", \"dtype\": \"f32\"},"
    "  {\"id\": \"copy_zero\", \"op\": \"openvino_reshape_1\", \"variant\": \"dense\","
    "   \"verdict\": \"NOT_SUPPORTED\", \"detail\": \"\", \"expected\": \"shape [2,3]\","
    "   \"dtype\": \"f32\"}"
    " ]}\n";

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

/* A performance profile: f32 at 1 MiB, dense and strided src. */
static const char perf_json[] =
    "{\"schema\": \"reshape-conform-perf/1\", \"config\": {\"ops\": [\"openvino_reshape_1\"]},"
    " \"points\": ["
    "  {\"op\": \"openvino_reshape_1\", \"dtype\": \"f32\", \"layout\": \"dense\","
    "   \"bytes\": 1048576, \"status\": \"OK\", \"ratio\": 0.97},"
    "  {\"op\": \"openvino_reshape_1\", \"dtype\": \"f32\", \"layout\": \"strided_src\","
    "   \"bytes\": 1048576, \"status\": \"OK\", \"ratio\": 0.125}"
    " ], \"fixed\": []}\n";

/* The world's folder: mkdtemp's template, "/tmp/scoreboard_test." and six
 * 'X' that it replaces. */
static char dir[64];

static void write_file(const char *name, const char *text, int executable)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write '%s'", path);
    fputs(text, f);
    fclose(f);
    if (executable)
        cr_assert_eq(chmod(path, 0755), 0);
}

/*
 * A temporary folder with adapters/<lib>.so for each name in `built`, a
 * report fixture, and harness.sh: for numpy it writes the fixture and exits
 * 1 (nonconformant); for onednn it exits `onednn_exit` without a report.
 */
static void make_world(const char *const *built, int onednn_exit)
{
    char script[1024];

    size_t len = (size_t)snprintf(dir, sizeof dir, "/tmp/scoreboard_test.");
    memset(dir + len, 'X', 6);
    dir[len + 6] = '\0';
    cr_assert_not_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/adapters", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    for (; *built != NULL; built++) {
        snprintf(path, sizeof path, "adapters/%s.so", *built);
        write_file(path, "", 0);
    }
    write_file("report.json", report_json, 0);
    write_file("perf.json", perf_json, 0);
    snprintf(script, sizeof script,
             "#!/bin/sh\n"
             "# usage: harness.sh --candidate SO --report-dir DIR --quiet\n"
             "#    or: harness.sh perf --candidate SO ... --report-dir DIR (last)\n"
             "if [ \"$1\" = perf ]; then\n"
             "  eval dir=\\${$#}\n"
             "  case $(basename \"$3\" .so) in\n"
             "  numpy) mkdir -p \"$dir\"; cp %s/perf.json \"$dir\"/perf.json;;\n"
             "  esac\n"
             "  exit 0\n"
             "fi\n"
             "name=$(basename \"$2\" .so)\n"
             "mkdir -p \"$4\"\n"
             "if [ -f %s/report_$name.json ]; then\n"
             "  cp %s/report_$name.json \"$4\"/report.json; echo nonconformant; exit 1\n"
             "fi\n"
             "case $name in\n"
             "numpy) cp %s/report.json \"$4\"/report.json; echo nonconformant; exit 1;;\n"
             "onednn) echo 'harness: broken' >&2; exit %d;;\n"
             "esac\n"
             "exit 0\n",
             dir, dir, dir, dir, onednn_exit);
    write_file("harness.sh", script, 1);
}

/* Runs the scoreboard on the world; returns its exit status. */
static int run_scoreboard(void)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 candidates/scoreboard.py --harness %s/harness.sh "
             "--adapters %s/adapters --reports %s/reports >%s/out.txt 2>&1",
             dir, dir, dir, dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "scoreboard.py did not exit");
    return WEXITSTATUS(st);
}

/* The text of SCOREBOARD.md, malloc'd. */
static char *scoreboard_text(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/reports/SCOREBOARD.md", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no '%s'", path);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static void remove_world(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(scoreboard, a_nonconformant_library_is_a_result_not_a_failure,
     .fini = remove_world)
{
    static const char *const built[] = {"numpy", NULL};
    make_world(built, 3);
    cr_assert_eq(run_scoreboard(), 0, "a harness exit 1 must not fail the scoreboard");
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
    cr_assert_eq(run_scoreboard(), 0);
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
    cr_assert_eq(run_scoreboard(), 3, "a harness exit 2 is a scoreboard failure");
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
    cr_assert_eq(run_scoreboard(), 0);
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
    cr_assert_eq(run_scoreboard(), 0);
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
