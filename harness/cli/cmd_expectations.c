/*
 * cmd_expectations.c - `reshape-conform expectations write REPORT.json`:
 * the expectations file (expectations.h) that waives exactly the failures
 * of a report, so that the next run of the same candidate is green and a
 * new failure is not.
 */
static const char expectations_usage[] =
"usage: reshape-conform expectations write REPORT.json [--reason TEXT]\n"
"         [--tracker URL] > known.yaml\n"
"\n"
"  --reason TEXT  each entry's reason (default: where it was recorded)\n"
"  --tracker URL  each entry's tracker\n"
"  --help         this text\n"
"\n"
"Writes to stdout the file '--expectations' reads: one entry per failing\n"
"(case, variant) of REPORT (plain or gzip'd), with its exact verdict, or\n"
"one entry per case (id without a variant) when every variant of the case\n"
"that ran fails with the same verdict or is NOT_SUPPORTED; each entry\n"
"with its finding and clause as a comment above it.  An entry already\n"
"waived keeps its verdict, reason and tracker; a result that passed\n"
"against an expectation (UNEXPECTED_PASS) is left out.\n"
"exit status: 0 written, 2 bad usage or a report that cannot be read.\n";

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"
#include "report/report.h"
#include "cli.h"

static const struct option expectations_options[] = {
    {"reason", required_argument, NULL, 'r'},
    {"tracker", required_argument, NULL, 't'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* `s` as a YAML double-quoted scalar (JSON's string syntax, which YAML
 * reads): a new string. */
static char *quoted(const char *s)
{
    json_t *j = json_string(s);
    char *q = json_dumps(j ? j : json_string(""), JSON_ENCODE_ANY);
    json_decref(j);
    return q;
}

/* The verdict entry `e` is expected to have: its verdict when it counts
 * against conformance, the waiver's when it was waived, else NULL (it
 * passed, was not supported, or passed against an expectation). */
static const char *failed_as(json_t *e)
{
    const char *vd = str(e, "verdict");
    if (!strcmp(vd, "WAIVED"))
        return str(json_object_get(e, "waiver"), "verdict");
    for (int v = 0; v < VD_COUNT; v++)
        if (!strcmp(vd, verdict_name((verdict)v)))
            return verdict_counts_against((verdict)v) && v != VD_UNEXPECTED_PASS ? vd : NULL;
    return NULL;
}

/* Prints the entry for `pattern` whose example run is `e`. */
static void print_entry(json_t *e, const char *pattern, const char *verdict_s,
                        const char *reason, const char *tracker)
{
    json_t *w = json_object_get(e, "waiver");
    const char *vd = str(e, "verdict");
    char *kind = findings_kind(!strcmp(vd, "WAIVED") ? verdict_s : vd, str(e, "detail"),
                               str(e, "expected"));
    for (char *p = kind; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    printf("  # %s: %s; clause %s\n", verdict_s, kind, str(e, "clause"));
    free(kind);
    char *r = quoted(json_is_object(w) && *str(w, "reason") ? str(w, "reason") : reason);
    printf("  - id: %s\n    verdict: %s\n    reason: %s\n", pattern, verdict_s, r);
    free(r);
    const char *t = json_is_object(w) && *str(w, "tracker") ? str(w, "tracker") : tracker;
    if (t && *t) {
        char *q = quoted(t);
        printf("    tracker: %s\n", q);
        free(q);
    }
}

/* Prints the entries of one case, cases[first, last). */
static void print_case(json_t *cases, size_t first, size_t last, const char *reason,
                       const char *tracker)
{
    const char *common = NULL;
    int whole = 1;
    size_t failing = 0;
    for (size_t i = first; i < last; i++) {
        json_t *e = json_array_get(cases, i);
        const char *f = failed_as(e);
        if (!f) {
            whole &= !strcmp(str(e, "verdict"), "NOT_SUPPORTED");
            continue;
        }
        failing++;
        if (common && strcmp(common, f))
            whole = 0;
        common = f;
    }
    if (!failing)
        return;
    /* one entry for the case: its first failing run is the example */
    for (size_t i = first; i < last; i++) {
        json_t *e = json_array_get(cases, i);
        const char *f = failed_as(e);
        if (!f)
            continue;
        if (whole && failing > 1) {
            print_entry(e, str(e, "id"), f, reason, tracker);
            return;
        }
        char *pattern = xasprintf("%s/%s", str(e, "id"), str(e, "variant"));
        print_entry(e, pattern, f, reason, tracker);
        free(pattern);
    }
}

int cmd_expectations(int argc, char **argv)
{
    const char *reason_opt = NULL, *tracker = NULL;
    if (argc < 2 || strcmp(argv[1], "write")) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            cli_usage(expectations_usage);
            return EXIT_CONFORMANT;
        }
        die(EXIT_USAGE, "expectations wants 'write REPORT.json' (see 'expectations --help')");
    }
    int c;
    opterr = 0;
    optind = 1;
    argc--;
    argv++;
    while ((c = getopt_long(argc, argv, ":", expectations_options, NULL)) != -1) {
        switch (c) {
        case 'r': reason_opt = optarg; break;
        case 't': tracker = optarg; break;
        case 'h': cli_usage(expectations_usage); return EXIT_CONFORMANT;
        case ':': die(EXIT_USAGE, "option '%s' needs a value", argv[optind - 1]);
        default: die(EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        die(EXIT_USAGE, "expectations write needs one report (see 'expectations --help')");
    if (reason_opt && strspn(reason_opt, " \t\n") == strlen(reason_opt))
        die(EXIT_USAGE, "'--reason' must say why the cases are expected to fail");
    if (tracker && (!strstr(tracker, "://") || strpbrk(tracker, " \t\n")))
        die(EXIT_USAGE, "'--tracker' must be a URL, not '%s'", tracker);
    const char *path = argv[optind];
    char *err = NULL;
    json_t *r = report_load(path, &err);
    if (!r)
        die(EXIT_USAGE, "%s", err);
    json_t *cand = json_object_get(r, "candidate");
    char *reason = reason_opt ? xstrdup(reason_opt)
                              : xasprintf("failing in %s (%s %s, started %s)", path,
                                          str(cand, "name"), str(cand, "version"),
                                          str(r, "started_utc"));
    printf("# known failures of %s %s (sha256 %.12s), written by 'reshape-conform expectations\n"
           "# write %s'; each entry's finding and clause above it.  Read by\n"
           "# '--expectations'; drop an entry when its failure is fixed.\n"
           "expectations:\n", str(cand, "name"), str(cand, "version"), str(cand, "sha256"), path);
    json_t *cases = json_object_get(r, "cases");
    size_t n = json_array_size(cases), first = 0;
    for (size_t i = 1; i <= n; i++)
        if (i == n || strcmp(str(json_array_get(cases, i), "id"),
                             str(json_array_get(cases, first), "id"))) {
            print_case(cases, first, i, reason, tracker);
            first = i;
        }
    free(reason);
    json_decref(r);
    return EXIT_CONFORMANT;
}
