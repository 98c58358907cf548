/*
 * crashy.c - the figures of candidates that kill their workers (issue 25):
 * the whole suite, default options, with
 *   - a candidate that crashes on every call (bench/cands/crash_every_call.c):
 *     with --jobs 2, with the machine loaded by a parallel build of the
 *     harness beside it, and with --jobs 1 and every core;
 *   - a stand-in for the xtensor adapter, which raises SIGFPE where xtensor
 *     does (bench/cands/fpe_on_zero_dim.c: a 0 in the shape); the adapter
 *     itself is built by `make candidates` only;
 *   - a candidate that ignores SIGTERM and hangs (build/broken/
 *     pauses_ignoring_signals.so);
 *   - a candidate whose thread outlives each call and writes dst late
 *     (build/broken/writes_dst_from_late_thread.so);
 *   - the reference, and beside it, alternately, another harness binary
 *     (--baseline: the one before a change);
 * and the busy section (bench_busy): the crash and the hang candidates
 * again beside two busy loops (`sh -c 'while :; do :; done'` twice): a CI
 * runner is rarely idle, and neither figure may depend on idle CPUs; and
 * the crash candidate with the default --jobs on the idle machine, with
 * the slots each run added (harness/run/widen.h) beside the loops and
 * without them.
 * Each figure is the median of opt->repeats runs, in wall and in CPU time
 * (the harness and its workers).  Depends on bench.h and POSIX.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* Medians of a figure's runs. */
struct medians {
    double wall, cpu, run;
    long long crashes, timeouts, results;
    long long slots_added_least, slots_added_most;  /* over the runs */
};

/* Runs each of harness[0..nh) (nh 1 or 2) on `candidate` over opt->cases
 * with `jobs` (NULL: the default), opt->repeats times, alternately, so
 * that a busy spell of the machine weighs on each; fills m[0..nh).
 * Returns 0 or -1. */
static int measure_each(const struct bench_options *opt, const char *const *harness, int nh,
                        const char *name, const char *candidate, const char *jobs,
                        struct medians *m)
{
    const char *args[] = {"--candidate", candidate, "--cases", opt->cases, "--quiet",
                          jobs ? "--jobs" : NULL, jobs, NULL};
    int n = opt->repeats;
    double *v = calloc(3 * (size_t)n * (size_t)nh, sizeof *v);
    struct run r;

    if (v == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        for (int h = 0; h < nh; h++) {
            double *w = v + 3 * n * h;
            if (bench_run_harness(opt, harness[h], name, args, 0, &r) != 0) {
                free(v);
                return -1;
            }
            w[i] = r.seconds;
            w[n + i] = r.cpu_seconds;
            w[2 * n + i] = r.run_seconds;
            m[h].crashes = r.crashes;
            m[h].timeouts = r.timeouts;
            m[h].results = r.results;
            if (i == 0 || r.slots_added < m[h].slots_added_least)
                m[h].slots_added_least = r.slots_added;
            if (i == 0 || r.slots_added > m[h].slots_added_most)
                m[h].slots_added_most = r.slots_added;
        }
    for (int h = 0; h < nh; h++) {
        double *w = v + 3 * n * h;
        m[h].wall = bench_median(w, n);
        m[h].cpu = bench_median(w + n, n);
        m[h].run = bench_median(w + 2 * n, n);
    }
    free(v);
    return 0;
}

static int measure(const struct bench_options *opt, const char *name, const char *candidate,
                   const char *jobs, struct medians *m)
{
    return measure_each(opt, &opt->harness, 1, name, candidate, jobs, m);
}

static json_t *medians_json(const struct medians *m)
{
    return json_pack("{s:f, s:f, s:f, s:I, s:I, s:I, s:f, s:[I, I]}", "wall_seconds", m->wall,
                     "cpu_seconds", m->cpu, "run_seconds", m->run, "results",
                     (json_int_t)m->results, "crashes", (json_int_t)m->crashes, "timeouts",
                     (json_int_t)m->timeouts, "ms_per_crash",
                     m->crashes ? 1000 * m->wall / (double)m->crashes : 0.0,
                     "slots_added_least_most", (json_int_t)m->slots_added_least,
                     (json_int_t)m->slots_added_most);
}

/* The load of the busy figures: two shell loops that never sleep. */
#define BUSY_LOOPS "sh -c 'while :; do :; done' & sh -c 'while :; do :; done' & wait"

/* Starts the load: `busy` when not NULL, else opt->load_cmd, or a parallel
 * build of the harness into a folder of its own, again and again, in a
 * process group of its own.  Returns its pid, or -1. */
static pid_t load_start(const struct bench_options *opt, const char *dir, const char *busy)
{
    char cmd[8192];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);

