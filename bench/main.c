/*
 * main.c - `make bench`: measures the harness and the reference side by side
 * in one run, prints a table and writes the figures as JSON.
 *
 * usage: reshape-bench [--harness PATH] [--cases DIR] [--tmp DIR]
 *                      [--copy-mib N] [--large-mib N] [--repeats N]
 *                      [--json FILE] [--only copy|harness|clone|crashy|busy|tests]
 *                      [--source DIR] [--baseline PATH] [--load-cmd CMD]
 *                      [--test-times DIR]
 *
 *   --harness    the harness binary (default: build/reshape-conform)
 *   --cases      the default case folder (default: cases)
 *   --tmp        scratch folder (default: build/bench)
 *   --copy-mib   payload of the copy benchmarks (default: 256)
 *   --large-mib  payload of the peak-memory case (default: 2048)
 *   --repeats    best-of-N for every timing (default: 5)
 *   --json       where the figures go (default: reports/bench.json)
 *   --only       run one section
 *   --source     the git checkout the clone section clones, and the
 *                crashy section's load builds (default: .)
 *   --baseline   another harness binary (the one before a change): the
 *                crashy section runs the reference with it too, alternately
 *   --load-cmd   the crashy section's load, a shell command it kills when
 *                done (default: a parallel build of the harness, again and
 *                again, into a folder of --tmp); the busy section's too
 *                (default: two busy shell loops)
 *   --test-times where the last `make test` left its times (default
 *                build/test-times.last): the tests section reads them
 *
 * Exit status: 0 when every figure was measured, 1 when one could not be
 * (it says why), 2 on bad usage.  No figure is compared with its target here:
 * the targets are printed beside the figures for a person to read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static int usage(void)
{
    fputs("usage: reshape-bench [--harness PATH] [--cases DIR] [--tmp DIR]\n"
          "                     [--copy-mib N] [--large-mib N] [--repeats N]\n"
          "                     [--json FILE] [--only copy|harness|clone|crashy|busy|tests]\n"
          "                     [--source DIR] [--baseline PATH] [--load-cmd CMD]\n"
          "                     [--test-times DIR]\n",
          stderr);
    return 2;
}

/* Reads a positive integer option value, or returns -1. */
static long long positive(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);

    return (*s != '\0' && *end == '\0' && v > 0) ? v : -1;
}

static void print_table(json_t *table)
{
    size_t i;
    json_t *row;

    printf("%-9s %-42s %12s %-6s %s\n", "section", "figure", "value", "unit",
           "target");
    json_array_foreach(table, i, row) {
        const char *target = json_string_value(json_array_get(row, 4));

        printf("%-9s %-42s %12.3f %-6s %s\n",
               json_string_value(json_array_get(row, 0)),
               json_string_value(json_array_get(row, 1)),
               json_real_value(json_array_get(row, 2)),
               json_string_value(json_array_get(row, 3)),
               target ? target : "");
    }
}

/* What the figures were measured on, so that a published number keeps its
 * context. */
static json_t *host(void)
{
    struct utsname u;
    char when[32];
    time_t now = time(NULL);

    uname(&u);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    return json_pack("{s:s, s:s, s:s, s:I, s:s}", "os", u.sysname,
                     "release", u.release, "machine", u.machine,
                     "cores", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN),
                     "measured_utc", when);
}

