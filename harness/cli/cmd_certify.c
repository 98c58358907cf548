/*
 * cmd_certify.c - `reshape-conform certify --candidate X.so --out DIR`: the
 * full mandatory run with fixed options, packed with its evidence into one
 * bundle DIR/NAME-VERSION.tar.gz (bundle.h, docs/harness/certification.md).
 */
static const char certify_usage[] =
"usage: reshape-conform certify --candidate X.so --out DIR [--jobs N] [--perf[=SIZE]]\n"
"                               [--sign KEY.pem [--signer NAME]] [--quiet]\n"
"                               [--sandbox-allow PATH] [--sandbox-allow-write PATH]\n"
"\n"
"  --candidate PATH  the candidate .so (required)\n"
"  --out DIR         where NAME-VERSION.tar.gz goes (created if missing; the\n"
"                    candidate's name and version as a lowercase slug)\n"
"  --jobs N          worker processes (default: online cores)\n"
"  --cases PATH      another suite than <srcdir>/cases, for testing the\n"
"                    bundle itself; the bundle records which suite ran\n"
"  --perf[=SIZE]     also measure the performance profile (reshape-conform\n"
"                    perf, every op, sizes up to SIZE or perf's default)\n"
"                    into perf.json, perf.md and perf.html\n"
"  --sign KEY.pem    sign the manifest with this Ed25519 private key\n"
"                    ('openssl genpkey -algorithm ed25519 -out KEY.pem')\n"
"  --signer NAME     who signs, recorded in the bundle beside the key\n"
"  --sandbox-allow PATH  let the candidate read PATH too (repeatable;\n"
"                    recorded, verify --rerun allows it again)\n"
"  --sandbox-allow-write PATH  let it change PATH too (repeatable)\n"
"  --quiet           no progress lines\n"
"  --help            this text\n"
"\n"
"Runs every case of the suite in every variant that applies, with the\n"
"default timeout, seed and max-bytes, no --strict-errors, no expectations,\n"
"and --libraries.  The candidate runs confined as in a run, and neither the\n"
"key nor DIR is open to it.  Then writes report.json, report.xml, report.md\n"
"and report.html (when the renderer is there), command.txt, suite.json,\n"
"candidate.sha256, libraries.sha256 (every shared object the workers had\n"
"mapped), host.json and MANIFEST.sha256 into the bundle; with --sign also\n"
"signer.json and MANIFEST.sig.  Check it with 'reshape-conform verify'.\n"
"exit status: 0 conformant, 1 not conformant (a bundle is written for both),\n"
"2 bad usage or invalid case files, 3 harness failure (no bundle).\n";

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "suite/suite.h"
#include "report/report.h"
#include "cert/cert.h"
#include "perf/perf.h"
#include "cli.h"
#include "run_sandbox.h"

static const struct option certify_options[] = {
    {"candidate", required_argument, NULL, 'c'},
    {"out", required_argument, NULL, 'o'},
    {"jobs", required_argument, NULL, 'j'},
    {"cases", required_argument, NULL, 's'},
    {"quiet", no_argument, NULL, 'q'},
    {"perf", optional_argument, NULL, 'p'},
    {"sign", required_argument, NULL, 'k'},
    {"signer", required_argument, NULL, 'n'},
    {"sandbox-allow", required_argument, NULL, 'a'},
    {"sandbox-allow-write", required_argument, NULL, 'w'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* `argv` as one shell command line: words outside a safe set in single
 * quotes.  New string. */
static char *shell_line(int argc, char **argv)
{
    strbuf b;
    sb_init(&b);
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        if (i)
            sb_addf(&b, " ");
        if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                            "_./=:,+-@%") == strlen(w)) {
            sb_addf(&b, "%s", w);
            continue;
        }
        sb_addf(&b, "'");
        for (; *w; w++)
            sb_addf(&b, *w == '\'' ? "'\\''" : "%c", *w);
        sb_addf(&b, "'");
    }
    sb_addf(&b, "\n");
    return sb_take(&b);
}

