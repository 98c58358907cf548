/*
 * harness.c - figures of the harness binary, run as a vendor runs it:
 *   throughput on the default cases (dense variant only, small payloads) with
 *   worker isolation, in-process (--isolation none) and a fork per case, and
 *   for a short run (one shard in eight) with the first two;
 *   the whole default run (every variant) as `make run` does it;
 *   peak memory of one large case, as the largest sum of the proportional set
 *   sizes (Pss) of the harness and its workers, over the payload (src + dst).
 * Depends on libc, jansson and the harness's command line and JSON report.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* ======================================================= memory of a tree */

/* Adds the Pss of process `pid` and, recursively, of its children, in KiB.
 * A process that ends while it is read adds what could be read. */
static long long tree_pss_kib(pid_t pid)
{
    char path[64], line[256];
    long long kib = 0, v;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    if ((f = fopen(path, "r")) != NULL) {
        while (fgets(line, sizeof line, f) != NULL)
            if (sscanf(line, "Pss: %lld kB", &v) == 1)
                kib += v;
        fclose(f);
    }
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    if ((f = fopen(path, "r")) != NULL) {
        int child;

        while (fscanf(f, "%d", &child) == 1)
            kib += tree_pss_kib((pid_t)child);
        fclose(f);
    }
    return kib;
}

/* ========================================================= running it */

static int run_harness(const struct bench_options *opt, const char *name,
                       const char *const *args, int sample, struct run *r)
{
    return bench_run_harness(opt, opt->harness, name, args, sample, r);
}

