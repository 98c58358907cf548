/*
 * run_test.c - the harness's device path end to end: build/reshape-conform
 * on the simulated device (conformant over the whole suite, every variant
 * in its device memory), on each of its device-path defects (caught, each
 * with its verdict), on a device that is not there (exit 77, nothing
 * tested) and on a device table the loader refuses.  The runs use
 * tests/harness/run_harness.h (HARNESS_BIN).
 */
#include "run_harness.h"

#define SIMDEV "build/simdev/"
#define ONE_FILE "--cases cases/openvino_reshape_1.yaml"

/* Counts the report's entries with `verdict` whose variant is `variant`
 * (NULL: any) and whose detail contains `detail` (NULL: any). */
static int count(const run *r, const char *verdict, const char *variant, const char *detail)
{
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e)
        n += !strcmp(field(e, "verdict"), verdict) &&
             (!variant || !strcmp(field(e, "variant"), variant)) &&
             (!detail || strstr(field(e, "detail"), detail));
    return n;
}

Test(device_run, simdev_is_conformant_on_every_variant, .timeout = 600)
{
    run r = run_harness("--candidate " SIMDEV "simdev.so --variants all");
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.out);
    json_t *sum = json_object_get(r.report, "summary");
    cr_expect_eq(json_integer_value(json_object_get(sum, "PASS")),
                 json_integer_value(json_object_get(sum, "total")));
    cr_expect_eq(others_not_passing(&r, NULL), 0);
    /* every variant the suite has ran, and passed, on the device */
    static const char *const variants[] = {"dense", "in_place", "strided_src_padded",
        "strided_src_permuted", "strided_dst", "misaligned", "dst_too_small", "infer",
        "threads", "repeat"};
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++)
        cr_expect_gt(count(&r, "PASS", variants[k], NULL), 0, "no %s run passed", variants[k]);
    json_t *dev = json_object_get(json_object_get(r.report, "host"), "device");
    cr_expect_str_eq(field(dev, "type"), "ext");
    cr_expect(strstr(field(dev, "name"), "simdev"), "host.device.name: %s", field(dev, "name"));
    run_free(&r);
}

Test(device_run, band_written_past_dst_on_the_device_is_memory_violation)
{
    run r = run_harness("--candidate " SIMDEV "simdev_band_past_dst.so " ONE_FILE);
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "openvino_data_type_s8", "dense", "MEMORY_VIOLATION",
                   "bytes past the end of dst");
    /* every variant that writes dst is caught, the gaps of strided dst included */
    cr_expect_gt(count(&r, "MEMORY_VIOLATION", "strided_dst", "past the end of dst"), 0);
    cr_expect_gt(count(&r, "MEMORY_VIOLATION", "misaligned", "past the end of dst"), 0);
    cr_expect_gt(count(&r, "MEMORY_VIOLATION", "in_place", "past the end of dst"), 0);
    run_free(&r);
}

Test(device_run, synchronize_that_does_not_wait_is_fail)
{
    run r = run_harness("--candidate " SIMDEV "simdev_sync_returns_early.so " ONE_FILE);
    cr_expect_eq(r.code, 1);
    /* dst read back is still the complement of the payload the harness staged */
    expect_verdict(&r, "openvino_data_type_s8", "dense", "FAIL", "element 0 [0,0]");
    cr_expect_gt(count(&r, "FAIL", "threads", NULL), 0);
    cr_expect_gt(count(&r, "FAIL", "repeat", NULL), 0);
    run_free(&r);
}

Test(device_run, host_code_reading_a_device_pointer_is_crash)
{
    run r = run_harness("--candidate " SIMDEV "simdev_copies_on_host.so " ONE_FILE);
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "openvino_data_type_s8", "dense", "CRASH",
                   "host code read device memory at 0x");
    expect_verdict(&r, "openvino_data_type_s8", "dense", "CRASH", "SIGSEGV at address");
    run_free(&r);
}

Test(device_run, device_memory_growing_per_call_is_leak)
{
    run r = run_harness("--candidate " SIMDEV "simdev_leaks_device_memory.so " ONE_FILE);
    cr_expect_eq(r.code, 1);
    expect_verdict(&r, "openvino_data_type_s8", "repeat", "LEAK", "grew by 256 bytes per call");
    cr_expect_eq(count(&r, "LEAK", NULL, NULL), count(&r, "LEAK", "repeat", NULL));
    run_free(&r);
}

