/*
 * cmd_compare.c - `reshape-conform compare OLD.json NEW.json`: the gate of
 * `run --baseline` between two reports, offline.
 */
static const char compare_usage[] =
"usage: reshape-conform compare OLD.json NEW.json [--allow-fixes] [--json OUT.json]\n"
"\n"
"  --allow-fixes  a fixed known failure (UNEXPECTED_PASS) does not fail\n"
"                 the gate\n"
"  --json FILE    write NEW's report with the gate against OLD\n"
"  --help         this text\n"
"\n"
"Judges NEW's results against OLD's as 'run --baseline OLD.json' does:\n"
"the regressions, grouped by what went wrong, the fixes and the known\n"
"failures; either report may be gzip'd.\n"
"exit status: 0 the gate passes, 1 it fails (a regression, or a fix of a\n"
"known failure without --allow-fixes), 2 bad usage or a report that cannot\n"
"be read, 3 cannot write.\n";

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "report/report.h"
#include "cli.h"

static const struct option compare_options[] = {
    {"allow-fixes", no_argument, NULL, 'f'},
    {"json", required_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int cmd_compare(int argc, char **argv)
{
    const char *json_out = NULL;
    int c, allow_fixes = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", compare_options, NULL)) != -1) {
        switch (c) {
        case 'f': allow_fixes = 1; break;
        case 'j': json_out = optarg; break;
        case 'h': cli_usage(compare_usage); return EXIT_CONFORMANT;
        case ':': die(EXIT_USAGE, "option '%s' needs a value", argv[optind - 1]);
        default: die(EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        die(EXIT_USAGE, "compare needs two reports, OLD.json and NEW.json (see 'compare --help')");
    baseline base;
    char *err = NULL;
    if (baseline_load(&base, argv[optind], &err))
        die(EXIT_USAGE, "%s", err);
    json_t *now = report_load(argv[optind + 1], &err);
    if (!now)
        die(EXIT_USAGE, "%s", err);
    json_t *opts = json_object_get(now, "options");
    json_object_set_new(opts, "baseline", json_string(argv[optind]));
    json_object_set_new(opts, "allow_fixes", json_boolean(allow_fixes));
    int gate = gate_apply(now, &base, json_string_value(json_object_get(opts, "expectations")),
                          allow_fixes);
    if (json_out && report_write_json(now, json_out, &err))
        die(EXIT_HARNESS, "%s", err);
    gate_print(stdout, now, 5);
    printf("%s: %zu entries of '%s' against '%s'\n", gate_headline(now),
           json_array_size(json_object_get(now, "cases")), argv[optind + 1], argv[optind]);
    json_decref(now);
    baseline_free(&base);
    return gate == GATE_FAILS ? EXIT_NONCONFORMANT : EXIT_CONFORMANT;
}