/* The run's files: the first two always, the others when they were made. */
static const char *const report_files[] = {"report.json", "report.xml", "report.md",
                                            "report.html", "perf.json", "perf.md", "perf.html"};

/* Removes the run's folder: the report files, then the folder itself. */
static void remove_work(const char *work)
{
    for (size_t i = 0; i < sizeof report_files / sizeof *report_files; i++) {
        char *p = xasprintf("%s/%s", work, report_files[i]);
        remove(p);
        free(p);
    }
    if (rmdir(work) != 0)
        warn("cannot remove '%s': %s", work, strerror(errno));
}

static const char *str_at(json_t *o, const char *a, const char *b)
{
    const char *s = json_string_value(json_object_get(json_object_get(o, a), b));
    return s ? s : "";
}

/*
 * suite.json: the suite's version, commit and digest, each case file
 * (path relative to its --cases argument) with its SHA-256, and the
 * mandatory ids (every case loaded, in load order).
 */
static json_t *suite_json(const case_set *set, const char *cases_root, const char *commit)
{
    json_t *files = json_array(), *ids = json_array();
    size_t rootlen = strlen(cases_root);
    for (int i = 0; i < set->nfiles; i++) {
        const char *f = set->files[i];
        const char *rel = !strncmp(f, cases_root, rootlen) && f[rootlen] == '/' ? f + rootlen + 1
                                                                                : f;
        char hex[65];
        if (sha256_file(f, hex) != 0)
            die(EXIT_HARNESS, "cannot read case file '%s': %s", f, strerror(errno));
        json_array_append_new(files, json_pack("{s:s, s:s}", "path", rel, "sha256", hex));
    }
    for (int i = 0; i < set->ncases; i++)
        json_array_append_new(ids, json_string(set->cases[i].id));
    return json_pack("{s:s, s:s, s:s, s:o, s:o}", "version", SUITE_VERSION, "git_commit", commit,
                     "cases_sha256", set->cases_sha256, "case_files", files, "mandatory_ids", ids);
}

static void add_json(bundle *b, const char *name, json_t *j)
{
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    if (!text)
        die(EXIT_HARNESS, "cannot encode '%s'", name);
    size_t n = strlen(text);
    text = xrealloc(text, n + 2);
    text[n] = '\n';
    bundle_add(b, name, text, n + 1);
    free(text);
    json_decref(j);
}

/* `reshape-conform perf` with its defaults into WORK/perf.json, .md and
 * .html, its workers confined as `spec` says; a candidate that cannot be
 * loaded leaves them out. */
static void measure_perf(const char *cand, uint64_t max_bytes, const char *work, int quiet,
                         const sandbox_spec *spec)
{
    perf_config c = {((1u << RESHAPE_OP_COUNT) - 1) << 1, max_bytes, 0.25, PERF_POINT_BUDGET_S,
                     0 /* a bundle's profile is whole: no --budget */};
    char *err = NULL, real[PATH_MAX];
    sandbox_policy *sb = run_sandbox_policy(realpath(cand, real) ? real : cand, spec);
    sandbox_summary seen;
    json_t *profile = perf_profile(cand, &c, 60, quiet, sb, &seen, &err);
    if (profile)
        json_object_set_new(json_object_get(profile, "host"), "sandbox",
                            run_sandbox_json(&seen, sb));
    run_sandbox_end(sb);
    if (!profile) {
        warn("no performance profile: %s", err);
        free(err);
        return;
    }
    char *path = xasprintf("%s/perf.json", work);
    if (report_write_json(profile, path, &err))
        die(EXIT_HARNESS, "%s", err);
    report_render("render_perf.py", path, work);
    json_decref(profile);
    free(path);
}

