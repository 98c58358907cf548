/*
 * cmd_run.c - `reshape-conform [run] [OPTIONS]`: load the cases, run them
 * against a candidate in isolated workers, report.  Also `list`.  The
 * options and the sequence of a run here; its usage text in run_usage.c,
 * its steps in run_steps.c.  Depends on every harness layer below it.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "suite/suite.h"
#include "engine/engine.h"
#include "judge/judge.h"
#include "run/run.h"
#include "report/report.h"
#include "cli.h"
#include "run_sandbox.h"
#include "run_steps.h"

/* The most findings the terminal shows; the summary line and "+N more"
 * make the run's output at most 40 lines. */
#define FINDINGS_LINES 38
/* The ids the gate shows of each group of regressions or fixes. */
#define GATE_LINES 5

enum {
    O_CANDIDATE = 256, O_CASES, O_JOBS, O_TIMEOUT, O_ISOLATION, O_VARIANTS, O_FILTER, O_TAG,
    O_OP, O_SHARD, O_SEED, O_MAX_BYTES, O_STRICT, O_LIBRARIES, O_EXPECTATIONS, O_UPDATE_EXP, O_BASELINE, O_ALLOW_FIXES,
    O_JSON, O_JUNIT, O_JUNIT_SUITE, O_SANDBOX, O_SB_ALLOW, O_SB_WRITE, O_SB_DENY, O_SB_SCRATCH,
    O_JOURNAL, O_RESUME,
    O_REPORT_DIR, O_LIST, O_VERBOSE, O_QUIET, O_HELP
};

static const struct option run_options_table[] = {
    {"candidate", required_argument, NULL, O_CANDIDATE},
    {"cases", required_argument, NULL, O_CASES},
    {"jobs", required_argument, NULL, O_JOBS},
    {"timeout-ms", required_argument, NULL, O_TIMEOUT},
    {"isolation", required_argument, NULL, O_ISOLATION},
    {"sandbox", required_argument, NULL, O_SANDBOX},
    {"sandbox-allow", required_argument, NULL, O_SB_ALLOW},
    {"sandbox-allow-write", required_argument, NULL, O_SB_WRITE},
    {"sandbox-deny", required_argument, NULL, O_SB_DENY},
    {"sandbox-scratch-mb", required_argument, NULL, O_SB_SCRATCH},
    {"variants", required_argument, NULL, O_VARIANTS},
    {"filter", required_argument, NULL, O_FILTER},
    {"tag", required_argument, NULL, O_TAG},
    {"op", required_argument, NULL, O_OP},
    {"shard", required_argument, NULL, O_SHARD},
    {"seed", required_argument, NULL, O_SEED},
    {"max-bytes", required_argument, NULL, O_MAX_BYTES},
    {"strict-errors", no_argument, NULL, O_STRICT},
    {"libraries", no_argument, NULL, O_LIBRARIES},
    {"expectations", required_argument, NULL, O_EXPECTATIONS},
    {"update-expectations", no_argument, NULL, O_UPDATE_EXP},
    {"baseline", required_argument, NULL, O_BASELINE},
    {"allow-fixes", no_argument, NULL, O_ALLOW_FIXES},
    {"json", required_argument, NULL, O_JSON},
    {"junit", required_argument, NULL, O_JUNIT},
    {"junit-suite-name", required_argument, NULL, O_JUNIT_SUITE},
    {"report-dir", required_argument, NULL, O_REPORT_DIR},
    {"journal", required_argument, NULL, O_JOURNAL},
    {"resume", required_argument, NULL, O_RESUME},
    {"list", no_argument, NULL, O_LIST},
    {"verbose", no_argument, NULL, O_VERBOSE},
    {"quiet", no_argument, NULL, O_QUIET},
    {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0},
};

static void usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "reshape-conform: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n(see 'reshape-conform --help')\n");
    exit(EXIT_USAGE);
}

static void push(const char ***list, int *n, const char *s)
{
    *list = xrealloc(*list, (size_t)(*n + 1) * sizeof **list);
    (*list)[(*n)++] = s;
}

