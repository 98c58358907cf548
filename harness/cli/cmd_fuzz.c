/*
 * cmd_fuzz.c - `reshape-conform fuzz`: differential testing of a candidate
 * against the reference over random requests (fuzz_run.h).  Usage at the
 * top.  Depends on exec.h (the reference in this process), fuzz_run.h,
 * options.h and worker.h.
 */
static const char fuzz_usage[] =
"usage: reshape-conform fuzz --candidate PATH [OPTIONS]\n"
"\n"
"Random requests biased to the edges of the spec (0 and -1 in the shape,\n"
"special_zero both ways, copying zeros near the rank, scalars, empty\n"
"tensors, dims near 2^31 and 2^63, sub-byte dtypes, every layout variant),\n"
"each run by the candidate in isolated workers and judged against the\n"
"outcome of the reference.  The first disagreement of each kind is shrunk to\n"
"a minimal request, run once more, and written as a case\n"
"(<srcdir>/cases/FORMAT.md) "
"to --out when it fails the same way again.  The summary counts the requests\n"
"judged (the candidate answered), skipped (it said NOT_SUPPORTED) and the\n"
"disagreements among the judged ones.\n"
"\n"
"  --candidate PATH     the candidate .so (default: the reference)\n"
"  --seed N             the seed of the requests (default 1)\n"
"  --count N            stop after N requests (default 10000)\n"
"  --time S             stop after S seconds (instead of --count)\n"
"  --op OP              only requests of OP; repeatable\n"
"  --out DIR            where the cases go (default fuzz-cases)\n"
"  --max-cases N        write at most N cases (default 16)\n"
"  --jobs N             worker processes (default: online cores)\n"
"  --timeout-ms N       per request (default 10000)\n"
"  --isolation MODE     worker (default), fork or none\n"
"  --help               this text\n"
"\n"
"exit status: 0 no disagreement, 1 disagreements (cases written), 2 bad\n"
"usage, 3 harness failure (the candidate or the reference cannot be loaded,\n"
"a case cannot be written).\n";

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "engine/engine.h"
#include "worker/worker.h"
#include "judge/judge.h"
#include "run/run.h"
#include "fuzz/fuzz.h"
#include "cli.h"

enum { F_CANDIDATE = 256, F_SEED, F_COUNT, F_TIME, F_OP, F_OUT, F_MAX, F_JOBS, F_TIMEOUT,
       F_ISOLATION, F_HELP };

static const struct option fuzz_options[] = {
    {"candidate", required_argument, NULL, F_CANDIDATE},
    {"seed", required_argument, NULL, F_SEED},
    {"count", required_argument, NULL, F_COUNT},
    {"time", required_argument, NULL, F_TIME},
    {"op", required_argument, NULL, F_OP},
    {"out", required_argument, NULL, F_OUT},
    {"max-cases", required_argument, NULL, F_MAX},
    {"jobs", required_argument, NULL, F_JOBS},
    {"timeout-ms", required_argument, NULL, F_TIMEOUT},
    {"isolation", required_argument, NULL, F_ISOLATION},
    {"help", no_argument, NULL, F_HELP},
    {NULL, 0, NULL, 0},
};

static void usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "reshape-conform fuzz: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n(see 'reshape-conform fuzz --help')\n");
    exit(EXIT_USAGE);
}

