/*
 * cmd_verify.c - `reshape-conform verify BUNDLE.tar.gz`: checks a
 * certification bundle written by `certify` (bundle.h) and says what is
 * wrong with it.
 */
static const char verify_usage[] =
"usage: reshape-conform verify BUNDLE.tar.gz\n"
"\n"
"Checks that every member matches MANIFEST.sha256 and the manifest lists\n"
"every member; that the report ran the suite suite.json describes (same\n"
"cases_sha256) with the certification options and no load errors; that it\n"
"has results for every mandatory case id; and that it tested the candidate\n"
"candidate.sha256 names.  Prints one line per problem, then the outcome.\n"
"The manifest finds damage and edits, not forgery: the bundle is not signed.\n"
"exit status: 0 valid, 1 invalid, 2 bad usage or unreadable file.\n";

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "job.h"
#include "report.h"
#include "util.h"

int cmd_verify(int argc, char **argv);

static const struct option verify_options[] = {
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* How many lines of missing ids to print before summing up. */
#define VERIFY_SHOW_MISSING 10

typedef struct checker {
    int problems;
} checker;

static void problem(checker *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void problem(checker *k, const char *fmt, ...)
{
    va_list ap;
    printf("problem: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    k->problems++;
}

static const char *str_at(json_t *o, const char *a, const char *b)
{
    json_t *x = json_object_get(o, a);
    const char *s = json_string_value(b ? json_object_get(x, b) : x);
    return s ? s : "";
}

static int is_hex64(const char *s, size_t len)
{
    if (len < 64)
        return 0;
    for (size_t i = 0; i < 64; i++)
        if (!strchr("0123456789abcdef", s[i]))
            return 0;
    return 1;
}

/* Every member against the manifest, and the manifest against the members. */
static void check_manifest(checker *k, const bundle *b)
{
    const bundle_member *m = bundle_get(b, BUNDLE_MANIFEST);
    if (!m) {
        problem(k, "no member '%s'", BUNDLE_MANIFEST);
        return;
    }
    char *text = xmalloc(m->size + 1);
    memcpy(text, m->data, m->size);
    text[m->size] = '\0';
    char *listed = xcalloc((size_t)b->n, 1);
    int lineno = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        lineno++;
        size_t len = strlen(l);
        if (!is_hex64(l, len) || len < 67 || l[64] != ' ' || l[65] != ' ') {
            problem(k, "line %d of %s is not 'SHA256  NAME'", lineno, BUNDLE_MANIFEST);
            continue;
        }
        const char *name = l + 66;
        const bundle_member *x = bundle_get(b, name);
        if (!x) {
            problem(k, "member '%s' listed in %s is missing", name, BUNDLE_MANIFEST);
            continue;
        }
        listed[x - b->m] = 1;
        char hex[65];
        sha256_hex(x->data, x->size, hex);
        if (strncmp(hex, l, 64))
            problem(k, "member '%s' does not match %s (sha256 %.12s..., listed %.12s...)", name,
                    BUNDLE_MANIFEST, hex, l);
    }
    for (int i = 0; i < b->n; i++)
        if (!listed[i] && strcmp(b->m[i].name, BUNDLE_MANIFEST))
            problem(k, "member '%s' is not listed in %s", b->m[i].name, BUNDLE_MANIFEST);
    free(listed);
    free(text);
}

/* Member `name` parsed as JSON, or NULL after a problem. */
static json_t *member_json(checker *k, const bundle *b, const char *name)
{
    const bundle_member *m = bundle_get(b, name);
    if (!m) {
        problem(k, "no member '%s'", name);
        return NULL;
    }
    json_error_t je;
    json_t *j = json_loadb((const char *)m->data, m->size, 0, &je);
    if (!j)
        problem(k, "member '%s' is not json: %s at %d:%d", name, je.text, je.line, je.column);
    return j;
}

/* The report ran with the options `certify` fixes, over valid case files. */
static void check_options(checker *k, json_t *report)
{
    json_t *o = json_object_get(report, "options");
    if (!json_is_false(json_object_get(o, "strict_errors")))
        problem(k, "the report ran with --strict-errors (certification runs without)");
    if (strcmp(str_at(o, "shard", NULL), "1/1"))
        problem(k, "the report is shard '%s', not the whole suite", str_at(o, "shard", NULL));
    if (!json_is_null(json_object_get(o, "filter")) || json_array_size(json_object_get(o, "tags")) ||
        json_array_size(json_object_get(o, "ops")))
        problem(k, "the report ran a selection (--filter, --tag or --op)");
    if (!json_is_null(json_object_get(o, "expectations")))
        problem(k, "the report ran with expectations (waivers)");
    json_t *vs = json_object_get(o, "variants");
    for (int v = 0; v < V_COUNT; v++) {
        int found = 0;
        size_t i;
        json_t *x;
        json_array_foreach(vs, i, x)
            found |= !strcmp(json_string_value(x) ? json_string_value(x) : "",
                             variant_name((variant)v));
        if (!found)
            problem(k, "the report did not run variant '%s'", variant_name((variant)v));
    }
    json_int_t le = json_integer_value(json_object_get(json_object_get(report, "suite"), "load_errors"));
    if (le != 0 || json_array_size(json_object_get(report, "load_errors")))
        problem(k, "the report has %lld load errors", (long long)le);
}

/* Every mandatory id of suite.json has at least one entry in the report. */
static void check_coverage(checker *k, json_t *report, json_t *suite)
{
    json_t *seen = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(report, "cases"), i, e)
        json_object_set_new(seen, str_at(e, "id", NULL), json_true());
    json_t *ids = json_object_get(suite, "mandatory_ids");
    if (!json_is_array(ids) || json_array_size(ids) == 0)
        problem(k, "%s has no mandatory_ids", BUNDLE_SUITE);
    int missing = 0;
    json_array_foreach(ids, i, e) {
        const char *id = json_string_value(e);
        if (id && json_object_get(seen, id))
            continue;
        if (missing++ < VERIFY_SHOW_MISSING)
            problem(k, "the report has no result for mandatory case '%s'", id ? id : "?");
    }
    if (missing > VERIFY_SHOW_MISSING)
        problem(k, "... %d more mandatory cases have no result", missing - VERIFY_SHOW_MISSING);
    json_decref(seen);
}

int cmd_verify(int argc, char **argv)
{
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", verify_options, NULL)) != -1) {
        if (c == 'h') {
            fputs(verify_usage, stdout);
            return EXIT_CONFORMANT;
        }
        die(EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
    }
    if (optind != argc - 1)
        die(EXIT_USAGE, "verify needs exactly one bundle (see 'reshape-conform verify --help')");
    const char *path = argv[optind];
    if (access(path, R_OK) != 0)
        die(EXIT_USAGE, "cannot read bundle '%s'", path);
    bundle b;
    char *err = NULL;
    if (bundle_read(&b, path, &err)) {
        printf("problem: %s\ninvalid: '%s'\n", err, path);
        free(err);
        return EXIT_NONCONFORMANT;
    }
    checker k = {0};
    check_manifest(&k, &b);
    json_t *report = member_json(&k, &b, BUNDLE_REPORT), *suite = member_json(&k, &b, BUNDLE_SUITE);
    static const char *const required[] = {"report.xml", BUNDLE_HOST, BUNDLE_COMMAND};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        if (!bundle_get(&b, required[i]))
            problem(&k, "no member '%s'", required[i]);
    if (report && suite) {
        const char *rs = str_at(report, "suite", "cases_sha256"), *ss = str_at(suite, "cases_sha256", NULL);
        if (strcmp(rs, ss))
            problem(&k, "the report ran suite %.12s..., %s describes %.12s...", rs, BUNDLE_SUITE, ss);
        if (json_integer_value(json_object_get(json_object_get(report, "suite"), "case_files")) !=
            (json_int_t)json_array_size(json_object_get(suite, "case_files")))
            problem(&k, "the report and %s count different case files", BUNDLE_SUITE);
        check_options(&k, report);
        check_coverage(&k, report, suite);
    }
    const bundle_member *cm = bundle_get(&b, BUNDLE_CANDIDATE);
    if (!cm)
        problem(&k, "no member '%s'", BUNDLE_CANDIDATE);
    else if (!is_hex64((const char *)cm->data, cm->size))
        problem(&k, "member '%s' does not start with a sha256", BUNDLE_CANDIDATE);
    else if (report && strncmp((const char *)cm->data, str_at(report, "candidate", "sha256"), 64))
        problem(&k, "the report tested candidate %.12s..., %s names %.12s...",
                str_at(report, "candidate", "sha256"), BUNDLE_CANDIDATE, (const char *)cm->data);
    if (k.problems)
        printf("invalid: '%s': %d problem%s\n", path, k.problems, k.problems == 1 ? "" : "s");
    else
        printf("valid: '%s': %s %s, %s, %zu results over %zu mandatory cases, suite %.12s...\n",
               path, str_at(report, "candidate", "name"), str_at(report, "candidate", "version"),
               str_at(report, "verdict", NULL), json_array_size(json_object_get(report, "cases")),
               json_array_size(json_object_get(suite, "mandatory_ids")),
               str_at(report, "suite", "cases_sha256"));
    json_decref(report);
    json_decref(suite);
    bundle_free(&b);
    return k.problems ? EXIT_NONCONFORMANT : EXIT_CONFORMANT;
}
