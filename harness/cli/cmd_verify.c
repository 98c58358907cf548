/*
 * cmd_verify.c - `reshape-conform verify BUNDLE.tar.gz`: checks a
 * certification bundle written by `certify` (bundle.h) and says what is
 * wrong with it, one named problem a line (verify.h).
 */
static const char verify_usage[] =
"usage: reshape-conform verify BUNDLE.tar.gz [--key PUB.pem] [--rerun X.so]\n"
"                              [--allow-system-updates] [--cases PATH] [--jobs N]\n"
"\n"
"  --key PUB.pem   the Ed25519 public key the bundle must be signed with\n"
"  --rerun X.so    run the suite again on X.so (its sha256 must be the\n"
"                  bundle's) with the recorded options; compare every verdict\n"
"                  and every shared object its workers load (libraries.sha256)\n"
"  --allow-system-updates  with --rerun: the C and C++ runtimes (libc, libm,\n"
"                  ld-linux, libstdc++, libgcc_s, ...) and the harness's own\n"
"                  libraries may differ from the bundle's (a note, no problem)\n"
"  --cases PATH    the suite to check against (default <srcdir>/cases)\n"
"  --jobs N        worker processes of --rerun (default: online cores)\n"
"  --help          this text\n"
"\n"
"Checks every member against MANIFEST.sha256; that the report ran this\n"
"suite (its digest computed again from the case files) with the\n"
"certification options; that every (case, variant) the suite plans has one\n"
"result whose fields are the case's; that the verdict, summary and matrices\n"
"are what the results give; that report.xml, report.md and report.html are\n"
"what report.json renders; that it tested the candidate candidate.sha256\n"
"names; that libraries.sha256 lists the report's libraries; and the\n"
"signature, if any.  Prints one 'problem: NAME: ...' line\n"
"per problem, then the outcome.  A signature says who vouched for the\n"
"bytes; only --rerun shows that the candidate gives these verdicts.\n"
"exit status: 0 valid, 1 invalid, 2 bad usage or unreadable file,\n"
"3 harness failure.\n";

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "judge/judge.h"
#include "run/run.h"
#include "report/report.h"
#include "cert/cert.h"
#include "cli.h"

