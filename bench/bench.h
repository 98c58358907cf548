/*
 * bench.h - the internal API between the files of bench/, the program behind
 * `make bench`.  Each section measures figures side by side in one run and
 * adds them to one JSON object (jansson) that main.c prints as a table and
 * writes to reports/bench.json.  Benchmarks print figures; nothing here
 * asserts a time.
 *
 *   clock.c    a monotonic clock and best-of-N timing
 *   copy.c     copy bandwidth of the reference against memcpy
 *   fuzz.c     requests per second of `reshape-conform fuzz` on the reference
 *   harness.c  harness throughput per isolation mode, whole-suite wall time,
 *              peak memory of one large case; running the harness once
 *   crashy.c   candidates that crash on every call, crash where xtensor
 *              does, hang: whole-suite times with 1, 2 and every core,
 *              with the machine loaded by a parallel build
 *   clone.c    clone-to-first-report: git clone, then `make run` in the clone
 *   tests.c    the last `make test`'s wall and CPU time, as it recorded them
 *   main.c     options, the table, reports/bench.json
 */
#ifndef RESHAPE_BENCH_H
#define RESHAPE_BENCH_H

#include <jansson.h>

/* Seconds since an arbitrary fixed point, from CLOCK_MONOTONIC. */
double bench_now(void);

/* Options every section reads. */
struct bench_options {
    const char *harness;    /* path of build/reshape-conform */
    const char *cases;      /* the default case folder */
    const char *tmpdir;     /* scratch space for generated cases and reports */
    long long copy_bytes;   /* payload of the copy benchmarks, in bytes */
    long long large_bytes;  /* payload of the peak-memory case, in bytes */
    int repeats;            /* best-of-N for every timing */
    const char *source;     /* the git checkout clone.c clones */
    const char *baseline;   /* another harness binary to time beside, or NULL */
    const char *load_cmd;   /* the load of crashy.c's loaded figure, or NULL:
                               a parallel build of the harness */
    const char *test_times; /* where the last make test left its times
                               (build/test-times.last) */
};

/* One run of the harness. */
struct run {
    double seconds;       /* wall time, loading the cases included */
    double run_seconds;   /* duration_s of its report: running the cases */
    double cpu_seconds;   /* user + system time of it and its reaped children */
    long long peak_kib;   /* largest Pss of the tree seen, when sampled */
    int exit_code;        /* the harness's, or -1 if it did not exit */
    long long results;    /* summary.total of its JSON report */
    long long crashes;    /* summary.CRASH */
    long long timeouts;   /* summary.TIMEOUT */
    long long slots_added;  /* slots.added: slots the run added (0 when absent) */
};

/*
 * Runs `harness` with `args` (NULL-terminated, without argv[0]) and with
 * `--json <tmpdir>/<name>.json`, its output in <tmpdir>/<name>.log.  Samples
 * the memory of its process tree every 2 ms when `sample` is set.  Returns 0,
 * or -1 when it could not be started or did not give a report (an exit
 * status above 1).
 */
int bench_run_harness(const struct bench_options *opt, const char *harness, const char *name,
                      const char *const *args, int sample, struct run *r);

/* The median of v[0..n), n >= 1; sorts v. */
double bench_median(double *v, int n);

/*
 * Each section fills `out` (a JSON object it owns keys of) and appends rows
 * to `table`, a JSON array of [section, figure, value, unit, target] arrays
 * that main.c prints.  Returns 0, or -1 after printing why a figure could not
 * be measured (the other sections still run).
 */
int bench_copy(const struct bench_options *opt, json_t *out, json_t *table);
int bench_harness(const struct bench_options *opt, json_t *out, json_t *table);
int bench_clone(const struct bench_options *opt, json_t *out, json_t *table);
/* The crash and hang figures of crashy.c. */
int bench_crashy(const struct bench_options *opt, json_t *out, json_t *table);

/* The busy section (crashy.c): the whole suite with the crash-on-every-call
 * candidate and with build/broken/pauses_ignoring_signals.so, default
 * options, opt->repeats runs each, beside two busy shell loops (or
 * opt->load_cmd when set), into `out` ("crash_every_call_busy_loops",
 * "hang_busy_loops": wall_seconds, cpu_seconds, ...) and rows of `table`
 * (targets 10 s and 30 s).  Returns 0, or -1 when a run failed. */
int bench_busy(const struct bench_options *opt, json_t *out, json_t *table);
/* Requests per second of `reshape-conform fuzz` against the reference (no
 * disagreement allowed), best of opt->repeats runs of 20,000 requests:
 * out.fuzz = {requests, seconds, requests_per_s}.  Called by bench_harness. */
int bench_fuzz(const struct bench_options *opt, json_t *out, json_t *table);

/* The tests section (tests.c): the last `make test` (or test-quick, or
 * test-run) as it recorded itself in opt->test_times, into `out`
 * ("recorded"; then "command", "wall_s", "cpu_s" (user + system of every
 * target), "jobs", "cores", "measured_utc", "commit", "exit_status",
 * "targets": {NAME: {wall_s, cpu_s, failed}}) and two rows of `table`
 * (make test's wall: target 180 s on 2 cores).  Returns 0, also when no
 * run is recorded ("recorded": false), or -1 when the record is unreadable. */
int bench_tests(const struct bench_options *opt, json_t *out, json_t *table);

/* Appends one row to `table`; `target` may be NULL. */
void bench_row(json_t *table, const char *section, const char *figure,
               double value, const char *unit, const char *target);

#endif
