/*
 * bench_test.c - `make bench` (bench/): reshape-bench, run small (1 MiB
 * copies, a 1 MiB large case, the harness's basic cases, one run each),
 * writes every figure of the benchmark issue, each consistent with the
 * others; the clone section clones a stand-in checkout whose `make run`
 * writes the four reports at once (a clone of this one building and
 * running is test-standalone's: it need not be built twice by make test).
 * No time and no target is asserted: a figure only has to have been
 * measured.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/folders.h"

#define BENCH "build/bench/reshape-bench"
#define HARNESS "build/reshape-conform"
#define BASIC "tests/harness/data/basic"

/* Runs reshape-bench with `only` ("copy", "harness", "clone", "crashy", "busy" or "tests")
 * and the options `more`, and returns its JSON (asserting it exited 0). */
static json_t *run_bench(const char *only, const char *more)
{
    char dir[] = "/tmp/bench-test-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char cmd[1024], json[256];
    snprintf(json, sizeof json, "%s/bench.json", dir);
    snprintf(cmd, sizeof cmd,
             BENCH " --harness " HARNESS " --cases " BASIC " --tmp %s --copy-mib 1"
                   " --large-mib 1 --repeats 1 --only %s %s --json %s > %s/out.txt 2>&1",
             dir, only, more, json, dir);
    int rc = system(cmd);
    char out[300];
    snprintf(out, sizeof out, "cat %s/out.txt >&2", dir);
    if (rc != 0 && system(out) != 0)
        cr_log_error("could not show %s/out.txt", dir);
    cr_assert_eq(rc, 0, "reshape-bench --only %s failed", only);
    json_error_t err;
    json_t *root = json_load_file(json, 0, &err);
    cr_assert_not_null(root, "%s: %s", json, err.text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
    return root;
}

static double num(json_t *o, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *v = o;
    for (char *k = strtok(buf, "."); k; k = strtok(NULL, "."))
        v = json_object_get(v, k);
    cr_assert(json_is_number(v), "no number at %s", path);
    return json_number_value(v);
}

static void expect_close(double a, double b, const char *what)
{
    cr_expect(fabs(a - b) <= 1e-9 * fabs(b), "%s: %.12g against %.12g", what, a, b);
}

Test(bench, copy_figures_are_measured_as_ratios_to_memcpy, .timeout = 120)
{
    json_t *b = run_bench("copy", "");
    static const char *const kinds[] = {"dense", "dense_plain_path", "strided_src",
                                        "strided_dst"};
    cr_expect_eq(num(b, "copy.payload_bytes"), 1 << 20);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        char p[3][64];
        snprintf(p[0], sizeof p[0], "copy.%s.reference_gib_s", kinds[i]);
        snprintf(p[1], sizeof p[1], "copy.%s.memcpy_gib_s", kinds[i]);
        snprintf(p[2], sizeof p[2], "copy.%s.ratio", kinds[i]);
        cr_expect_gt(num(b, p[0]), 0, "%s", p[0]);
        cr_expect_gt(num(b, p[1]), 0, "%s", p[1]);
        expect_close(num(b, p[2]), num(b, p[0]) / num(b, p[1]), p[2]);
    }
    cr_expect_gt(num(b, "copy.in_place.reference_s"), 0);
    cr_expect_gt(num(b, "copy.in_place.memcpy_s"), 0);
    cr_expect_null(json_object_get(b, "harness"), "--only copy ran the harness too");
    json_decref(b);
}