static const struct option verify_options[] = {
    {"key", required_argument, NULL, 'k'},
    {"rerun", required_argument, NULL, 'r'},
    {"allow-system-updates", no_argument, NULL, 'a'},
    {"cases", required_argument, NULL, 's'},
    {"jobs", required_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

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

/* Every member against the manifest, and the manifest against the members
 * (all but itself and the signature of it). */
static void check_manifest(checker *k, const bundle *b)
{
    const bundle_member *m = bundle_get(b, BUNDLE_MANIFEST);
    if (!m) {
        verify_problem(k, "member-missing", "no member '%s'", BUNDLE_MANIFEST);
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
            verify_problem(k, "manifest-malformed", "line %d of %s is not 'SHA256  NAME'", lineno,
                           BUNDLE_MANIFEST);
            continue;
        }
        const char *name = l + 66;
        const bundle_member *x = bundle_get(b, name);
        if (!x) {
            verify_problem(k, "member-missing", "member '%s' listed in %s is missing", name,
                           BUNDLE_MANIFEST);
            continue;
        }
        listed[x - b->m] = 1;
        char hex[65];
        sha256_hex(x->data, x->size, hex);
        if (strncmp(hex, l, 64))
            verify_problem(k, "manifest-mismatch", "member '%s' does not match %s (sha256 "
                           "%.12s..., listed %.12s...)", name, BUNDLE_MANIFEST, hex, l);
    }
    for (int i = 0; i < b->n; i++)
        if (!listed[i] && strcmp(b->m[i].name, BUNDLE_MANIFEST) &&
            strcmp(b->m[i].name, BUNDLE_SIGNATURE))
            verify_problem(k, "member-unlisted", "member '%s' is not listed in %s", b->m[i].name,
                           BUNDLE_MANIFEST);
    free(listed);
    free(text);
}

/* Member `name` parsed as JSON, or NULL after a problem. */
static json_t *member_json(checker *k, const bundle *b, const char *name)
{
    const bundle_member *m = bundle_get(b, name);
    if (!m) {
        verify_problem(k, "member-missing", "no member '%s'", name);
        return NULL;
    }
    json_error_t je;
    json_t *j = json_loadb((const char *)m->data, m->size, 0, &je);
    if (!j)
        verify_problem(k, "json-malformed", "member '%s' is not json: %s at %d:%d", name, je.text,
                       je.line, je.column);
    return j;
}

/* The report ran with the options `certify` fixes, over valid case files. */
static void check_options(checker *k, json_t *report)
{
    json_t *o = json_object_get(report, "options");
    run_options d;
    options_defaults(&d, 0, NULL);
    if (!json_is_false(json_object_get(o, "strict_errors")))
        verify_problem(k, "options-mismatch", "the report ran with --strict-errors (certification "
                       "runs without)");
    if (strcmp(str_at(o, "shard", NULL), "1/1"))
        verify_problem(k, "options-mismatch", "the report is shard '%s', not the whole suite",
                       str_at(o, "shard", NULL));
    if (!json_is_null(json_object_get(o, "filter")) || json_array_size(json_object_get(o, "tags")) ||
        json_array_size(json_object_get(o, "ops")))
        verify_problem(k, "options-mismatch", "the report ran a selection (--filter, --tag or --op)");
    if (!json_is_null(json_object_get(o, "expectations")))
        verify_problem(k, "options-mismatch", "the report ran with expectations (waivers)");
    if (json_integer_value(json_object_get(o, "seed")) != (json_int_t)d.seed ||
        json_integer_value(json_object_get(o, "timeout_ms")) != d.timeout_ms ||
        json_integer_value(json_object_get(o, "max_bytes")) != (json_int_t)d.max_bytes ||
        strcmp(str_at(o, "isolation", NULL), "worker"))
        verify_problem(k, "options-mismatch", "the report ran with another seed, timeout, "
                       "max_bytes or isolation than certify's defaults");
    json_t *vs = json_object_get(o, "variants");
    for (int v = 0; v < V_COUNT; v++) {
        int found = 0;
        size_t i;
        json_t *x;
        json_array_foreach(vs, i, x)
            found |= !strcmp(json_string_value(x) ? json_string_value(x) : "",
                             variant_name((variant)v));
        if (!found)
            verify_problem(k, "options-mismatch", "the report did not run variant '%s'",
                           variant_name((variant)v));
    }
    json_int_t le = json_integer_value(json_object_get(json_object_get(report, "suite"), "load_errors"));
    if (le != 0 || json_array_size(json_object_get(report, "load_errors")))
        verify_problem(k, "load-errors", "the report has %lld load errors", (long long)le);
}

/*
 * The suite the bundle names against the verifier's own `set`: the report's
 * and suite.json's digests against the one computed from the case files,
 * each case file's hash, the mandatory ids.
 */
static void check_suite(checker *k, json_t *report, json_t *suite, const case_set *set,
                        const char *cases)
{
    const char *rs = str_at(report, "suite", "cases_sha256");
    const char *ss = str_at(suite, "cases_sha256", NULL);
    if (strcmp(rs, set->cases_sha256))
        verify_problem(k, "suite-digest-mismatch", "the report ran suite %.12s..., the suite at "
                       "'%s' is %.12s...", rs, cases, set->cases_sha256);
    if (strcmp(ss, set->cases_sha256))
        verify_problem(k, "suite-digest-mismatch", "%s describes suite %.12s..., the suite at "
                       "'%s' is %.12s...", BUNDLE_SUITE, ss, cases, set->cases_sha256);
    json_t *files = json_object_get(suite, "case_files"), *ids = json_object_get(suite, "mandatory_ids");
    if (json_integer_value(json_object_get(json_object_get(report, "suite"), "case_files")) !=
            set->nfiles || json_array_size(files) != (size_t)set->nfiles)
        verify_problem(k, "suite-digest-mismatch", "the report or %s counts other case files "
                       "than the %d of '%s'", BUNDLE_SUITE, set->nfiles, cases);
    int same = json_array_size(ids) == (size_t)set->ncases;
    for (int i = 0; same && i < set->ncases; i++)
        same = json_is_string(json_array_get(ids, (size_t)i)) &&
               !strcmp(json_string_value(json_array_get(ids, (size_t)i)), set->cases[i].id);
    if (!same)
        verify_problem(k, "suite-digest-mismatch", "the mandatory_ids of %s are not the %d case "
                       "ids of '%s'", BUNDLE_SUITE, set->ncases, cases);
}

/* The candidate the report tested is the one candidate.sha256 names. */
static void check_candidate(checker *k, const bundle *b, json_t *report)
{
    const bundle_member *cm = bundle_get(b, BUNDLE_CANDIDATE);
    if (!cm)
        verify_problem(k, "member-missing", "no member '%s'", BUNDLE_CANDIDATE);
    else if (!is_hex64((const char *)cm->data, cm->size))
        verify_problem(k, "candidate-mismatch", "member '%s' does not start with a sha256",
                       BUNDLE_CANDIDATE);
    else if (report && strncmp((const char *)cm->data, str_at(report, "candidate", "sha256"), 64))
        verify_problem(k, "candidate-mismatch", "the report tested candidate %.12s..., %s names "
                       "%.12s...", str_at(report, "candidate", "sha256"), BUNDLE_CANDIDATE,
                       (const char *)cm->data);
}

int cmd_verify(int argc, char **argv)
{
    const char *key_path = NULL, *rerun = NULL, *cases = NULL, *jobs = NULL;
    int c, allow_system = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", verify_options, NULL)) != -1) {
        switch (c) {
        case 'k': key_path = optarg; break;
        case 'r': rerun = optarg; break;
        case 'a': allow_system = 1; break;
        case 's': cases = optarg; break;
        case 'j': jobs = optarg; break;
        case 'h': cli_usage(verify_usage); return EXIT_CONFORMANT;
        case ':': die(EXIT_USAGE, "option '%s' needs a value", argv[optind - 1]);
        default: die(EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        die(EXIT_USAGE, "verify needs exactly one bundle (see 'reshape-conform verify --help')");
    const char *path = argv[optind];
    if (access(path, R_OK) != 0)
        die(EXIT_USAGE, "cannot read bundle '%s'", path);
    if (rerun && access(rerun, R_OK) != 0)
        die(EXIT_USAGE, "cannot read candidate '%s'", rerun);
    char *err = NULL;
    sig_key *trusted = NULL;
    if (key_path && !(trusted = sig_key_read(key_path, 0, &err)))
        die(EXIT_USAGE, "%s", err);
    char *default_cases = NULL;
    if (!cases) {
        char *abs = xasprintf("%s/cases", source_dir());
        cases = default_cases = path_from_cwd(abs);
        free(abs);
    }
    case_set set;
    memset(&set, 0, sizeof set);
    const char *paths[] = {cases};
    case_set_load(&set, paths, 1);
    if (set.nerrors)
        die(EXIT_USAGE, "the suite at '%s' has %d load errors (%s:%d: %s)", cases, set.nerrors,
            set.errors[0].file, set.errors[0].line, set.errors[0].message);

    bundle b;
    if (bundle_read(&b, path, &err)) {
        printf("problem: archive-damaged: %s\ninvalid: '%s'\n", err, path);
        free(err);
        case_set_free(&set);
        sig_key_free(trusted);
        free(default_cases);
        return EXIT_NONCONFORMANT;
    }
    checker k = {0};
    check_manifest(&k, &b);
    json_t *report = member_json(&k, &b, BUNDLE_REPORT), *suite = member_json(&k, &b, BUNDLE_SUITE);
    static const char *const required[] = {"report.xml", BUNDLE_HOST, BUNDLE_COMMAND};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        if (!bundle_get(&b, required[i]))
            verify_problem(&k, "member-missing", "no member '%s'", required[i]);
    if (report && suite)
        check_suite(&k, report, suite, &set, cases);
    if (report) {
        check_options(&k, report);
        rederive_check(&k, report, &set);
        views_check(&k, &b, report);
    }
    check_candidate(&k, &b, report);
    if (report)
        libraries_member_check(&k, &b, report);
    signature_check(&k, &b, trusted, key_path);
    if (report && rerun)
        rerun_check(&k, &b, report, rerun, cases, jobs, allow_system, argv[-1], path);
    if (k.problems)
        printf("invalid: '%s': %d problem%s\n", path, k.problems, k.problems == 1 ? "" : "s");
    else
        printf("valid: '%s': %s %s, %s, %zu results over %d mandatory cases, suite %.12s...\n",
               path, str_at(report, "candidate", "name"), str_at(report, "candidate", "version"),
               str_at(report, "verdict", NULL), json_array_size(json_object_get(report, "cases")),
               set.ncases, set.cases_sha256);
    json_decref(report);
    json_decref(suite);
    bundle_free(&b);
    case_set_free(&set);
    sig_key_free(trusted);
    free(default_cases);
    return k.problems ? EXIT_NONCONFORMANT : EXIT_CONFORMANT;
}
