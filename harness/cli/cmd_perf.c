/*
 * cmd_perf.c - `reshape-conform perf`: the performance profile of a
 * candidate beside memcpy (perf.h, reports/SCHEMA.md "Performance
 * profile").
 */
static const char perf_usage[] =
"usage: reshape-conform perf [--candidate X.so] [OPTIONS]\n"
"\n"
"  --candidate PATH    the candidate .so (default: the reference)\n"
"  --op NAME           only this operation (repeatable; default: all four)\n"
"  --max-size SIZE     largest payload, bytes or with K, M, G (default: 1G,\n"
"                      or a quarter of the available memory when less)\n"
"  --point-seconds S   time to reach a small spread, per point (default 0.25)\n"
"  --point-budget S    a call slower than this is timed once and the larger\n"
"                      sizes of its series are cut, not run (default 2)\n"
"  --timeout S         a point's deadline, then SIGKILL (default 60)\n"
"  --budget S          the whole profile's time: an evenly spread subset of\n"
"                      the points it affords is measured, the rest are left\n"
"                      out and named (default 120; 0: no bound)\n"
"  --json FILE         write the profile there\n"
"  --report-dir DIR    write DIR/perf.json, perf.md and perf.html\n"
"  --sandbox-allow PATH        let the candidate read PATH too; repeatable\n"
"  --sandbox-allow-write PATH  let it change PATH too; repeatable\n"
"  --quiet             no progress lines\n"
"  --help              this text\n"
"\n"
"Times execute for every operation, element width (u1, u4, u8, f16, f32,\n"
"f64), layout (dense, in_place, strided_src, strided_dst) and size (4 KiB\n"
"to 1 GiB by factors of 16, then 1 GiB), each beside memcpy of the same\n"
"bytes in the same worker process; also infer_shape's latency and a tiny\n"
"execute's cost.  A ratio of 1.0 is memcpy's bandwidth.  A point supports()\n"
"declines is not supported, and in no figure; in place, where nothing has\n"
"to move, the figure is the time per call.  The last lines name the points\n"
"cut, those the budget left out and the slowest layouts.  The workers are\n"
"confined as a run's are.\n"
"exit status: 0 profile written, 1 the candidate could not be loaded or a\n"
"point crashed, timed out or gave wrong bytes, 2 bad usage, 3 harness failure.\n";

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "run/run.h"
#include "report/report.h"
#include "perf/perf.h"
#include "cli.h"
#include "run_sandbox.h"

enum { P_CAND = 1, P_OP, P_MAX, P_SECS, P_BUDGET, P_TIMEOUT, P_JSON, P_DIR, P_QUIET, P_HELP,
       P_ALLOW, P_WRITE, P_WHOLE };

static const struct option perf_options[] = {
    {"candidate", required_argument, NULL, P_CAND},
    {"op", required_argument, NULL, P_OP},
    {"max-size", required_argument, NULL, P_MAX},
    {"point-seconds", required_argument, NULL, P_SECS},
    {"point-budget", required_argument, NULL, P_BUDGET},
    {"timeout", required_argument, NULL, P_TIMEOUT},
    {"budget", required_argument, NULL, P_WHOLE},
    {"json", required_argument, NULL, P_JSON},
    {"report-dir", required_argument, NULL, P_DIR},
    {"quiet", no_argument, NULL, P_QUIET},
    {"sandbox-allow", required_argument, NULL, P_ALLOW},
    {"sandbox-allow-write", required_argument, NULL, P_WRITE},
    {"help", no_argument, NULL, P_HELP},
    {NULL, 0, NULL, 0},
};

static _Noreturn void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "reshape-conform perf: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", perf_usage);
    exit(EXIT_USAGE);
}

static int parse_seconds(const char *s, double lo, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo) || v > 86400)
        return -1;
    *out = v;
    return 0;
}

/* 1 when some point of the profile is not a measurement of correct bytes
 * for a reason that is the candidate's fault. */
static int has_failures(json_t *profile)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(profile, "points"), i, p) {
        const char *s = json_string_value(json_object_get(p, "status"));
        if (s && (!strcmp(s, "CRASH") || !strcmp(s, "TIMEOUT") || !strcmp(s, "WRONG_BYTES")))
            return 1;
    }
    return 0;
}

