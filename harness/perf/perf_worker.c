/*
 * perf_worker.c - the worker of a performance profile (perf.h):
 * `reshape-conform __perf CANDIDATE OPS MAX_BYTES POINT_SECONDS BUDGET_S
 * FIRST PROFILE_BUDGET_S DEADLINE_S [POLICY WORD...]` (the last two: the
 * whole profile's --budget and its end on the now_s() clock, 0 for none;
 * points it does not afford are LEFT_OUT, perf_budget_pick).  Becomes a child subreaper, confines itself by
 * the policy (sandbox_confine; the observer's socket on SANDBOX_FD_WATCH)
 * and installs its own seccomp filter (reaper.h, sandbox.h) as a run's
 * worker does, then loads the candidate,
 * measures the plan's points from FIRST on and writes
 * one JSON line per point on fd PERF_FD_OUT, each in one write(), so the
 * parent sees whole lines or none.  Depends on perf.h, exec.h (loading),
 * reaper.h, sandbox.h, options.h (parse_u64), jansson.
 *
 * Lines, in order: {"loaded": {"name", "version"}} or {"load_error": MSG};
 * {"index": I, ...point...} for each point; {"fixed": {...}} for each op.
 * The points of a series (op, dtype, layout) come in growing sizes: once
 * one is over budget, or the time a call of the last one measured, grown
 * with the size, would be, the larger ones are cut, not run; so are those
 * whose whole point (setting it up and checking it, ours, with the calls)
 * would take more than PERF_POINT_FACTOR budgets, before the parent's
 * deadline made a TIMEOUT of the harness's own slowness.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "engine/engine.h"
#include "worker/worker.h"
#include "run/run.h"
#include "report/report.h"
#include "perf.h"

#define PERF_FD_OUT 3

static void put_line(json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
    json_decref(o);
    size_t n = strlen(s);
    s[n] = '\n';            /* json_dumps leaves room for nothing; reuse the NUL */
    const char *p = s;
    size_t left = n + 1;
    while (left) {
        ssize_t w = write(PERF_FD_OUT, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(3);
        p += w;
        left -= (size_t)w;
    }
    free(s);
}

int cmd_perf_worker(int argc, char **argv)
{
    uint64_t ops, max_bytes, first;
    static sandbox_policy policy;   /* the parent's: never freed here */
    if (argc < 9 || parse_u64(argv[2], 0, 0xffff, &ops) || parse_u64(argv[3], 0, UINT64_MAX, &max_bytes)
        || parse_u64(argv[6], 0, INT32_MAX, &first) ||
        (argc > 9 && sandbox_policy_parse(&policy, argc - 9, argv + 9)))
        die(EXIT_USAGE, "__perf: usage: __perf CANDIDATE OPS MAX_BYTES POINT_SECONDS BUDGET_S "
                        "FIRST PROFILE_BUDGET_S DEADLINE_S [POLICY WORD...]");
    perf_config c = {(unsigned)ops, max_bytes, strtod(argv[4], NULL), strtod(argv[5], NULL),
                     strtod(argv[7], NULL)};
    int nops = 0;
    for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
        nops += (c.ops >> op) & 1;
    /* the fixed costs time a few figures of point_seconds each per op */
    perf_budget b = {strtod(argv[8], NULL), nops * (4 * c.point_seconds + 0.05), 0, 0};
    wire_probe probe;
    memset(&probe, 0, sizeof probe);
    sandbox_facts facts = {.candidate_fd = -1};
    if (reaper_become_subreaper() != 0 ||
        (argc > 9 && sandbox_confine(&policy, &facts, probe.message, sizeof probe.message)) ||
        sandbox_install(probe.message, sizeof probe.message)) {
        put_line(json_pack("{s:s}", "load_error", *probe.message ? probe.message
                                                  : "cannot make the worker a child subreaper"));
        return EXIT_HARNESS;
    }
    char load[64];
    const reshape_candidate *t =
        candidate_open_as(sandbox_load_path(&facts, argv[1], load, sizeof load), argv[1], &probe);
    if (!t) {
        put_line(json_pack("{s:s}", "load_error", probe.message));
        return EXIT_NONCONFORMANT;
    }
    char why[512];
    if (exec_device(t) && exec_device_try(t, why, sizeof why)) {
        put_line(json_pack("{s:s+}", "load_error", "the candidate's device is not available here: ",
                           why));
        return EXIT_SKIPPED;
    }
    if (exec_device(t))     /* the name the device gave itself on first use */
        snprintf(probe.device_name, sizeof probe.device_name, "%s", exec_device(t)->name);
    put_line(json_pack("{s:{s:s, s:s, s:o}}", "loaded", "name", probe.name, "version",
                       probe.version, "device", host_device(&probe)));
    int n = perf_plan_count(&c);
    perf_point last = {0};      /* the series' last point measured */
    double call_ns = 0;         /* its time a call; 0: none */
    double point_ns = 0;        /* the whole point's */
    for (int i = (int)first; i < n; i++) {
        perf_point p;
        perf_plan_point(&c, i, &p);
        if (p.op != last.op || p.dtype != last.dtype || p.layout != last.layout)
            call_ns = point_ns = 0;     /* a new series */
        double grow = (double)p.bytes / (double)(last.bytes ? last.bytes : 1);
        json_t *o;
        if (!perf_budget_pick(&b, i, n - i, now_s())) {
            o = perf_left_out_point(&p, c.budget_s);
        } else if (call_ns > 0 && call_ns * grow > c.point_budget_s * 1e9) {
            o = perf_cut_point(&p, &last, call_ns, call_ns * grow, c.point_budget_s, 0);
        } else if (point_ns * grow > PERF_POINT_FACTOR * c.point_budget_s * 1e9) {
            o = perf_cut_point(&p, &last, point_ns, point_ns * grow,
                               PERF_POINT_FACTOR * c.point_budget_s, 1);
        } else {
            double start = now_s();
            o = exec_device(t) ? perf_device_point(t, &p, c.point_seconds)
                               : perf_measure_point(t, &p, c.point_seconds, c.point_budget_s);
            json_t *ex = json_object_get(json_object_get(o, "execute"), "median_ns");
            last = p;
            call_ns = json_object_get(o, "over_budget") ? INFINITY
                      : ex ? json_number_value(ex) : 0;
            point_ns = (now_s() - start) * 1e9;
            perf_budget_spent(&b, point_ns / 1e9);
        }
        json_object_set_new(o, "index", json_integer(i));
        put_line(o);
    }
    for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
        if ((c.ops >> op) & 1) {
            json_t *f = perf_measure_fixed(t, (reshape_op)op);
            if (exec_device(t))
                json_object_set_new(f, "tiny_execute", perf_device_tiny(t, (reshape_op)op));
            put_line(json_pack("{s:o}", "fixed", f));
        }
    /* at once, as a run's worker ends: no exit handler of the candidate's
     * runs after the last line, and under LeakSanitizer no leak check,
     * whose tracer the sandbox stops (the parent then waited out its
     * --timeout for the end of the lines) */
    _exit(EXIT_CONFORMANT);
}