/* Parses the options into `s` and the engine settings. */
static void parse(int argc, char **argv, fuzz_session *s, const char **cand, int *jobs,
                  isolation *iso)
{
    uint64_t v;
    int c, count_given = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", fuzz_options, NULL)) != -1) {
        switch (c) {
        case F_CANDIDATE: *cand = optarg; break;
        case F_SEED:
            if (parse_u64(optarg, 0, UINT64_MAX, &s->seed))
                usage_error("'--seed' wants an unsigned integer, not '%s'", optarg);
            break;
        case F_COUNT:
            if (parse_u64(optarg, 1, (uint64_t)1 << 40, &v))
                usage_error("'--count' wants 1 to 2^40, not '%s'", optarg);
            s->count = (long)v;
            count_given = 1;
            break;
        case F_TIME:
            if (parse_u64(optarg, 1, 86400, &v))
                usage_error("'--time' wants 1 to 86400 seconds, not '%s'", optarg);
            s->seconds = (double)v;
            break;
        case F_OP: {
            int op;
            for (op = 1; op <= RESHAPE_OP_COUNT; op++)
                if (!strcmp(optarg, reshape_op_name((reshape_op)op)))
                    break;
            if (op > RESHAPE_OP_COUNT)
                usage_error("unknown op '%s'", optarg);
            s->ops |= 1u << op;
            break;
        }
        case F_OUT: s->out_dir = optarg; break;
        case F_MAX:
            if (parse_u64(optarg, 0, 10000, &v))
                usage_error("'--max-cases' wants 0 to 10000, not '%s'", optarg);
            s->max_written = (int)v;
            break;
        case F_JOBS:
            if (parse_u64(optarg, 1, 256, &v))
                usage_error("'--jobs' wants 1 to 256, not '%s'", optarg);
            *jobs = (int)v;
            break;
        case F_TIMEOUT:
            if (parse_u64(optarg, 1, 3600000, &v))
                usage_error("'--timeout-ms' wants 1 to 3600000, not '%s'", optarg);
            s->timeout_ms = (int)v;
            break;
        case F_ISOLATION:
            if (!strcmp(optarg, "worker")) *iso = ISO_WORKER;
            else if (!strcmp(optarg, "fork")) *iso = ISO_FORK;
            else if (!strcmp(optarg, "none")) *iso = ISO_NONE;
            else usage_error("unknown isolation '%s' (worker, fork or none)", optarg);
            break;
        case F_HELP: cli_usage(fuzz_usage); exit(EXIT_CONFORMANT);
        case ':': usage_error("option '%s' needs a value", argv[optind - 1]); break;
        default: usage_error("unknown option '%s'", argv[optind - 1]); break;
        }
    }
    if (optind < argc)
        usage_error("unexpected argument '%s'", argv[optind]);
    if (count_given && s->seconds > 0)
        usage_error("give '--count' or '--time', not both%s", "");
    if (s->seconds > 0)
        s->count = LONG_MAX;
}

int cmd_fuzz(int argc, char **argv)
{
    fuzz_session s;
    memset(&s, 0, sizeof s);
    s.seed = 1;
    s.count = 10000;
    s.timeout_ms = 10000;
    s.max_written = 16;
    s.out_dir = "fuzz-cases";
    /* every variant of one call: threads and repeat test other things */
    s.variants = ((1u << V_COUNT) - 1) & ~(1u << V_THREADS) & ~(1u << V_REPEAT);
    const char *cand = NULL;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = cores > 0 ? (int)cores : 1;
    isolation iso = ISO_WORKER;
    parse(argc, argv, &s, &cand, &jobs, &iso);

    char *ref_path = path_from_cwd(options_default_candidate());
    wire_probe probe;
    s.ref = candidate_open(ref_path, &probe);
    if (!s.ref)
        die(EXIT_HARNESS, "cannot load the reference '%s': %s", ref_path, probe.message);
    const char *path = cand ? cand : ref_path;
    char real[PATH_MAX];
    if (!realpath(path, real))
        die(EXIT_HARNESS, "cannot read candidate '%s': %s", path, strerror(errno));
    s.candidate = path;
    if (mkdir(s.out_dir, 0777) != 0 && errno != EEXIST)
        die(EXIT_HARNESS, "cannot create '%s': %s", s.out_dir, strerror(errno));
    char *err = NULL;
    /* the candidate is confined as in a run; the cases it writes are kept
     * from it */
    const char *deny[] = {s.out_dir};
    sandbox_spec spec = {NULL, 0, NULL, 0, deny, 1, 0};
    sandbox_policy sb;
    if (sandbox_policy_make(&sb, real, &spec, &err) != 0)
        die(EXIT_HARNESS, "%s", err);
    s.e = engine_start(iso, jobs, real, s.timeout_ms, &sb, 1 << 16, 1 << 16, &probe, &err);
    if (!s.e) {
        sandbox_policy_free(&sb);
        die(EXIT_HARNESS, "%s", err);
    }
    int rc = fuzz_run(&s);
    engine_stop(s.e);
    sandbox_policy_free(&sb);
    printf("fuzz: %ld requests from %ld generated cases in %.3f s (%.0f/s): %ld judged, "
           "%ld skipped (NOT_SUPPORTED), %ld disagreements, %d case%s written to %s\n",
           s.requests, s.cases, s.elapsed, s.elapsed > 0 ? (double)s.requests / s.elapsed : 0.0,
           s.judged, s.skipped, s.disagreements, s.written, s.written == 1 ? "" : "s", s.out_dir);
    printf("fuzz: shrinking and reproducing ran %ld requests; %d disagreement kind%s did not "
           "reproduce; %ld generated cases were dropped (the reference has no answer)\n",
           s.shrink_requests, s.unreproduced, s.unreproduced == 1 ? "" : "s", s.dropped);
    fuzz_session_free(&s);
    free(ref_path);
    if (rc)
        return EXIT_HARNESS;
    return s.disagreements ? EXIT_NONCONFORMANT : EXIT_CONFORMANT;
}
