/*
 * scoreboard_world.c - the scoreboard tests' world (scoreboard_world.h):
 * a NumPy report fixture, a profile fixture and the stand-in harness.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "scoreboard_world.h"

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

/* A performance profile: f32 at 1 MiB, dense and strided src. */
static const char perf_json[] =
    "{\"schema\": \"reshape-conform-perf/1\", \"config\": {\"ops\": [\"openvino_reshape_1\"]},"
    " \"points\": ["
    "  {\"op\": \"openvino_reshape_1\", \"dtype\": \"f32\", \"layout\": \"dense\","
    "   \"bytes\": 1048576, \"status\": \"OK\", \"ratio\": 0.97},"
    "  {\"op\": \"openvino_reshape_1\", \"dtype\": \"f32\", \"layout\": \"strided_src\","
    "   \"bytes\": 1048576, \"status\": \"OK\", \"ratio\": 0.125}"
    " ], \"fixed\": []}\n";

/* mkdtemp's template, "/tmp/scoreboard_test." and six 'X' that it replaces. */
char world_dir[64];

void write_file(const char *name, const char *text, int executable)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", world_dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write '%s'", path);
    fputs(text, f);
    fclose(f);
    if (executable)
        cr_assert_eq(chmod(path, 0755), 0);
}

/* The stand-in harness; "%s" is the world, "%d" onednn's exit status. */
static const char harness_fmt[] =
    "#!/bin/sh\n"
    "# usage: harness.sh --candidate SO --report-dir DIR --quiet\n"
    "#    or: harness.sh perf --candidate SO ... --report-dir DIR (last)\n"
    "#    or: harness.sh certify --candidate SO --out DIR --quiet\n"
    "#    or: harness.sh verify BUNDLE --rerun SO\n"
    "w=%s\n"
    "if [ \"$1\" = perf ]; then\n"
    "  eval dir=\\${$#}\n"
    "  case $(basename \"$3\" .so) in\n"
    "  numpy) mkdir -p \"$dir\"; cp $w/perf.json \"$dir\"/perf.json;;\n"
    "  esac\n"
    "  exit 0\n"
    "fi\n"
    "if [ \"$1\" = certify ]; then\n"
    "  name=$(basename \"$3\" .so)\n"
    "  [ -x $w/certify_$name ] && exec $w/certify_$name \"$@\"\n"
    "  mkdir -p \"$5\" && : >\"$5/$name-1.0.tar.gz\"\n"
    "  echo \"certify: wrote '$5/$name-1.0.tar.gz' (nonconformant, 6 results, 11 members)\"\n"
    "  exit 1\n"
    "fi\n"
    "if [ \"$1\" = verify ]; then\n"
    "  name=$(basename \"$4\" .so)\n"
    "  [ -x $w/verify_$name ] && exec $w/verify_$name \"$@\"\n"
    "  [ -f \"$2\" ] || { echo \"harness: cannot read bundle '$2'\" >&2; exit 2; }\n"
    "  echo \"rerun: '$4' (sha256 0123456789ab...): 6 results, every verdict as the bundle says\"\n"
    "  echo \"valid: '$2': NumPy 9.9, nonconformant, 6 results over 4 mandatory cases\"\n"
    "  exit 0\n"
    "fi\n"
    "name=$(basename \"$2\" .so)\n"
    "mkdir -p \"$4\"\n"
    "if [ -f $w/report_$name.json ]; then\n"
    "  cp $w/report_$name.json \"$4\"/report.json; echo nonconformant; exit 1\n"
    "fi\n"
    "case $name in\n"
    "numpy) cp $w/report.json \"$4\"/report.json; echo nonconformant; exit 1;;\n"
    "onednn) echo 'harness: broken' >&2; exit %d;;\n"
    "esac\n"
    "exit 0\n";

void make_world(const char *const *built, int onednn_exit)
{
    char script[sizeof harness_fmt + 128];

    size_t len = (size_t)snprintf(world_dir, sizeof world_dir, "/tmp/scoreboard_test.");
    memset(world_dir + len, 'X', 6);
    world_dir[len + 6] = '\0';
    cr_assert_not_null(mkdtemp(world_dir));
    char path[256];
    static const char *const folders[] = {"adapters", "tmp"};
    for (size_t i = 0; i < sizeof folders / sizeof *folders; i++) {
        snprintf(path, sizeof path, "%s/%s", world_dir, folders[i]);
        cr_assert_eq(mkdir(path, 0755), 0);
    }
    for (; *built != NULL; built++) {
        snprintf(path, sizeof path, "adapters/%s.so", *built);
        write_file(path, "", 0);
    }
    write_file("report.json", report_json, 0);
    write_file("perf.json", perf_json, 0);
    snprintf(script, sizeof script, harness_fmt, world_dir, onednn_exit);
    write_file("harness.sh", script, 1);
}

int run_scoreboard(const char *options)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "TMPDIR=%s/tmp /usr/bin/python3 candidates/scoreboard.py --harness %s/harness.sh "
             "--adapters %s/adapters --reports %s/reports %s >%s/out.txt 2>&1",
             world_dir, world_dir, world_dir, world_dir, options, world_dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "scoreboard.py did not exit");
    return WEXITSTATUS(st);
}

/* world_dir/name read whole into `text` (of `size` bytes, cut there). */
static char *read_world_file(const char *name, char *text, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", world_dir, name);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no '%s'", path);
    size_t n = fread(text, 1, size - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

char *scoreboard_text(void)
{
    static char text[65536];
    return read_world_file("reports/SCOREBOARD.md", text, sizeof text);
}

int world_has(const char *path)
{
    char full[256];
    snprintf(full, sizeof full, "%s/%s", world_dir, path);
    return access(full, F_OK) == 0;
}

int world_tmp_is_empty(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/tmp", world_dir);
    DIR *d = opendir(path);
    cr_assert_not_null(d, "no '%s'", path);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return entries == 0;
}

void remove_world(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", world_dir);
    cr_expect_eq(system(cmd), 0);
}

int mkdir_world(const char *path)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/%s", world_dir, path);
    return system(cmd);
}

int world_output_has(const char *text)
{
    static char out[65536];
    return strstr(read_world_file("out.txt", out, sizeof out), text) != NULL;
}