Test(device_run, device_not_available_tests_nothing)
{
    run r = run_harness("--candidate " SIMDEV "simdev_unavailable.so " ONE_FILE);
    cr_expect_eq(r.code, 77, "exit %d: %s", r.code, r.err);
    cr_expect(strstr(r.err, "skipped: the candidate's device 'simdev"), "stderr: %s", r.err);
    cr_expect(strstr(r.err, "alloc returned INTERNAL: no simulated device on this machine"),
              "stderr: %s", r.err);
    cr_expect(strstr(r.err, "nothing was tested"), "stderr: %s", r.err);
    cr_expect_null(r.report, "no report for a run that tested nothing");
    run_free(&r);
}

Test(device_run, device_table_without_synchronize_is_refused)
{
    run r = run_harness("--candidate build/tests/device_cands/no_synchronize.so " ONE_FILE);
    cr_expect_eq(r.code, 1);
    cr_expect(strstr(r.err, "has a NULL 'device->synchronize'"), "stderr: %s", r.err);
    run_free(&r);
}

Test(device_run, report_views_name_the_device)
{
    char dir[64];
    temp_template(dir, sizeof dir, "/tmp/device-views-");
    cr_assert(mkdtemp(dir));
    run r = run_harness("--candidate " SIMDEV "simdev.so " ONE_FILE " --filter "
                        "openvino_data_type_s8 --report-dir %s", dir);
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    char path[128];
    snprintf(path, sizeof path, "%s/report.md", dir);
    char *md = slurp(path);
    cr_expect(strstr(md, " on simdev 1.0 (simulated"), "report.md: %.400s", md);
    cr_expect(strstr(md, "(ext 0: tensors in device memory)"));
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *html = slurp(path);
    cr_expect(strstr(html, "<dt>device</dt><dd>simdev 1.0"));
    free(md);
    free(html);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
    run_free(&r);
}

Test(device_run, host_candidates_report_no_device)
{
    run r = run_harness(ONE_FILE " --filter openvino_data_type_s8");
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    json_t *host = json_object_get(r.report, "host");
    cr_expect(json_is_null(json_object_get(host, "device")));
    run_free(&r);
}

Test(device_perf, bandwidth_beside_the_devices_own_copy)
{
    run r = run_harness("perf --candidate " SIMDEV "simdev.so --op openvino_reshape_1 "
                        "--max-size 4K --point-seconds 0.01 --quiet");
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    json_t *cand = json_object_get(r.report, "candidate");
    cr_expect_str_eq(field(json_object_get(cand, "device"), "type"), "ext");
    size_t i;
    json_t *pt;
    json_array_foreach(json_object_get(r.report, "points"), i, pt) {
        cr_expect_str_eq(field(pt, "status"), "OK", "%s %s", field(pt, "dtype"), field(pt, "layout"));
        cr_expect_str_eq(field(pt, "baseline"), "copy_on_device");
        cr_expect(json_real_value(json_object_get(pt, "ratio")) > 0);
    }
    cr_expect_gt(i, 0);
    json_t *fixed = json_array_get(json_object_get(r.report, "fixed"), 0);
    cr_expect_str_eq(field(json_object_get(fixed, "tiny_execute"), "status"), "OK");
    run_free(&r);
}

Test(device_perf, wrong_bytes_on_the_device_are_not_timed)
{
    run r = run_harness("perf --candidate " SIMDEV "simdev_sync_returns_early.so "
                        "--op openvino_reshape_1 --max-size 4K --point-seconds 0.01 --quiet");
    json_t *pt = json_array_get(json_object_get(r.report, "points"), 0);
    cr_expect_str_eq(field(pt, "status"), "WRONG_BYTES");
    cr_expect_null(json_object_get(pt, "ratio"));
    run_free(&r);
}

Test(device_perf, device_not_available_is_said)
{
    run r = run_harness("perf --candidate " SIMDEV "simdev_unavailable.so --op openvino_reshape_1 "
                        "--max-size 4K --quiet");
    cr_expect_eq(r.code, 1);
    cr_expect(strstr(r.err, "the candidate's device is not available here: alloc returned "
                     "INTERNAL"), "%s", r.err);
    run_free(&r);
}
