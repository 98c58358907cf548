/*
 * test_perf.c - `reshape-conform perf`: the profile is complete for a
 * correct candidate, and a candidate that crashes, hangs or gives wrong
 * bytes costs only its own points (perf.h); a point supports() declines is
 * "not supported" and in no figure, an in-place point is a time per call,
 * a call over the point budget is timed once and cuts the larger sizes of
 * its series, and the summary says all of it.  Sizes are the smallest
 * (4 KiB, 64 KiB) and no figure is asserted: only that each is measured.
 */
#include "../common/survivors.h"
#include "run_harness.h"

#define QUICK "perf --op openvino_reshape_1 --max-size 4K --point-seconds 0 --quiet"

/* The points of `r` whose layout is `layout` (or any, for NULL) and whose
 * status is `status`. */
static int count_points(const run *r, const char *layout, const char *status)
{
    int n = 0;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(r->report, "points"), i, p)
        if ((!layout || !strcmp(field(p, "layout"), layout)) && !strcmp(field(p, "status"), status))
            n++;
    return n;
}

Test(perf, reference_profile_has_every_point_measured)
{
    char dir[64], path[96];
    temp_template(dir, sizeof dir, "/tmp/perf-test-");
    cr_assert(mkdtemp(dir));
    run r = run_harness(QUICK " --report-dir %s", dir);
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    cr_assert(r.report);
    cr_expect_str_eq(field(r.report, "schema"), "reshape-conform-perf/1");
    json_t *points = json_object_get(r.report, "points");
    cr_assert_eq(json_array_size(points), 24, "6 widths x 4 layouts x 1 size");
    size_t i;
    json_t *p;
    json_array_foreach(points, i, p) {
        cr_expect_str_eq(field(p, "status"), "OK", "%s %s", field(p, "dtype"), field(p, "layout"));
        double ex = json_real_value(json_object_get(json_object_get(p, "execute"), "median_ns"));
        cr_expect(ex > 0, "execute timed");
        if (!strcmp(field(p, "layout"), "in_place")) {
            /* nothing has to move: a time per call, no bandwidth, no ratio */
            cr_expect_null(json_object_get(p, "ratio"));
            cr_expect_null(json_object_get(p, "memcpy"));
            continue;
        }
        double mc = json_real_value(json_object_get(json_object_get(p, "memcpy"), "median_ns"));
        double ratio = json_real_value(json_object_get(p, "ratio"));
        cr_expect(mc > 0, "memcpy timed");
        cr_expect(ratio > 0.999 * mc / ex && ratio < 1.001 * mc / ex, "ratio is memcpy / execute");
    }
    json_t *s = json_object_get(r.report, "summary");
    cr_expect_eq(json_integer_value(json_object_get(s, "measured")), 24);
    cr_expect_eq(json_array_size(json_object_get(s, "layouts")), 3, "dense and both strided");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(s, "in_place"), "points")), 6);
    cr_expect(strstr(r.out, "perf: slowest layouts first"), "%s", r.out);
    json_t *fixed = json_array_get(json_object_get(r.report, "fixed"), 0);
    cr_expect(json_real_value(json_object_get(json_object_get(json_object_get(fixed, "infer_shape"),
                                                              "ns_per_call"), "median_ns")) > 0);
    cr_expect(json_real_value(json_object_get(json_object_get(json_object_get(fixed, "tiny_execute"),
                                                              "ns_per_call"), "median_ns")) > 0);
    json_t *load = json_object_get(json_object_get(r.report, "host"), "load_average");
    cr_expect(json_array_size(load) == 2 && json_is_real(json_array_get(load, 0)) &&
                  json_real_value(json_array_get(load, 1)) >= 0,
              "host.load_average holds the load at the start and at the end");
    snprintf(path, sizeof path, "%s/perf.md", dir);
    char *md = slurp(path);
    snprintf(path, sizeof path, "%s/perf.html", dir);
    char *html = slurp(path);
    cr_expect(strstr(md, "| u1 | strided_src |"), "perf.md has the table: %.300s", md);
    cr_expect(strstr(md, " ns/call |"), "perf.md gives in place a time per call: %.300s", md);
    cr_expect(strstr(md, "Slowest layouts first: "), "perf.md has the summary: %.600s", md);
    cr_expect(strstr(md, "at the start,"), "perf.md names the load average: %.600s", md);
    cr_expect(strstr(html, "<polyline"), "perf.html has the charts");
    free(md);
    free(html);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    cr_expect_eq(system(path), 0);
    run_free(&r);
}

Test(perf, a_point_supports_declines_is_not_supported_and_in_no_figure)
{
    /* supports() declines every strided and in-place layout */
    run r = run_harness(QUICK " --candidate " CANDS "supports_dense_only.so");
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    cr_expect_eq(count_points(&r, NULL, "NOT_SUPPORTED"), 18);
    cr_expect_eq(count_points(&r, "dense", "OK"), 6);
    size_t i;
    json_t *p, *s = json_object_get(r.report, "summary");
    json_array_foreach(json_object_get(r.report, "points"), i, p)
        if (!strcmp(field(p, "status"), "NOT_SUPPORTED"))
            cr_expect(!json_object_get(p, "ratio") && !json_object_get(p, "execute"),
                      "a point not supported is not timed");
    cr_expect_eq(json_integer_value(json_object_get(s, "not_supported")), 18);
    json_array_foreach(json_object_get(s, "layouts"), i, p) {
        int dense = !strcmp(field(p, "layout"), "dense");
        cr_expect_eq(json_integer_value(json_object_get(p, "points")), dense ? 6 : 0,
                     "%s: only measured points count", field(p, "layout"));
        cr_expect_eq(json_object_get(p, "median_ratio") != NULL, dense);
    }
    cr_expect(strstr(r.out, "18 not supported and 0 refused with an error status (in no figure)"),
              "%s", r.out);
    run_free(&r);
}