Test(bench, harness_figures_cover_every_mode_on_the_same_cases, .timeout = 300)
{
    json_t *b = run_bench("harness", "");
    static const char *const modes[] = {"worker", "none", "fork", "short_worker", "short_none"};
    double results = num(b, "harness.worker.results");
    cr_expect_gt(results, 0);
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        char p[3][64];
        snprintf(p[0], sizeof p[0], "harness.%s.results", modes[i]);
        snprintf(p[1], sizeof p[1], "harness.%s.results_per_s", modes[i]);
        snprintf(p[2], sizeof p[2], "harness.%s.run_seconds", modes[i]);
        if (i < 3)
            cr_expect_eq(num(b, p[0]), results, "%s: not the same cases", p[0]);
        cr_expect_gt(num(b, p[2]), 0, "%s", p[2]);
        expect_close(num(b, p[1]), num(b, p[0]) / num(b, p[2]), p[1]);
    }
    expect_close(num(b, "harness.worker_vs_none"),
                 num(b, "harness.worker.results_per_s") / num(b, "harness.none.results_per_s"),
                 "worker_vs_none");
    /* one pair run: its ratio is the median of the pairs */
    expect_close(num(b, "harness.worker_vs_none_median_of_pairs"),
                 num(b, "harness.worker_vs_none"), "median of one pair");
    expect_close(num(b, "harness.short_worker_vs_none_median_of_pairs"),
                 num(b, "harness.short_worker.results_per_s") /
                     num(b, "harness.short_none.results_per_s"),
                 "short run, median of one pair");
    expect_close(num(b, "harness.worker_vs_fork"),
                 num(b, "harness.worker.results_per_s") / num(b, "harness.fork.results_per_s"),
                 "worker_vs_fork");
    cr_expect_eq(num(b, "harness.whole_suite.exit_code"), 0);
    cr_expect_gt(num(b, "harness.whole_suite.results"), results, "every variant, not dense only");
    cr_expect_gt(num(b, "harness.whole_suite.seconds"), 0);
    cr_expect_eq(num(b, "harness.fuzz.requests") >= 20000, 1, "fuzz ran its whole count");
    cr_expect_gt(num(b, "harness.fuzz.seconds"), 0);
    expect_close(num(b, "harness.fuzz.requests_per_s"),
                 num(b, "harness.fuzz.requests") / num(b, "harness.fuzz.seconds"),
                 "fuzz rate is requests over seconds");
    cr_expect_eq(num(b, "harness.peak_memory.exit_code"), 0);
    cr_expect_eq(num(b, "harness.peak_memory.payload_bytes"), 2 << 20, "src + dst of 1 MiB");
    expect_close(num(b, "harness.peak_memory.ratio"),
                 num(b, "harness.peak_memory.peak_pss_bytes") /
                     num(b, "harness.peak_memory.payload_bytes"),
                 "peak ratio");
    json_t *targets = json_object_get(b, "targets");
    static const char *const named[] = {"worker_vs_none", "worker_vs_fork", "dense_copy_vs_memcpy",
                                        "peak_memory_vs_payload", "whole_suite_s"};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        cr_expect(json_is_string(json_object_get(targets, named[i])), "no target %s", named[i]);
    json_decref(b);
}

/* A git checkout whose `make run` writes reports/reference/report.json,
 * .xml, .md and .html: what the clone section looks for.  New string: its
 * folder. */
static char *stand_in_checkout(void)
{
    char *dir = strdup("/tmp/bench-source-XXXXXX");
    cr_assert(dir && mkdtemp(dir));
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd %s && printf 'run:\n\tmkdir -p reports/reference && for f in json xml md html; "
             "do echo x > reports/reference/report.$$f; done\n' > Makefile && git init -q && "
             "git add Makefile && git -c user.name=t -c user.email=t@t commit -q -m run", dir);
    cr_assert_eq(system(cmd), 0, "cannot make the stand-in checkout in %s", dir);
    return dir;
}

