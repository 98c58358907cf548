/*
 * cmd_merge.c - `reshape-conform merge A.json B.json ... -o OUT.json`: join
 * the JSON reports of the shards of one run into one report, as if one run
 * had produced it.
 */
static const char merge_usage[] =
"usage: reshape-conform merge REPORT.json... -o OUT.json [--junit OUT.xml]\n"
"         [--baseline OLD.json] [--expectations FILE] [--allow-fixes]\n"
"\n"
"  -o, --output FILE    the merged JSON report\n"
"  --junit FILE         also write its JUnit XML view\n"
"  --baseline OLD.json  gate the merged results against a previous report\n"
"                       (or OLD.json.gz), as 'run --baseline' does\n"
"  --expectations FILE  judge the merged results against known deviations,\n"
"                       as 'run --expectations' does\n"
"  --allow-fixes        a fixed known failure does not fail the gate\n"
"  --help               this text\n"
"\n"
"The reports (plain or gzip'd) must be every shard K/N of one run, each\n"
"once: the same candidate (sha256), the same cases (cases_sha256), the\n"
"same options that change verdicts or the selection, schema_version 1,\n"
"and no (id, variant) twice.  Summary, matrices, verdict and the gate are\n"
"recomputed over the merged results; duration_s is the longest shard's;\n"
"options.shard lists the shards merged.\n"
"exit status: 0 conformant (with a gate: it passes), 1 not conformant (the\n"
"gate fails), 2 bad usage, unreadable inputs or load errors, 3 cannot\n"
"write, 4 the reports are not one run's complete set of shards (a shard\n"
"missing, twice, or run with other options, candidate or cases).\n";

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
    {"baseline", required_argument, NULL, 'b'},
    {"expectations", required_argument, NULL, 'e'},
    {"allow-fixes", no_argument, NULL, 'f'},
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

/* Reads the reports of argv[first..argc), checks they are one run's
 * shards, and returns their entries, sorted, in the first one (the others
 * freed). */
static json_t *merge_reports(int argc, char **argv, int first, size_t *nentries)
{
    int n = argc - first;
    json_t **reports = xmalloc((size_t)n * sizeof *reports);
    char *err = NULL;
    for (int i = 0; i < n; i++)
        if (!(reports[i] = report_load(argv[first + i], &err)))
            die(EXIT_USAGE, "%s", err);
    if (shards_check(reports, (const char *const *)argv + first, n, &err)) {
        fprintf(stderr, "%s", err);
        die(EXIT_SHARD_SET, "%s not one run's complete set of shards: nothing merged",
            n == 1 ? "the report is" : "the reports are");
    }
    json_t *merged = reports[0], *entries = json_array();
    double longest = 0;
    strbuf shards;
    sb_init(&shards);
    for (int i = 0; i < n; i++) {
        double d = json_number_value(json_object_get(reports[i], "duration_s"));
        longest = d > longest ? d : longest;
        sb_addf(&shards, "%s%s", i ? "+" : "", get_str(reports[i], "options", "shard"));
        size_t k;
        json_t *e;
        json_array_foreach(json_object_get(reports[i], "cases"), k, e)
            json_array_append(entries, e);
    }
    size_t m = json_array_size(entries);
    json_t **v = xmalloc((m ? m : 1) * sizeof *v);
    for (size_t k = 0; k < m; k++)
        v[k] = json_array_get(entries, k);
    qsort(v, m, sizeof *v, cmp_entries);
    json_t *cases = json_array();
    for (size_t k = 0; k < m; k++) {
        if (k > 0 && !strcmp(get_str(v[k], "id", NULL), get_str(v[k - 1], "id", NULL)) &&
            !strcmp(get_str(v[k], "variant", NULL), get_str(v[k - 1], "variant", NULL)))
            die(EXIT_SHARD_SET, "'%s/%s' appears in more than one report",
                get_str(v[k], "id", NULL), get_str(v[k], "variant", NULL));
        json_array_append(cases, v[k]);
    }
    free(v);
    json_decref(entries);
    json_object_set_new(merged, "cases", cases);
    json_object_set_new(merged, "duration_s", json_real(longest));
    json_object_del(merged, "slots");   /* how the first shard ran, not all of them */
    json_object_set_new(json_object_get(merged, "options"), "shard", json_string(shards.s));
    free(shards.s);
    for (int i = 1; i < n; i++)
        json_decref(reports[i]);
    free(reports);
    *nentries = m;
    return merged;
}

int cmd_merge(int argc, char **argv)
{
    const char *out = NULL, *junit = NULL, *base_path = NULL, *exp_path = NULL;
    int c, allow_fixes = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:", merge_options, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'j': junit = optarg; break;
        case 'b': base_path = optarg; break;
        case 'e': exp_path = optarg; break;
        case 'f': allow_fixes = 1; break;
        case 'h': cli_usage(merge_usage); return EXIT_CONFORMANT;
        case ':': die(EXIT_USAGE, "option '%s' needs a value", argv[optind - 1]);
        default: die(EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!out)
        die(EXIT_USAGE, "merge needs '-o OUT.json'");
    if (optind >= argc)
        die(EXIT_USAGE, "merge needs at least one report");
    baseline base;
    memset(&base, 0, sizeof base);
    char *err = NULL;
    if (base_path && baseline_load(&base, base_path, &err))
        die(EXIT_USAGE, "%s", err);
    expectations ex;
    memset(&ex, 0, sizeof ex);
    if (exp_path) {
        strbuf errs;
        sb_init(&errs);
        if (expectations_load(&ex, exp_path, &errs)) {
            fputs(errs.s, stderr);
            die(EXIT_USAGE, "invalid expectations file '%s'", exp_path);
        }
        free(errs.s);
    }

    size_t n;
    json_t *merged = merge_reports(argc, argv, optind, &n);
    json_t *opts = json_object_get(merged, "options");
    if (exp_path) {
        report_waive(merged, &ex);
        json_object_set_new(opts, "expectations", json_string(exp_path));
    }
    /* a shard's baseline was the shard's: only merge's own counts */
    json_object_set_new(opts, "baseline", base_path ? json_string(base_path) : json_null());
    json_object_set_new(opts, "allow_fixes", json_boolean(allow_fixes));
    report_summarize(merged);
    /* the shards' gate was each shard's: judged again over the whole */
    const char *shard_exp = json_string_value(json_object_get(opts, "expectations"));
    int gated = base_path || shard_exp;
    json_object_set_new(merged, "baseline", json_null());
    json_object_set_new(merged, "gate", json_null());
    int gate = gated ? gate_apply(merged, base_path ? &base : NULL, shard_exp, allow_fixes)
                     : GATE_PASSES;
    if (report_write_json(merged, out, &err) || (junit && report_write_junit(merged, junit, &err)))
        die(EXIT_HARNESS, "%s", err);
    gate_print(stdout, merged, 5);
    int code = strcmp(get_str(merged, "verdict", NULL), "conformant") ? EXIT_NONCONFORMANT
                                                                       : EXIT_CONFORMANT;
    if (gated)
        code = gate == GATE_FAILS ? EXIT_NONCONFORMANT : EXIT_CONFORMANT;
    if (json_array_size(json_object_get(merged, "load_errors")))
        code = EXIT_USAGE;
    printf("%s: merged %zu entries from %d reports (shards %s) into '%s'\n",
           gated ? gate_headline(merged) : get_str(merged, "verdict", NULL), n, argc - optind,
           get_str(merged, "options", "shard"), out);
    json_decref(merged);
    baseline_free(&base);
    expectations_free(&ex);
    return code;
}