int main(int argc, char **argv)
{
    struct bench_options opt = {"build/reshape-conform", "cases",
                                "build/bench", 256LL << 20, 2048LL << 20, 5, ".", NULL, NULL,
                                "build/test-times.last"};
    const char *json_path = "reports/bench.json", *only = NULL;
    json_t *root, *table, *argv_json;
    int failed = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;

        if (v == NULL)
            return usage();
        i++;
        if (strcmp(a, "--harness") == 0)
            opt.harness = v;
        else if (strcmp(a, "--cases") == 0)
            opt.cases = v;
        else if (strcmp(a, "--tmp") == 0)
            opt.tmpdir = v;
        else if (strcmp(a, "--json") == 0)
            json_path = v;
        else if (strcmp(a, "--source") == 0)
            opt.source = v;
        else if (strcmp(a, "--baseline") == 0)
            opt.baseline = v;
        else if (strcmp(a, "--load-cmd") == 0)
            opt.load_cmd = v;
        else if (strcmp(a, "--test-times") == 0)
            opt.test_times = v;
        else if (strcmp(a, "--only") == 0 &&
                 (strcmp(v, "copy") == 0 || strcmp(v, "harness") == 0 ||
                  strcmp(v, "clone") == 0 || strcmp(v, "crashy") == 0 ||
                  strcmp(v, "busy") == 0 || strcmp(v, "tests") == 0))
            only = v;
        else if ((n = positive(v)) < 0)
            return usage();
        else if (strcmp(a, "--copy-mib") == 0)
            opt.copy_bytes = n << 20;
        else if (strcmp(a, "--large-mib") == 0)
            opt.large_bytes = n << 20;
        else if (strcmp(a, "--repeats") == 0)
            opt.repeats = (int)n;
        else
            return usage();
    }

    root = json_object();
    table = json_array();
    argv_json = json_array();
    for (int i = 0; i < argc; i++)
        json_array_append_new(argv_json, json_string(argv[i]));
    json_object_set_new(root, "schema_version", json_integer(1));
    json_object_set_new(root, "command", argv_json);
    json_object_set_new(root, "host", host());
    json_object_set_new(root, "targets",
                        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, "
                                  "s:s, s:s}",
                                  "crash_every_call_s", "<= 10 (2 cores)",
                                  "crash_every_call_busy_loops_s", "<= 10 (2 cores)",
                                  "hang_busy_loops_s", "<= 30 (2 cores)",
                                  "crash_every_call_loaded_vs_quiet", "<= 2",
                                  "xtensor_standin_s", "<= 3",
                                  "hang_s", "<= 30",
                                  "worker_vs_none", ">= 0.8",
                                  "worker_vs_fork", ">= 20",
                                  "dense_copy_vs_memcpy", ">= 0.9",
                                  "peak_memory_vs_payload", "<= 1.1",
                                  "whole_suite_s", "< 10",
                                  "clone_to_first_report_s", "<= 15 (2 cores)",
                                  "make_test_s", "<= 180 (2 cores)"));
    if (only == NULL || strcmp(only, "copy") == 0) {
        json_t *copy = json_object();

        failed |= bench_copy(&opt, copy, table) != 0;
        json_object_set_new(root, "copy", copy);
    }
    if (only == NULL || strcmp(only, "harness") == 0) {
        json_t *harness = json_object();

        failed |= bench_harness(&opt, harness, table) != 0;
        json_object_set_new(root, "harness", harness);
    }
    if (only == NULL || strcmp(only, "crashy") == 0) {
        json_t *crashy = json_object();

        failed |= bench_crashy(&opt, crashy, table) != 0;
        json_object_set_new(root, "crashy", crashy);
    }
    if (only == NULL || strcmp(only, "busy") == 0) {
        json_t *busy = json_object();

        failed |= bench_busy(&opt, busy, table) != 0;
        json_object_set_new(root, "busy", busy);
    }
    if (only == NULL || strcmp(only, "clone") == 0) {
        json_t *clone = json_object();

        failed |= bench_clone(&opt, clone, table) != 0;
        json_object_set_new(root, "clone", clone);
    }
    if (only == NULL || strcmp(only, "tests") == 0) {
        json_t *tests = json_object();

        failed |= bench_tests(&opt, tests, table) != 0;
        json_object_set_new(root, "tests", tests);
    }
    json_object_set_new(root, "table", table);
    print_table(table);
    if (json_dump_file(root, json_path, JSON_INDENT(2) | JSON_SORT_KEYS) != 0) {
        fprintf(stderr, "bench: cannot write '%s'\n", json_path);
        failed = 1;
    } else {
        printf("figures written to %s\n", json_path);
    }
    json_decref(root);
    return failed;
}