static void parse(run_options *o, int argc, char **argv)
{
    uint64_t v;
    char *bad;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", run_options_table, NULL)) != -1) {
        o->nsettings += c != O_RESUME && c != O_QUIET && c != O_VERBOSE;
        switch (c) {
        case O_CANDIDATE: o->candidate = optarg; break;
        case O_CASES: push(&o->cases, &o->ncases, optarg); break;
        case O_JOBS:
            if (parse_u64(optarg, 1, 256, &v))
                usage_error("'--jobs' wants 1 to 256, not '%s'", optarg);
            o->jobs = (int)v;
            o->jobs_given = 1;
            break;
        case O_TIMEOUT:
            if (parse_u64(optarg, 1, 3600000, &v))
                usage_error("'--timeout-ms' wants 1 to 3600000, not '%s'", optarg);
            o->timeout_ms = (int)v;
            break;
        case O_ISOLATION:
            if (!strcmp(optarg, "worker")) o->iso = ISO_WORKER;
            else if (!strcmp(optarg, "fork")) o->iso = ISO_FORK;
            else if (!strcmp(optarg, "none")) o->iso = ISO_NONE;
            else usage_error("unknown isolation '%s' (worker, fork or none)", optarg);
            break;
        case O_SANDBOX:
            if (!strcmp(optarg, "on")) o->sandbox = 1;
            else if (!strcmp(optarg, "off")) o->sandbox = 0;
            else usage_error("'--sandbox' wants on or off, not '%s'", optarg);
            break;
        case O_SB_ALLOW: push(&o->sandbox_allow, &o->nsandbox_allow, optarg); break;
        case O_SB_WRITE: push(&o->sandbox_write, &o->nsandbox_write, optarg); break;
        case O_SB_DENY: push(&o->sandbox_deny, &o->nsandbox_deny, optarg); break;
        case O_SB_SCRATCH:
            if (parse_u64(optarg, 1, 1 << 20, &o->sandbox_scratch_mb))
                usage_error("'--sandbox-scratch-mb' wants 1 to 1048576, not '%s'", optarg);
            break;
        case O_VARIANTS:
            if (parse_variants(optarg, &o->variants, &bad))
                usage_error("unknown variant '%s'", bad);
            break;
        case O_FILTER: {
            const char *slash = strrchr(optarg, '/');
            unsigned mask;
            char *bad = NULL;
            if (slash && (slash == optarg || !slash[1]))
                usage_error("'--filter' wants ID_GLOB or ID_GLOB/VARIANT, not '%s'", optarg);
            if (slash && !strpbrk(slash + 1, "*?[") && parse_variants(slash + 1, &mask, &bad)) {
                free(bad);
                usage_error("unknown variant in '--filter %s'", optarg);
            }
            push(&o->filters, &o->nfilters, optarg);
            break;
        }
        case O_TAG: push(&o->tags, &o->ntags, optarg); break;
        case O_OP: {
            int op;
            for (op = 1; op <= RESHAPE_OP_COUNT; op++)
                if (!strcmp(optarg, reshape_op_name((reshape_op)op)))
                    break;
            if (op > RESHAPE_OP_COUNT)
                usage_error("unknown op '%s'", optarg);
            o->ops |= 1u << op;
            push(&o->op_names, &o->nops, optarg);
            break;
        }
        case O_SHARD:
            if (parse_shard(optarg, &o->shard_k, &o->shard_n))
                usage_error("'--shard' wants K/N with 1 <= K <= N, not '%s'", optarg);
            break;
        case O_SEED:
            if (parse_u64(optarg, 0, UINT64_MAX, &o->seed))
                usage_error("'--seed' wants an unsigned integer, not '%s'", optarg);
            break;
        case O_MAX_BYTES:
            if (parse_u64(optarg, 0, (uint64_t)1 << 40, &o->max_bytes))
                usage_error("'--max-bytes' wants 0 to 2^40, not '%s'", optarg);
            break;
        case O_STRICT: o->strict_errors = 1; break;
        case O_LIBRARIES: o->libraries = 1; break;
        case O_EXPECTATIONS: o->expectations = optarg; break;
        case O_UPDATE_EXP: o->update_expectations = 1; break;
        case O_BASELINE: o->baseline = optarg; break;
        case O_ALLOW_FIXES: o->allow_fixes = 1; break;
        case O_JSON: o->json = optarg; break;
        case O_JUNIT: o->junit = optarg; break;
        case O_JUNIT_SUITE: o->junit_suite_name = optarg; break;
        case O_REPORT_DIR: o->report_dir = optarg; break;
        case O_JOURNAL: o->journal = optarg; break;
        case O_RESUME: o->resume = optarg; break;
        case O_LIST: o->list = 1; break;
        case O_VERBOSE: o->verbose = 1; break;
        case O_QUIET: o->quiet = 1; break;
        case O_HELP: cli_usage(run_usage); exit(EXIT_CONFORMANT);
        case ':': usage_error("option '%s' needs a value", argv[optind - 1]); break;
        default: usage_error("unknown option '%s'", argv[optind - 1]); break;
        }
    }
    if (optind < argc)
        usage_error("unexpected argument '%s'", argv[optind]);
    if (o->update_expectations && !o->expectations)
        usage_error("'--update-expectations' needs '%s'", "--expectations FILE");
    if (o->update_expectations &&
        (o->nfilters || o->ntags || o->nops || o->shard_n > 1 || o->variants != (1u << V_COUNT) - 1))
        usage_error("'--update-expectations' needs every case and variant: drop %s",
                    "--filter, --tag, --op, --shard and --variants");
}