int bench_run_harness(const struct bench_options *opt, const char *harness, const char *name,
                      const char *const *args, int sample, struct run *r)
{
    char json_path[512], log_path[512];
    const char *argv[48];
    int argc = 0, status;
    pid_t pid;
    double t0;
    json_t *report, *summary;
    struct rusage ru;

    snprintf(json_path, sizeof json_path, "%s/%s.json", opt->tmpdir, name);
    snprintf(log_path, sizeof log_path, "%s/%s.log", opt->tmpdir, name);
    argv[argc++] = harness;
    while (*args != NULL && argc < 44)
        argv[argc++] = *args++;
    argv[argc++] = "--json";
    argv[argc++] = json_path;
    argv[argc] = NULL;

    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    t0 = bench_now();
    if ((pid = fork()) < 0) {
        fprintf(stderr, "bench: cannot fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(harness, (char *const *)argv);
        _exit(127);
    }
    for (;;) {
        pid_t done = wait4(pid, &status, sample ? WNOHANG : 0, &ru);

        if (done == pid)
            break;
        if (done < 0 && errno != EINTR)
            return -1;
        if (sample) {
            long long kib = tree_pss_kib(pid);

            if (kib > r->peak_kib)
                r->peak_kib = kib;
            usleep(2000);
        }
    }
    r->seconds = bench_now() - t0;
    r->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    report = json_load_file(json_path, 0, NULL);
    if (report == NULL || r->exit_code > 1) {
        fprintf(stderr, "bench: '%s' %s gave no report (exit %d); see '%s'\n",
                harness, name, r->exit_code, log_path);
        json_decref(report);
        return -1;
    }
    summary = json_object_get(report, "summary");
    r->results = json_integer_value(json_object_get(summary, "total"));
    r->crashes = json_integer_value(json_object_get(summary, "CRASH"));
    r->timeouts = json_integer_value(json_object_get(summary, "TIMEOUT"));
    r->slots_added = json_integer_value(json_object_get(json_object_get(report, "slots"),
                                                        "added"));
    r->run_seconds = json_number_value(json_object_get(report, "duration_s"));
    if (r->results <= 0 || r->run_seconds <= 0) {
        fprintf(stderr, "bench: '%s' %s ran no case; see '%s'\n", harness,
                name, log_path);
        json_decref(report);
        return -1;
    }
    json_decref(report);
    return 0;
}

/* Best (shortest running time) of `repeats` runs. */
static int best_run(const struct bench_options *opt, const char *name,
                    const char *const *args, int repeats, struct run *best)
{
    struct run r;

    memset(best, 0, sizeof *best);
    for (int i = 0; i < repeats; i++) {
        if (run_harness(opt, name, args, 0, &r) != 0)
            return -1;
        if (i == 0 || r.run_seconds < best->run_seconds)
            *best = r;
    }
    return 0;
}

/* ======================================================== the figures */

/* Adds the JSON object and row of a mode measured by `r`; returns its
 * rate (results per second of duration_s). */
static double mode_figure(const char *name, const struct run *r, json_t *out,
                          json_t *table, const char *label)
{
    double rate = (double)r->results / r->run_seconds;

    json_object_set_new(out, name,
                        json_pack("{s:I, s:f, s:f, s:f}", "results",
                                  (json_int_t)r->results, "run_seconds",
                                  r->run_seconds, "wall_seconds", r->seconds,
                                  "results_per_s", rate));
    bench_row(table, "harness", label, rate, "res/s", NULL);
    return rate;
}

/*
 * Runs worker and none isolation on `extra` (NULL-terminated, after the
 * cases and --variants dense) `repeats` times each, alternating, so that a
 * slow spell of the host weighs on both (on the development VM the same
 * run takes 7.5 ms in one minute and 12 ms in another).  Adds both modes'
 * figures (best run) under `prefix`worker and `prefix`none, their rates
 * in rate[0] and rate[1], and the median of the ratios of the pairs (worker
 * over none) in *median.  Returns 0, or -1 on failure.
 */
static int worker_vs_none(const struct bench_options *opt, const char *prefix,
                          const char *const *extra, json_t *out, json_t *table,
                          const char *label, double rate[2], double *median)
{
    static const char *const modes[] = {"worker", "none"};
    struct run best[2], r;
    double *pair = calloc((size_t)opt->repeats, sizeof *pair);

    if (pair == NULL)
        return -1;
    for (int i = 0; i < opt->repeats; i++) {
        double pair_rate[2];

        for (int m = 0; m < 2; m++) {
            const char *args[16] = {"--cases", opt->cases, "--variants", "dense",
                                    "--isolation", modes[m]};
            char name[32];
            int n = 6;

            for (const char *const *e = extra; *e != NULL && n < 15; e++)
                args[n++] = *e;
            args[n] = NULL;
            snprintf(name, sizeof name, "%s%s", prefix, modes[m]);
            if (run_harness(opt, name, args, 0, &r) != 0) {
                free(pair);
                return -1;
            }
            if (i == 0 || r.run_seconds < best[m].run_seconds)
                best[m] = r;
            pair_rate[m] = (double)r.results / r.run_seconds;
        }
        pair[i] = pair_rate[0] / pair_rate[1];
    }
    *median = bench_median(pair, opt->repeats);
    free(pair);
    for (int m = 0; m < 2; m++) {
        char name[32], row[64];

        snprintf(name, sizeof name, "%s%s", prefix, modes[m]);
        snprintf(row, sizeof row, "%sisolation %s", label, modes[m]);
        rate[m] = mode_figure(name, &best[m], out, table, row);
    }
    return 0;
}

/*
 * Results per second of running the cases (the report's duration_s: from
 * the first case handed to a worker to the last verdict, so that loading
 * the YAML and starting the workers, common to all three, do not blur the
 * ratios; each mode's wall time is in the JSON too), on the same cases:
 * the default set, dense variant only (5,294 small cases).  Worker and
 * in-process runs alternate, best of N each, and the median of the N
 * paired ratios is given too; a fork per case is slow, so it runs once.  A
 * short run, one shard in eight (637 results, a few milliseconds), is
 * measured too: there the start of each worker's first batch weighs more.
 */
static int throughput(const struct bench_options *opt, json_t *out,
                      json_t *table)
{
    static const char *const dense[] = {NULL}, *const shard[] = {"--shard", "1/8", NULL};
    const char *fork_args[] = {"--cases", opt->cases, "--variants", "dense",
                               "--isolation", "fork", NULL};
    double rate[2], median, fork_rate, short_rate[2], short_median;
    struct run r;

    if (worker_vs_none(opt, "", dense, out, table, "", rate, &median) != 0 ||
        best_run(opt, "fork", fork_args, 1, &r) != 0)
        return -1;
    fork_rate = mode_figure("fork", &r, out, table, "isolation fork");
    json_object_set_new(out, "worker_vs_none", json_real(rate[0] / rate[1]));
    json_object_set_new(out, "worker_vs_none_median_of_pairs", json_real(median));
    json_object_set_new(out, "worker_vs_fork", json_real(rate[0] / fork_rate));
    bench_row(table, "harness", "worker / none", rate[0] / rate[1], "x", ">= 0.8");
    bench_row(table, "harness", "worker / none, median of pairs", median, "x", NULL);
    bench_row(table, "harness", "worker / fork", rate[0] / fork_rate, "x", ">= 20");
    if (worker_vs_none(opt, "short_", shard, out, table, "short run, ", short_rate,
                       &short_median) != 0)
        return -1;
    json_object_set_new(out, "short_worker_vs_none", json_real(short_rate[0] / short_rate[1]));
    json_object_set_new(out, "short_worker_vs_none_median_of_pairs", json_real(short_median));
    bench_row(table, "harness", "short run, worker / none", short_rate[0] / short_rate[1],
              "x", NULL);
    return 0;
}

static int whole_suite(const struct bench_options *opt, json_t *out,
                       json_t *table)
{
    const char *args[] = {"--cases", opt->cases, NULL};
    struct run r;

    if (best_run(opt, "suite", args, opt->repeats, &r) != 0)
        return -1;
    json_object_set_new(out, "whole_suite",
                        json_pack("{s:I, s:f, s:f, s:i}", "results",
                                  (json_int_t)r.results, "seconds", r.seconds,
                                  "results_per_s",
                                  (double)r.results / r.seconds, "exit_code",
                                  r.exit_code));
    bench_row(table, "suite", "whole default run, wall", r.seconds, "s",
              "< 10");
    bench_row(table, "suite", "whole default run, rate",
              (double)r.results / r.seconds, "res/s", NULL);
    return 0;
}

/* Writes a case file holding one u8 tensor of opt->large_bytes elements
 * reshaped from 1-D to 2-D.  Returns 0 or -1. */
static int write_large_case(const struct bench_options *opt, const char *dir)
{
    char path[1024];
    long long n = opt->large_bytes, cols = 65536;
    FILE *f;

    if (snprintf(path, sizeof path, "%s/large.yaml", dir) >= (int)sizeof path)
        return -1;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    if ((f = fopen(path, "w")) == NULL)
        return -1;
    fprintf(f,
            "# written by bench/harness.c for the peak-memory figure\n"
            "generated: true\n"
            "cases:\n"
            "  - id: bench_large_u8_flat_to_2d\n"
            "    op: openvino_reshape_1\n"
            "    clause: \"openvino_reshape_1.rst, Short description\"\n"
            "    quote: \"Input tensor volume is equal to output tensor volume, "
            "where volume is the product of dimensions.\"\n"
            "    input: {dtype: u8, dims: [%lld], data: iota}\n"
            "    shape: {dtype: s64, values: [-1, %lld]}\n"
            "    special_zero: false\n"
            "    expect: {shape: [%lld, %lld]}\n",
            n, cols, n / cols, cols);
    return fclose(f) == 0 ? 0 : -1;
}

static int peak_memory(const struct bench_options *opt, json_t *out,
                       json_t *table)
{
    char dir[768], max_bytes[32], figure[64];
    struct run r;
    double payload = 2.0 * (double)opt->large_bytes; /* src + dst */
    double ratio;

    if (snprintf(dir, sizeof dir, "%s/large", opt->tmpdir) >= (int)sizeof dir)
        return -1;
    snprintf(max_bytes, sizeof max_bytes, "%lld", 4 * opt->large_bytes);
    if (write_large_case(opt, dir) != 0) {
        fprintf(stderr, "bench: cannot write the large case in '%s'\n", dir);
        return -1;
    }
    const char *args[] = {"--cases", dir, "--variants", "dense", "--jobs", "1",
                          "--max-bytes", max_bytes, NULL};
    if (run_harness(opt, "large", args, 1, &r) != 0)
        return -1;
    ratio = (double)r.peak_kib * 1024.0 / payload;
    json_object_set_new(out, "peak_memory",
                        json_pack("{s:f, s:I, s:f, s:f, s:i}", "payload_bytes",
                                  payload, "peak_pss_bytes",
                                  (json_int_t)(r.peak_kib * 1024),
                                  "ratio", ratio, "seconds", r.seconds,
                                  "exit_code", r.exit_code));
    snprintf(figure, sizeof figure, "peak Pss / payload (%lld MiB case)",
             opt->large_bytes >> 20);
    bench_row(table, "memory", figure, ratio, "x", "<= 1.1");
    return 0;
}

int bench_harness(const struct bench_options *opt, json_t *out, json_t *table)
{
    int failed = 0;

    if (access(opt->harness, X_OK) != 0) {
        fprintf(stderr, "bench: no harness at '%s': build it with 'make'\n",
                opt->harness);
        return -1;
    }
    mkdir(opt->tmpdir, 0755);
    failed |= throughput(opt, out, table) != 0;
    failed |= whole_suite(opt, out, table) != 0;
    failed |= peak_memory(opt, out, table) != 0;
    failed |= bench_fuzz(opt, out, table) != 0;
    return failed ? -1 : 0;
}