Test(bench, clone_to_first_report_is_a_clone_and_a_make_run, .timeout = 900)
{
    char *source = stand_in_checkout(), more[128];
    snprintf(more, sizeof more, "--source %s", source);
    json_t *b = run_bench("clone", more);
    double clone = num(b, "clone.clone_seconds"), make = num(b, "clone.make_run_seconds");
    cr_expect_gt(clone, 0);
    cr_expect_gt(make, 0);
    expect_close(num(b, "clone.seconds"), clone + make, "clone to first report");
    cr_expect_gt(num(b, "clone.cpu_seconds"), 0, "the build took no CPU time");
    cr_expect_eq(num(b, "clone.make_run_exit_code"), 0);
    cr_expect_eq(num(b, "clone.reports_written"), 4, "json, xml, md and html");
    cr_expect(json_is_string(json_object_get(json_object_get(b, "targets"),
                                             "clone_to_first_report_s")));
    cr_expect_null(json_object_get(b, "harness"), "--only clone ran the harness section");
    cr_expect_null(json_object_get(b, "copy"), "--only clone ran the copy section");
    json_decref(b);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf %s", source);
    cr_expect_eq(system(rm), 0);
    free(source);
}

/* The crash and hang figures, the load a command that only sleeps and the
 * baseline the harness itself. */
Test(bench, crashy_figures_are_whole_runs_of_each_candidate, .timeout = 300)
{
    json_t *b = run_bench("crashy", "--load-cmd 'sleep 60' --baseline " HARNESS);
    static const char *const runs[] = {"crash_every_call", "crash_every_call_loaded",
                                       "crash_every_call_jobs_1", "crash_every_call_every_core",
                                       "crash_every_call_loaded_jobs_2", "xtensor_standin",
                                       "hang", "late_thread", "reference",
                                       "reference_baseline"};
    double results = num(b, "crashy.reference.results");
    cr_expect_gt(results, 0);
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        char p[4][96];
        snprintf(p[0], sizeof p[0], "crashy.%s.results", runs[i]);
        snprintf(p[1], sizeof p[1], "crashy.%s.wall_seconds", runs[i]);
        snprintf(p[2], sizeof p[2], "crashy.%s.cpu_seconds", runs[i]);
        snprintf(p[3], sizeof p[3], "crashy.%s.crashes", runs[i]);
        cr_expect_eq(num(b, p[0]), results, "%s: not the same cases", p[0]);
        cr_expect_gt(num(b, p[1]), 0, "%s", p[1]);
        cr_expect_gt(num(b, p[2]), 0, "%s", p[2]);
        if (i < 5)
            cr_expect_eq(num(b, p[3]), results, "%s: every call crashes", p[3]);
    }
    expect_close(num(b, "crashy.crash_every_call.ms_per_crash"),
                 1000 * num(b, "crashy.crash_every_call.wall_seconds") / results, "ms a crash");
    expect_close(num(b, "crashy.loaded_vs_quiet"),
                 num(b, "crashy.crash_every_call_loaded.wall_seconds") /
                     num(b, "crashy.crash_every_call_every_core.wall_seconds"),
                 "loaded (default --jobs) over every core, quiet");
    cr_expect_gt(num(b, "crashy.hang.timeouts"), 0);
    cr_expect_eq(num(b, "crashy.late_thread.crashes"), 0);
    cr_expect_eq(num(b, "crashy.reference.crashes"), 0);
    cr_expect_eq(num(b, "crashy.reference.timeouts"), 0);
    cr_expect_gt(num(b, "crashy.cores"), 0);
    json_decref(b);
}

/* The busy section: the crash and the hang candidates beside a load, here
 * a command that only sleeps (the busy loops would cost make test two
 * CPUs), and the crash candidate on the machine as it is, each with the
 * slots its runs added, as their reports said (least, most). */