int run_main(int argc, char **argv, int list)
{
    run_options o;
    options_defaults(&o, argc, argv);
    parse(&o, argc, argv);
    journal resumed;
    char **resume_argv = o.resume ? run_journal_resume_options(&o, &resumed, parse) : NULL;
    o.list |= list;
    char *default_cases = NULL;
    if (!o.ncases) {
        char *abs = xasprintf("%s/cases", source_dir());
        default_cases = path_from_cwd(abs);
        free(abs);
        push(&o.cases, &o.ncases, default_cases);
    }
    case_set set;
    memset(&set, 0, sizeof set);
    case_set_load(&set, o.cases, o.ncases);
    expectations ex;
    memset(&ex, 0, sizeof ex);
    baseline base;
    memset(&base, 0, sizeof base);
    run_load_judging_inputs(&o, &set, &ex, &base);
    run_print_load_errors(&set);
    int nsel;
    int *sel = select_cases(&set, &o, &nsel);
    if (o.list) {
        for (int i = 0; i < nsel; i++) {
            const rcase *c = &set.cases[sel[i]];
            printf("%s %s %s:%d\n", c->id, reshape_op_name(c->op), c->file, c->line);
        }
        int code = set.nerrors ? EXIT_USAGE : EXIT_CONFORMANT;
        free(sel);
        expectations_free(&ex);
        case_set_free(&set);
        free(o.cases);
        free(o.tags);
        free(o.filters);
        free(o.op_names);
        free(default_cases);
        return code;
    }
    if (nsel == 0)
        die(EXIT_USAGE, "no case to run (%d loaded, %d load errors)", set.ncases, set.nerrors);

    int njobs;
    job *jobs = select_jobs(&set, &o, &njobs);
    size_t src_need = 4096, dst_need = 4096;    /* of the big cell */
    for (int i = 0; i < njobs; i++) {
        size_t s, d;
        if (job_fits_small(&jobs[i], &set))
            continue;
        job_needs(&jobs[i], &set, &s, &d);
        src_need = s > src_need ? s : src_need;
        dst_need = d > dst_need ? d : dst_need;
    }
    char *default_cand = o.candidate ? NULL : path_from_cwd(options_default_candidate());
    const char *cand = o.candidate ? o.candidate : default_cand;
    char cand_real[PATH_MAX], sha[65];
    if (!realpath(cand, cand_real) || sha256_file(cand_real, sha) != 0)
        die(EXIT_HARNESS, "cannot read candidate '%s': %s", cand, strerror(errno));
    /* what the harness maps itself, before any candidate is loaded */
    libraries_self self;
    libraries_self_read(&self);
    wire_probe probe;
    char *err = NULL;
    ground grd;
    run_ground_start(&grd, &o, &set, cand_real);
    sandbox_policy *sb = run_sandbox_start(&o, cand_real);
    int slots = o.jobs < njobs ? o.jobs : (njobs ? njobs : 1);
    engine *e = engine_start(o.iso, slots, cand_real, o.timeout_ms, sb, src_need, dst_need,
                             &probe, &err);
    if (!e && probe.state != 2)
        die(EXIT_HARNESS, "%s", err);
    if (!e)     /* the candidate's fault: every result says so (load_failure.h) */
        fprintf(stderr, "reshape-conform: %s\n", err);
    if (e && probe.device_type)
        run_check_device(e, cand_real, &o, &probe);

    char started[32];
    utc_now(started);
    progress pr;
    long expected_results = njobs;
    for (int i = 0; i < njobs; i++)
        if (jobs[i].v == V_THREADS) {
            for (int t = 1; t < jobs[i].ncases; t++) {
                int dup = 0;
                for (int u = 0; u < t; u++)
                    dup |= jobs[i].cases[u] == jobs[i].cases[t];
                expected_results += !dup;
            }
        }
    progress_init(&pr, expected_results, o.quiet, o.verbose);
    if (o.report_dir && report_make_dirs(o.report_dir))
        die(EXIT_HARNESS, "cannot create report directory '%s': %s", o.report_dir,
            strerror(errno));
    run_journal rj;
    if (o.resume)
        snprintf(started, sizeof started, "%s",
                 json_string_value(json_object_get(resumed.header, "started_utc")));
    run_journal_open(&rj, &o, o.resume ? &resumed : NULL, sha, &set, started, jobs, &njobs);
    const expectation **waivers;
    int nres;
    result *res = run_jobs(&o, &set, jobs, njobs, e, &probe, &ex, &waivers, &nres, &pr, err, &rj);
    free(err);
    double secs = now_s() - pr.start;
    json_t *libs = o.libraries && e ? run_record_libraries(e, cand_real, &self) : NULL;
    libraries_self_free(&self);
    /* the workers' teardown overlaps the reports; engine_stop waits for it */
    if (e)
        engine_finish(e);

    if (o.update_expectations) {
        if (expectations_update(&ex, res, waivers, nres, &err) < 0)
            die(EXIT_USAGE, "%s", err);
        /* the summary counts what the rewritten file gives */
        memset(pr.counts, 0, sizeof pr.counts);
        for (int i = 0; i < nres; i++)
            pr.counts[res[i].vd]++;
    }
    long against = 0, passed = 0;
    for (int i = 0; i < nres; i++) {
        against += verdict_counts_against(res[i].vd);
        passed += res[i].vd == VD_PASS;
    }
    if (!against && !passed)
        warn("no (case, variant) passed: a candidate that supports nothing the suite asks "
             "about is not conformant");
    against = !run_conformant(passed, against);
    const char *headline = against ? "nonconformant" : "conformant";
    int gated = o.baseline || o.expectations, gate_code = GATE_PASSES;
    char *gate_line = NULL;
    sandbox_summary seen;
    json_t *sandbox_facts = run_sandbox_json(e && engine_sandbox_summary(e, &seen) == 0 ? &seen
                                                                                       : NULL, sb);
    /* reports first (the renderer may print), the findings, the summary line last */
    if (o.json || o.junit || o.report_dir || against || gated) {
        run_info ri = {&o, &set, cand, sha, &probe, "", secs, res, nres, waivers,
                       o.baseline ? &base : NULL, libs};
        memcpy(ri.started_utc, started, sizeof started);
        json_t *report = report_build(&ri);
        json_object_set(json_object_get(report, "host"), "sandbox", sandbox_facts);
        json_object_set_new(report, "slots", json_pack("{s:i, s:i, s:b}", "first",
                                                       e ? engine_slots(e) : 0, "added",
                                                       e ? engine_added_slots(e) : 0, "one_cpu",
                                                       e ? engine_threads_end(e) : 0));
        if (gated) {
            json_t *g = json_object_get(report, "gate");
            gate_code = json_is_true(json_object_get(g, "passed")) ? GATE_PASSES : GATE_FAILS;
            headline = gate_line = xstrdup(gate_headline(report));
        }
        run_write_reports(&o, report);
        gate_print(stdout, report, GATE_LINES);
        findings_print(stdout, report, FINDINGS_LINES, pr.color);
        if (!o.quiet)
            skips_print(stdout, json_object_get(report, "skips"), o.verbose, FINDINGS_LINES);
        json_decref(report);
    }
    json_decref(sandbox_facts);
    run_journal_finish(&rj);
    if (o.resume) {
        journal_free(&resumed);
        free(resume_argv);
    }
    progress_finish(&pr, secs, nsel, set.nerrors, headline);
    int strays = e ? engine_stop(e) : 0;
    if (strays)
        warn("killed %d process%s the candidate left running when its workers died or ended",
             strays, strays == 1 ? "" : "es");
    run_sandbox_end(sb);
    int code = against ? EXIT_NONCONFORMANT : EXIT_CONFORMANT;
    if (gated)
        code = gate_code == GATE_FAILS ? EXIT_NONCONFORMANT : EXIT_CONFORMANT;
    if (set.nerrors)
        code = EXIT_USAGE;
    if (run_ground_check(&grd) != EXIT_CONFORMANT)
        code = EXIT_HARNESS;
    for (int i = 0; i < nres; i++) {
        free(res[i].detail);
        free(res[i].got);
    }
    json_decref(libs);
    free(gate_line);
    baseline_free(&base);
    free(res);
    free(waivers);
    free(jobs);
    free(sel);
    expectations_free(&ex);
    case_set_free(&set);
    free(o.cases);
    free(o.tags);
    free(o.filters);
    free(o.op_names);
    free(o.sandbox_allow);
    free(o.sandbox_write);
    free(o.sandbox_deny);
    free(default_cases);
    free(default_cand);
    return code;
}