Test(perf, a_call_over_the_point_budget_is_timed_once_and_cuts_its_series)
{
    run r = run_harness("perf --op openvino_reshape_1 --max-size 64K --point-seconds 0 "
                        "--point-budget 0 --quiet");
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    size_t i;
    json_t *p;
    int once = 0;
    json_array_foreach(json_object_get(r.report, "points"), i, p) {
        long long bytes = json_integer_value(json_object_get(p, "bytes"));
        if (bytes == 4096) {
            cr_expect_str_eq(field(p, "status"), "OK");
            once += json_object_get(p, "over_budget") != NULL;
            cr_expect_eq(json_integer_value(json_object_get(p, "rounds")), 1);
        } else {
            cr_expect_str_eq(field(p, "status"), "CUT", "the 64 KiB points are not run");
        }
    }
    cr_expect_eq(once, 24);
    json_t *s = json_object_get(r.report, "summary");
    cr_expect_eq(json_array_size(json_object_get(s, "cut")), 24);
    cr_expect_eq(json_integer_value(json_object_get(s, "timed_once")), 24);
    cr_expect(strstr(r.out, "perf: cut (not run: by a smaller point of their series, a call "
                            "would take longer than the point budget): u1 dense 64 KiB "
                            "(openvino_reshape_1),"), "%s", r.out);
    run_free(&r);
}

Test(perf, a_crash_costs_only_its_points)
{
    run r = run_harness(QUICK " --candidate " CANDS "perf_crash_strided_dst.so");
    cr_assert_eq(r.code, 1, "exit %d: %s", r.code, r.err);
    cr_expect_eq(count_points(&r, "strided_dst", "CRASH"), 6);
    cr_expect_eq(count_points(&r, NULL, "OK"), 18, "the other points are measured");
    run_free(&r);
}

Test(perf, a_hang_is_killed_at_its_deadline)
{
    run r = run_harness(QUICK " --timeout 0.5 --candidate " CANDS "perf_hang_in_place.so");
    cr_assert_eq(r.code, 1, "exit %d: %s", r.code, r.err);
    cr_expect_eq(count_points(&r, "in_place", "TIMEOUT"), 6);
    cr_expect_eq(count_points(&r, NULL, "OK"), 18);
    run_free(&r);
}

Test(perf, wrong_bytes_are_never_a_speed)
{
    run r = run_harness(QUICK " --candidate " CANDS "perf_flip_dense.so");
    cr_assert_eq(r.code, 1, "exit %d: %s", r.code, r.err);
    cr_expect_eq(count_points(&r, "dense", "WRONG_BYTES"), 6);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(r.report, "points"), i, p)
        if (!strcmp(field(p, "status"), "WRONG_BYTES"))
            cr_expect_null(json_object_get(p, "ratio"));
    run_free(&r);
}

Test(perf, an_unloadable_candidate_is_exit_1_with_the_reason)
{
    run r = run_harness(QUICK " --candidate " CANDS "abi_mismatch.so");
    cr_expect_eq(r.code, 1);
    cr_expect(strstr(r.err, "abi_version"), "stderr: %s", r.err);
    run_free(&r);
}

Test(perf, a_size_below_4k_is_a_usage_error)
{
    run r = run_harness("perf --max-size 1K");
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "--max-size"), "stderr: %s", r.err);
    run_free(&r);
}

Test(perf, certify_with_perf_bundles_the_profile_and_verifies)
{
    char dir[64], cmd[1024];
    temp_template(dir, sizeof dir, "/tmp/perf-cert-");
    cr_assert(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "%s certify --candidate " CANDS "good.so --cases " BASIC
             " --perf=4K --out %s --quiet >%s/log 2>&1 && tar tzf %s/harness-test-1.tar.gz >%s/list"
             " && %s verify %s/harness-test-1.tar.gz --cases " BASIC " >>%s/log 2>&1",
             harness_bin(), dir, dir, dir, dir, harness_bin(), dir, dir);
    int st = system(cmd);
    char path[96];
    snprintf(path, sizeof path, "%s/log", dir);
    char *log = slurp(path);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", log);
    snprintf(path, sizeof path, "%s/list", dir);
    char *list = slurp(path);
    cr_expect(strstr(list, "/perf.json\n") && strstr(list, "/perf.md\n") && strstr(list, "/perf.html\n"),
              "bundle: %s", list);
    free(log);
    free(list);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(perf, what_the_candidate_starts_is_killed_and_counted)
{
    /* the run's processes, the stray among them, inherit a marker unique
     * to this test; the hostile runs of tests/broken, which make test runs
     * beside this, start strays of their own with the same binary */
    char mark[96];
    snprintf(mark, sizeof mark, "RESHAPE_HOSTILE_MARK=perf-stray-%ld", (long)getpid());
    setenv("RESHAPE_HOSTILE_MARK", strchr(mark, '=') + 1, 1);
    run r = run_harness(QUICK " --candidate build/broken/forks_sleeping_child.so");
    unsetenv("RESHAPE_HOSTILE_MARK");
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    cr_expect_eq(json_integer_value(json_object_get(r.report, "processes_left_running")), 1);
    cr_expect(strstr(r.err, "left 1 process running"), "stderr: %s", r.err);
    cr_expect_eq(survivors(mark), 0, "a process of the run (the broken-stray) outlived the profile");
    run_free(&r);
}