int cmd_perf(int argc, char **argv)
{
    const char *candidate = NULL, *json = NULL, *dir = NULL;
    perf_config c = {0, perf_default_max_bytes(), 0.25, PERF_POINT_BUDGET_S, PERF_BUDGET_S};
    double timeout_s = 60;
    int quiet = 0, opt, nallow = 0, nwrite = 0;
    const char *allow[16], *allow_write[16];
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", perf_options, NULL)) != -1) {
        switch (opt) {
        case P_CAND: candidate = optarg; break;
        case P_OP: {
            int op = 1;
            while (op <= RESHAPE_OP_COUNT && strcmp(optarg, reshape_op_name((reshape_op)op)))
                op++;
            if (op > RESHAPE_OP_COUNT)
                usage_error("unknown op '%s'", optarg);
            c.ops |= 1u << op;
            break;
        }
        case P_MAX:
            if (perf_parse_size(optarg, &c.max_bytes) || c.max_bytes < 4096)
                usage_error("'--max-size' wants a size of at least 4K, not '%s'", optarg);
            break;
        case P_SECS:
            if (parse_seconds(optarg, 0, &c.point_seconds))
                usage_error("'--point-seconds' wants seconds, not '%s'", optarg);
            break;
        case P_BUDGET:
            if (parse_seconds(optarg, 0, &c.point_budget_s))
                usage_error("'--point-budget' wants seconds, not '%s'", optarg);
            break;
        case P_WHOLE:
            if (parse_seconds(optarg, 0, &c.budget_s))
                usage_error("'--budget' wants seconds (0: no bound), not '%s'", optarg);
            break;
        case P_TIMEOUT:
            if (parse_seconds(optarg, 0.1, &timeout_s))
                usage_error("'--timeout' wants seconds (at least 0.1), not '%s'", optarg);
            break;
        case P_JSON: json = optarg; break;
        case P_DIR: dir = optarg; break;
        case P_QUIET: quiet = 1; break;
        case P_ALLOW:
        case P_WRITE:
            if ((opt == P_ALLOW ? nallow : nwrite) == 16)
                usage_error("at most 16 of '%s'", argv[optind - 1]);
            if (opt == P_ALLOW)
                allow[nallow++] = optarg;
            else
                allow_write[nwrite++] = optarg;
            break;
        case P_HELP: cli_usage(perf_usage); return EXIT_CONFORMANT;
        default: usage_error("%s", "unknown option");
        }
    }
    if (optind < argc)
        usage_error("unexpected argument '%s'", argv[optind]);
    if (!c.ops)
        c.ops = ((1u << RESHAPE_OP_COUNT) - 1) << 1;
    if (!candidate)
        candidate = options_default_candidate();
    char *err = NULL, real[PATH_MAX];
    const char *deny[] = {json ? json : dir, dir ? dir : json};
    sandbox_spec spec = {allow, nallow, allow_write, nwrite, deny, json || dir ? 2 : 0, 0};
    sandbox_policy *sb = run_sandbox_policy(realpath(candidate, real) ? real : candidate, &spec);
    sandbox_summary seen;
    json_t *profile = perf_profile(candidate, &c, timeout_s, quiet, sb, &seen, &err);
    if (profile)
        json_object_set_new(json_object_get(profile, "host"), "sandbox",
                            run_sandbox_json(&seen, sb));
    run_sandbox_end(sb);
    if (!profile) {
        fprintf(stderr, "reshape-conform: %s\n", err);
        free(err);
        return EXIT_NONCONFORMANT;
    }
    if (json && report_write_json(profile, json, &err))
        die(EXIT_HARNESS, "%s", err);
    if (dir) {
        char *path = xasprintf("%s/perf.json", dir);
        if (report_make_dirs(dir))
            die(EXIT_HARNESS, "cannot create report directory '%s': %s", dir, strerror(errno));
        if (report_write_json(profile, path, &err))
            die(EXIT_HARNESS, "%s", err);
        report_render("render_perf.py", path, dir);
        free(path);
    }
    perf_summary_print(stdout, json_object_get(profile, "summary"));
    int rc = has_failures(profile) ? EXIT_NONCONFORMANT : EXIT_CONFORMANT;
    json_decref(profile);
    return rc;
}
