/*
 * cmd_merge.c - `reshape-conform merge A.json B.json ... -o OUT.json`: join
 * the JSON reports of the shards of one run into one report, as if one run
 * had produced it.
 */
static const char merge_usage[] =
"usage: reshape-conform merge REPORT.json... -o OUT.json [--junit OUT.xml]\n"
"\n"
"  -o, --output FILE  the merged JSON report\n"
"  --junit FILE       also write its JUnit XML view\n"
"  --help             this text\n"
"\n"
"The reports must come from the same candidate (sha256) and the same cases\n"
"(cases_sha256), schema_version 1, and no (id, variant) may appear twice.\n"
"Summary, matrices and verdict are recomputed; duration_s is the longest\n"
"shard's; options.shard lists the shards merged.\n"
"exit status: 0 conformant, 1 not conformant, 2 bad usage or inputs that\n"
"do not fit together or had load errors, 3 cannot write.\n";

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"
#include "report/report.h"
#include "cli.h"

static const struct option merge_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"junit", required_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *get_str(json_t *o, const char *a, const char *b)
{
    json_t *x = json_object_get(o, a);
    const char *s = json_string_value(b ? json_object_get(x, b) : x);
    return s ? s : "";
}

static int variant_rank(const char *name)
{
    int v = variant_parse(name);
    return v < 0 ? V_COUNT : v;
}

/* Merged entries: in file order, then line, then variant (one run's order). */
static int cmp_entries(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    int c = strcmp(get_str(x, "file", NULL), get_str(y, "file", NULL));
    if (c)
        return c;
    json_int_t lx = json_integer_value(json_object_get(x, "line")),
               ly = json_integer_value(json_object_get(y, "line"));
    if (lx != ly)
        return lx < ly ? -1 : 1;
    c = strcmp(get_str(x, "id", NULL), get_str(y, "id", NULL));
    if (c)
        return c;
    return variant_rank(get_str(x, "variant", NULL)) - variant_rank(get_str(y, "variant", NULL));
}

int cmd_merge(int argc, char **argv)
{
    const char *out = NULL, *junit = NULL;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:", merge_options, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'j': junit = optarg; break;
        case 'h': cli_usage(merge_usage); return EXIT_CONFORMANT;
        case ':': die(EXIT_USAGE, "option '%s' needs a value", argv[optind - 1]);
        default: die(EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!out)
        die(EXIT_USAGE, "merge needs '-o OUT.json'");
    if (optind >= argc)
        die(EXIT_USAGE, "merge needs at least one report");

    json_t *merged = NULL, *entries = json_array();
    double longest = 0;
    strbuf shards;
    sb_init(&shards);
    for (int i = optind; i < argc; i++) {
        json_error_t je;
        json_t *r = json_load_file(argv[i], 0, &je);
        if (!r)
            die(EXIT_USAGE, "%s:%d:%d: invalid json report: %s", argv[i], je.line, je.column,
                je.text);
        json_int_t sv = json_integer_value(json_object_get(r, "schema_version"));
        if (sv != SCHEMA_VERSION)
            die(EXIT_USAGE, "report '%s' has schema_version %lld, expected %d", argv[i],
                (long long)sv, SCHEMA_VERSION);
        if (merged) {
            if (strcmp(get_str(r, "candidate", "sha256"), get_str(merged, "candidate", "sha256")))
                die(EXIT_USAGE, "report '%s' tested another candidate than '%s'", argv[i],
                    argv[optind]);
            if (strcmp(get_str(r, "suite", "cases_sha256"), get_str(merged, "suite", "cases_sha256")))
                die(EXIT_USAGE, "report '%s' ran other case files than '%s'", argv[i], argv[optind]);
        }
        double d = json_number_value(json_object_get(r, "duration_s"));
        longest = d > longest ? d : longest;
        sb_addf(&shards, "%s%s", i > optind ? "+" : "", get_str(r, "options", "shard"));
        size_t k;
        json_t *e;
        json_array_foreach(json_object_get(r, "cases"), k, e)
            json_array_append(entries, e);
        if (!merged)
            merged = r;
        else
            json_decref(r);
    }
    size_t n = json_array_size(entries);
    json_t **v = xmalloc((n ? n : 1) * sizeof *v);
    for (size_t k = 0; k < n; k++)
        v[k] = json_array_get(entries, k);
    qsort(v, n, sizeof *v, cmp_entries);
    json_t *cases = json_array();
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && !strcmp(get_str(v[k], "id", NULL), get_str(v[k - 1], "id", NULL)) &&
            !strcmp(get_str(v[k], "variant", NULL), get_str(v[k - 1], "variant", NULL)))
            die(EXIT_USAGE, "'%s/%s' appears in more than one report", get_str(v[k], "id", NULL),
                get_str(v[k], "variant", NULL));
        json_array_append(cases, v[k]);
    }
    free(v);
    json_decref(entries);
    json_object_set_new(merged, "cases", cases);
    json_object_set_new(merged, "duration_s", json_real(longest));
    json_object_set_new(json_object_get(merged, "options"), "shard", json_string(shards.s));
    free(shards.s);
    report_summarize(merged);
    char *err = NULL;
    if (report_write_json(merged, out, &err) || (junit && report_write_junit(merged, junit, &err)))
        die(EXIT_HARNESS, "%s", err);
    int code = strcmp(get_str(merged, "verdict", NULL), "conformant") ? EXIT_NONCONFORMANT
                                                                       : EXIT_CONFORMANT;
    if (json_array_size(json_object_get(merged, "load_errors")))
        code = EXIT_USAGE;
    printf("%s: merged %zu entries from %d reports into '%s'\n", get_str(merged, "verdict", NULL),
           n, argc - optind, out);
    json_decref(merged);
    return code;
}