Test(bench, busy_figures_are_whole_runs_of_the_crash_and_hang_candidates, .timeout = 300)
{
    json_t *b = run_bench("busy", "--load-cmd 'sleep 60'");
    double crashes = num(b, "busy.crash_every_call_busy_loops.crashes");
    cr_expect_gt(crashes, 0);
    cr_expect_eq(num(b, "busy.crash_every_call_busy_loops.results"), crashes,
                 "every call crashes");
    cr_expect_gt(num(b, "busy.crash_every_call_busy_loops.wall_seconds"), 0);
    cr_expect_gt(num(b, "busy.hang_busy_loops.timeouts"), 0);
    cr_expect_gt(num(b, "busy.hang_busy_loops.wall_seconds"), 0);
    cr_expect_eq(num(b, "busy.crash_every_call_idle.crashes"), crashes, "the same run, idle");
    const char *figs[] = {"crash_every_call_busy_loops", "crash_every_call_idle",
                          "hang_busy_loops"};
    for (int k = 0; k < 3; k++) {
        json_t *range = json_object_get(json_object_get(json_object_get(b, "busy"), figs[k]),
                                        "slots_added_least_most");
        cr_assert_eq(json_array_size(range), 2, "%s: no slots_added_least_most", figs[k]);
        json_int_t least = json_integer_value(json_array_get(range, 0));
        cr_expect(least >= 0 && least <= json_integer_value(json_array_get(range, 1)),
                  "%s: slots added %lld to %lld", figs[k], (long long)least,
                  (long long)json_integer_value(json_array_get(range, 1)));
    }
    cr_expect(json_is_string(json_object_get(json_object_get(b, "targets"),
                                             "hang_busy_loops_s")));
    cr_expect_null(json_object_get(b, "crashy"), "--only busy ran the crashy section");
    json_decref(b);
}

/* The tests section reads what make test-run recorded: the run's line and
 * each target's /usr/bin/time line (a failed one's first line says so),
 * the build's left out of the targets' CPU. */
Test(bench, the_last_make_test_is_read_as_it_recorded_itself)
{
    char dir[] = "/tmp/bench-times-XXXXXX", more[96];
    cr_assert_not_null(mkdtemp(dir));
    put_file(dir, "run", "152.25 3 2 2026-11-29T09:00:00Z 0123456789abcdef make-test 0\n");
    put_file(dir, "test-a.time", "1.5 0.5 0.25\n");
    put_file(dir, "test-b.time", "Command exited with non-zero status 1\n2.0 1.0 0.5\n");
    put_file(dir, "build.time", "9.0 9.0 9.0\n");
    snprintf(more, sizeof more, "--test-times %s", dir);
    json_t *b = run_bench("tests", more);
    cr_expect_eq(num(b, "tests.wall_s"), 152.25);
    cr_expect_eq(num(b, "tests.cpu_s"), 2.25, "0.75 + 1.5, not the build's");
    cr_expect_eq(num(b, "tests.jobs"), 3);
    cr_expect_eq(num(b, "tests.cores"), 2);
    cr_expect_eq(num(b, "tests.exit_status"), 0);
    cr_expect_eq(num(b, "tests.targets.test-a.cpu_s"), 0.75);
    json_t *t = json_object_get(b, "tests");
    cr_expect_str_eq(json_string_value(json_object_get(t, "command")), "make test");
    cr_expect_str_eq(json_string_value(json_object_get(t, "commit")), "0123456789abcdef");
    json_t *targets = json_object_get(t, "targets");
    cr_expect(json_is_false(json_object_get(json_object_get(targets, "test-a"), "failed")));
    cr_expect(json_is_true(json_object_get(json_object_get(targets, "test-b"), "failed")));
    cr_expect_eq(json_object_size(targets), 2);
    json_t *row = json_array_get(json_object_get(b, "table"), 0);
    cr_expect_str_eq(json_string_value(json_array_get(row, 4)), "<= 180 (2 cores)");
    cr_expect_null(json_object_get(b, "harness"), "--only tests ran the harness section");
    json_decref(b);
    /* no run recorded: said, and no failure of the bench */
    remove(strcat(strcpy(more, dir), "/run"));
    snprintf(more, sizeof more, "--test-times %s", dir);
    b = run_bench("tests", more);
    cr_expect(json_is_false(json_object_get(json_object_get(b, "tests"), "recorded")));
    json_decref(b);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}