    if (busy)
        snprintf(cmd, sizeof cmd, "%s", busy);
    else if (opt->load_cmd)
        snprintf(cmd, sizeof cmd, "%s", opt->load_cmd);
    else
        snprintf(cmd, sizeof cmd,
                 "while make -s -C '%s' -j%ld BUILD='%s' '%s/reshape-conform' "
                 ">/dev/null 2>&1; do rm -rf '%s'; done",
                 opt->source, cores > 0 ? cores : 2, dir, dir, dir);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    if (pid > 0) {
        setpgid(pid, pid);
        sleep(2);   /* the compilers under way */
    }
    return pid;
}

static void load_stop(pid_t pid, const char *dir)
{
    char cmd[1200];

    kill(-pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: cannot remove '%s'\n", dir);
}

/* The folder of the harness binary (the build folder). */
static void build_dir(const struct bench_options *opt, char *dir, size_t size)
{
    const char *slash = strrchr(opt->harness, '/');
    int n = slash ? (int)(slash - opt->harness) : 1;

    snprintf(dir, size, "%.*s", n, slash ? opt->harness : ".");
}

/* The crash-on-every-call figures: --jobs 2; loaded, with the default
 * --jobs (which may add slots: harness/run/widen.h) and with --jobs 2;
 * --jobs 1; every core (the default's slots, fixed).  Loaded over quiet
 * is the default run's: loaded against every core on the idle machine,
 * where a run adds no slot. */
static int crash_figures(const struct bench_options *opt, const char *build, json_t *out,
                         json_t *table)
{
    char cand[1100], loaddir[1100], cores[24];
    struct medians two, loaded, loaded_two, one, all;
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    snprintf(cand, sizeof cand, "%s/bench/cands/crash_every_call.so", build);
    snprintf(loaddir, sizeof loaddir, "%s/load-build", opt->tmpdir);
    snprintf(cores, sizeof cores, "%ld", n > 0 ? n : 1);
    if (measure(opt, "crash_j2", cand, "2", &two) != 0)
        return -1;
    pid_t load = load_start(opt, loaddir, NULL);
    if (load < 0)
        return -1;
    int rc = measure(opt, "crash_loaded", cand, NULL, &loaded) != 0 ||
             measure(opt, "crash_loaded_j2", cand, "2", &loaded_two) != 0 ? -1 : 0;
    load_stop(load, loaddir);
    if (rc != 0 || measure(opt, "crash_j1", cand, "1", &one) != 0 ||
        measure(opt, "crash_all", cand, cores, &all) != 0)
        return -1;
    json_object_set_new(out, "crash_every_call", medians_json(&two));
    json_object_set_new(out, "crash_every_call_loaded", medians_json(&loaded));
    json_object_set_new(out, "crash_every_call_loaded_jobs_2", medians_json(&loaded_two));
    json_object_set_new(out, "crash_every_call_jobs_1", medians_json(&one));
    json_object_set_new(out, "crash_every_call_every_core", medians_json(&all));
    json_object_set_new(out, "cores", json_integer(n));
    json_object_set_new(out, "loaded_vs_quiet", json_real(loaded.wall / all.wall));
    bench_row(table, "crashy", "crash on every call, --jobs 2, wall", two.wall, "s", "<= 10");
    bench_row(table, "crashy", "crash on every call, --jobs 2, CPU", two.cpu, "s", NULL);
    bench_row(table, "crashy", "crash on every call, ms a crash", 1000 * two.wall /
              (double)(two.crashes ? two.crashes : 1), "ms", "< 1 (2 cores)");
    bench_row(table, "crashy", "crash on every call, loaded, wall", loaded.wall, "s", NULL);
    bench_row(table, "crashy", "crash on every call, loaded / quiet", loaded.wall / all.wall,
              "x", "<= 2");
    bench_row(table, "crashy", "crash on every call, loaded --jobs 2, wall", loaded_two.wall,
              "s", NULL);
    bench_row(table, "crashy", "crash on every call, --jobs 1, wall", one.wall, "s", NULL);
    bench_row(table, "crashy", "crash on every call, every core, wall", all.wall, "s",
              "< --jobs 2 (more cores)");
    return 0;
}

int bench_busy(const struct bench_options *opt, json_t *out, json_t *table)
{
    char build[512], crash[1100], hang[1100], dir[1100];
    struct medians c, h, idle;

    build_dir(opt, build, sizeof build);
    snprintf(crash, sizeof crash, "%s/bench/cands/crash_every_call.so", build);
    snprintf(hang, sizeof hang, "%s/broken/pauses_ignoring_signals.so", build);
    snprintf(dir, sizeof dir, "%s/busy", opt->tmpdir);
    /* the default --jobs on the idle machine too: whether it adds slots */
    if (measure(opt, "crash_idle", crash, NULL, &idle) != 0)
        return -1;
    pid_t load = load_start(opt, dir, opt->load_cmd ? opt->load_cmd : BUSY_LOOPS);
    if (load < 0)
        return -1;
    int rc = measure(opt, "crash_busy", crash, NULL, &c) != 0 ||
             measure(opt, "hang_busy", hang, NULL, &h) != 0 ? -1 : 0;
    load_stop(load, dir);
    if (rc != 0)
        return -1;
    json_object_set_new(out, "crash_every_call_busy_loops", medians_json(&c));
    json_object_set_new(out, "hang_busy_loops", medians_json(&h));
    json_object_set_new(out, "crash_every_call_idle", medians_json(&idle));
    bench_row(table, "busy", "crash on every call, 2 busy loops, wall", c.wall, "s", "<= 10");
    bench_row(table, "busy", "crash on every call, busy, slots added (most)",
              (double)c.slots_added_most, "", NULL);
    bench_row(table, "busy", "crash on every call, idle, wall", idle.wall, "s", "<= 6");
    bench_row(table, "busy", "crash on every call, idle, slots added (most)",
              (double)idle.slots_added_most, "", NULL);
    bench_row(table, "busy", "hangs ignoring signals, 2 busy loops, wall", h.wall, "s",
              "<= 30");
    return 0;
}

int bench_crashy(const struct bench_options *opt, json_t *out, json_t *table)
{
    char build[512], path[1100];
    struct medians m;

    build_dir(opt, build, sizeof build);
    if (crash_figures(opt, build, out, table) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/bench/cands/fpe_on_zero_dim.so", build);
    if (measure(opt, "xtensor_standin", path, NULL, &m) != 0)
        return -1;
    json_object_set_new(out, "xtensor_standin", medians_json(&m));
    bench_row(table, "crashy", "SIGFPE where xtensor does (stand-in), wall", m.wall, "s",
              "<= 3");
    snprintf(path, sizeof path, "%s/broken/pauses_ignoring_signals.so", build);
    if (measure(opt, "hang", path, NULL, &m) != 0)
        return -1;
    json_object_set_new(out, "hang", medians_json(&m));
    bench_row(table, "crashy", "hangs ignoring signals, wall", m.wall, "s", "<= 30");
    /* a thread left running after every copying call (issue 42): a LEAK
     * each, a fork of the zygote each, never a wait for it to park */
    snprintf(path, sizeof path, "%s/broken/writes_dst_from_late_thread.so", build);
    if (measure(opt, "late_thread", path, NULL, &m) != 0)
        return -1;
    json_object_set_new(out, "late_thread", medians_json(&m));
    bench_row(table, "crashy", "thread left running after each call (late thread), wall",
              m.wall, "s", "<= 60");
    snprintf(path, sizeof path, "%s/libreshape_ref.so", build);
    const char *both[] = {opt->harness, opt->baseline};
    struct medians pair[2];
    if (measure_each(opt, both, opt->baseline ? 2 : 1, "reference", path, NULL, pair) != 0)
        return -1;
    json_object_set_new(out, "reference", medians_json(&pair[0]));
    bench_row(table, "crashy", "reference, wall", pair[0].wall, "s", NULL);
    bench_row(table, "crashy", "reference, CPU", pair[0].cpu, "s", NULL);
    if (opt->baseline) {
        json_object_set_new(out, "reference_baseline", medians_json(&pair[1]));
        bench_row(table, "crashy", "reference, wall, --baseline harness", pair[1].wall, "s",
                  NULL);
        bench_row(table, "crashy", "reference, CPU, --baseline harness", pair[1].cpu, "s",
                  NULL);
        bench_row(table, "crashy", "reference, wall / baseline's", pair[0].wall / pair[1].wall,
                  "x", "<= 1");
        bench_row(table, "crashy", "reference, CPU / baseline's", pair[0].cpu / pair[1].cpu,
                  "x", "<= 1");
    }
    return 0;
}