int cmd_certify(int argc, char **argv)
{
    const char *cand = NULL, *out = NULL, *jobs = NULL, *cases = NULL, *key_path = NULL,
               *signer = NULL, *allow[16], *allow_write[16];
    int nallow = 0, nallow_write = 0;
    int quiet = 0, perf = 0, c;
    uint64_t perf_max = perf_default_max_bytes();
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", certify_options, NULL)) != -1) {
        switch (c) {
        case 'c': cand = optarg; break;
        case 'o': out = optarg; break;
        case 'j': jobs = optarg; break;
        case 's': cases = optarg; break;
        case 'q': quiet = 1; break;
        case 'p':
            perf = 1;
            if (optarg && (perf_parse_size(optarg, &perf_max) || perf_max < 4096))
                die(EXIT_USAGE, "'--perf' wants a size of at least 4K, not '%s'", optarg);
            break;
        case 'k': key_path = optarg; break;
        case 'n': signer = optarg; break;
        case 'a':
            if (nallow == 16)
                die(EXIT_USAGE, "at most 16 '--sandbox-allow'");
            allow[nallow++] = optarg;
            break;
        case 'w':
            if (nallow_write == 16)
                die(EXIT_USAGE, "at most 16 '--sandbox-allow-write'");
            allow_write[nallow_write++] = optarg;
            break;
        case 'h': cli_usage(certify_usage); return EXIT_CONFORMANT;
        case ':': die(EXIT_USAGE, "option '%s' needs a value", argv[optind - 1]);
        default: die(EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
    if (!cand || !out)
        die(EXIT_USAGE, "certify needs '--candidate X.so' and '--out DIR'");
    if (signer && !key_path)
        die(EXIT_USAGE, "'--signer NAME' needs '--sign KEY.pem'");
    /* the key is read before the run: a wrong one costs no run */
    sig_key *key = NULL;
    char *key_err = NULL;
    if (key_path && !(key = sig_key_read(key_path, 1, &key_err)))
        die(EXIT_USAGE, "%s", key_err);
    char *default_cases = NULL;
    if (!cases) {
        char *abs = xasprintf("%s/cases", source_dir());
        cases = default_cases = path_from_cwd(abs);
        free(abs);
    }
    if (access(cand, R_OK) != 0)
        die(EXIT_HARNESS, "cannot read candidate '%s': %s", cand, strerror(errno));
    if (mkdir(out, 0777) != 0 && errno != EEXIST)
        die(EXIT_HARNESS, "cannot create '%s': %s", out, strerror(errno));
    /* the run's reports go to a folder of their own below $TMPDIR (a
     * harness failure ends the process and leaves it there, not in DIR);
     * mkdtemp's template ends in six placeholder characters */
    const char *tmpdir = getenv("TMPDIR");
    char *work = xasprintf("%s/reshape-certify-%c%c%c%c%c%c", tmpdir && *tmpdir ? tmpdir : "/tmp",
                           'X', 'X', 'X', 'X', 'X', 'X');
    if (!mkdtemp(work))
        die(EXIT_HARNESS, "cannot create a folder for the run '%s': %s", work, strerror(errno));

    /* the run, with the fixed options; the key and DIR are secrets */
    char *run_argv[96];
    int n = 0;
    /* main() passed argv + 1: argv[-1] is the program as typed */
    run_argv[n++] = argv[-1];
    run_argv[n++] = "--candidate";
    run_argv[n++] = (char *)cand;
    run_argv[n++] = "--cases";
    run_argv[n++] = (char *)cases;
    run_argv[n++] = "--variants";
    run_argv[n++] = "all";
    run_argv[n++] = "--report-dir";
    run_argv[n++] = work;
    run_argv[n++] = "--libraries";
    if (jobs) {
        run_argv[n++] = "--jobs";
        run_argv[n++] = (char *)jobs;
    }
    if (quiet)
        run_argv[n++] = "--quiet";
    const char *deny[] = {out, key_path ? key_path : out, cases, work};
    for (int i = 0; i < 2; i++) {
        run_argv[n++] = "--sandbox-deny";
        run_argv[n++] = (char *)deny[i];
    }
    for (int i = 0; i < nallow; i++) {
        run_argv[n++] = "--sandbox-allow";
        run_argv[n++] = (char *)allow[i];
    }
    for (int i = 0; i < nallow_write; i++) {
        run_argv[n++] = "--sandbox-allow-write";
        run_argv[n++] = (char *)allow_write[i];
    }
    run_argv[n] = NULL;
    time_t started = time(NULL);
    int code = run_main(n, run_argv, 0);
    if (code > EXIT_NONCONFORMANT) {
        remove_work(work);
        die(code, "no bundle: the run ended with exit status %d", code);
    }

    if (perf) {
        sandbox_spec spec = {allow, nallow, allow_write, nallow_write, deny, 4, 0};
        measure_perf(cand, perf_max, work, quiet, &spec);
    }

    bundle b;
    memset(&b, 0, sizeof b);
    /* json and xml always; md and html when the renderer is there */
    for (size_t i = 0; i < sizeof report_files / sizeof *report_files; i++) {
        char *p = xasprintf("%s/%s", work, report_files[i]);
        if (bundle_add_file(&b, report_files[i], p) != 0 && i < 2)
            die(EXIT_HARNESS, "cannot read '%s': %s", p, strerror(errno));
        free(p);
    }
    remove_work(work);
    const bundle_member *rm = bundle_get(&b, BUNDLE_REPORT);
    json_error_t je;
    json_t *report = json_loadb((const char *)rm->data, rm->size, 0, &je);
    if (!report)
        die(EXIT_HARNESS, "cannot read the run's report: %s", je.text);

    case_set set;
    memset(&set, 0, sizeof set);
    const char *paths[] = {cases};
    case_set_load(&set, paths, 1);
    if (strcmp(set.cases_sha256, str_at(report, "suite", "cases_sha256")))
        die(EXIT_HARNESS, "the case files in '%s' changed during the run", cases);
    add_json(&b, BUNDLE_SUITE, suite_json(&set, cases, str_at(report, "suite", "git_commit")));
    case_set_free(&set);
    add_json(&b, BUNDLE_HOST, host_info());
    /* a candidate that did not load mapped nothing to pin; any other run
     * without its libraries would certify less than it says */
    char *libs = libraries_manifest(report);
    const char *got = json_string_value(
        json_object_get(json_array_get(json_object_get(report, "cases"), 0), "got"));
    if (libs)
        bundle_add(&b, BUNDLE_LIBRARIES, libs, strlen(libs));
    else if (!got || strcmp(got, "load failure"))
        die(EXIT_HARNESS, "no bundle: the run recorded no libraries (its warning says why)");
    free(libs);
    const char *slash = strrchr(cand, '/');
    char *line = xasprintf("%s  %s\n", str_at(report, "candidate", "sha256"), slash ? slash + 1 : cand);
    bundle_add(&b, BUNDLE_CANDIDATE, line, strlen(line));
    free(line);
    line = shell_line(argc + 1, argv - 1);     /* the program, "certify", the options */
    bundle_add(&b, BUNDLE_COMMAND, line, strlen(line));
    free(line);
    if (key)
        bundle_add_signer(&b, key, signer);
    char *manifest = bundle_manifest(&b);
    bundle_add(&b, BUNDLE_MANIFEST, manifest, strlen(manifest));
    free(manifest);
    if (key)
        bundle_add_signature(&b, key);
    sig_key_free(key);

    b.top = bundle_name(str_at(report, "candidate", "name"), str_at(report, "candidate", "version"));
    char *file = xasprintf("%s.tar.gz", b.top);
    char *path = path_join(out, file);
    free(file);
    char *err = NULL;
    if (bundle_write(&b, path, started, &err))
        die(EXIT_HARNESS, "%s", err);
    printf("certify: wrote '%s' (%s, %zu results, %d members)\n", path,
           json_string_value(json_object_get(report, "verdict")),
           json_array_size(json_object_get(report, "cases")), b.n);
    json_decref(report);
    bundle_free(&b);
    free(path);
    free(work);
    free(default_cases);
    return code;
}
