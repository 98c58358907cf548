/*
 * test_forgery.c - the forgeries of issue 19, made as a forger with this
 * repository would make them: the bundle read and written again with
 * libarchive (bundle.c), the report edited with jansson, the summary,
 * JUnit, Markdown and HTML made again with our own code (report_summarize,
 * report_write_junit, reports/render.py) and the manifest recomputed.
 * `verify` must name each: a flipped verdict, edited results, a dropped
 * variant, a swapped suite, a report from another candidate, a wrong or
 * missing signature.  What only a rerun can see (results edited and
 * everything made consistent) is caught by `verify --rerun`.
 */
#include "run_harness.h"

#include "bundle.h"
#include "bundle_sign.h"
#include "report.h"

typedef struct forge {
    char dir[64];
    char path[192];     /* the bundle certify wrote */
    char forged[192];   /* where forge_write puts the edited one */
    int code;           /* certify's exit status */
    bundle b;
} forge;

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs a shell command; returns its exit status. */
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "'%s' did not exit", cmd);
    return WEXITSTATUS(st);
}

/* A new folder for `f`, and the paths in it. */
static void forge_init(forge *f)
{
    memset(f, 0, sizeof *f);
    temp_template(f->dir, sizeof f->dir, "/tmp/harness-forge-");
    cr_assert(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/out/harness-test-1.tar.gz", f->dir);
    snprintf(f->forged, sizeof f->forged, "%s/forged.tar.gz", f->dir);
}

/* certify CANDS/`cand`.so over `cases` (with `extra` options) into a new
 * folder and reads the bundle into f->b. */
static void forge_certify(forge *f, const char *cand, const char *cases, const char *extra)
{
    forge_init(f);
    f->code = sh("%s certify --candidate " CANDS "%s.so --cases %s --out %s/out --quiet %s "
                 ">%s/log 2>&1", harness_bin(), cand, cases, f->dir, extra, f->dir);
    cr_assert(f->code <= 1, "certify exited %d", f->code);
    char *err = NULL;
    cr_assert_eq(bundle_read(&f->b, f->path, &err), 0, "%s", err);
}

static void forge_free(forge *f)
{
    bundle_free(&f->b);
    sh("rm -rf %s", f->dir);
}

static json_t *member(const bundle *b, const char *name)
{
    const bundle_member *m = bundle_get(b, name);
    cr_assert(m, "no %s", name);
    json_t *j = json_loadb((const char *)m->data, m->size, 0, NULL);
    cr_assert(j, "%s is no json", name);
    return j;
}

/* Replaces member `name` with `j` as certify writes it; takes `j`. */
static void put(bundle *b, const char *name, json_t *j)
{
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    bundle_add(b, name, text, strlen(text));
    free(text);
    json_decref(j);
}

/*
 * The thorough forger: `report` (taken) becomes report.json, report.xml,
 * report.md and report.html are rendered from it as `run` renders them,
 * and the manifest is recomputed.  A signature is left as it was.
 */
static void put_report(forge *f, json_t *report)
{
    char path[128];
    char *err = NULL;
    snprintf(path, sizeof path, "%s/report.xml", f->dir);
    cr_assert_eq(report_write_junit(report, path, &err), 0);
    cr_assert_eq(bundle_add_file(&f->b, "report.xml", path), 0);
    put(&f->b, "report.json", report);
    const bundle_member *m = bundle_get(&f->b, "report.json");
    snprintf(path, sizeof path, "%s/report.json", f->dir);
    FILE *out = fopen(path, "wb");
    cr_assert(out && fwrite(m->data, 1, m->size, out) == m->size && fclose(out) == 0);
    cr_assert_eq(sh("/usr/bin/python3 reports/render.py %s --out %s", path, f->dir), 0);
    static const char *const views[] = {"report.md", "report.html"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", f->dir, views[i]);
        cr_assert_eq(bundle_add_file(&f->b, views[i], path), 0);
    }
}

/* The manifest recomputed, and the bundle written to f->forged. */
static void forge_write(forge *f)
{
    char *m = bundle_manifest(&f->b), *err = NULL;
    bundle_add(&f->b, BUNDLE_MANIFEST, m, strlen(m));
    free(m);
    cr_assert_eq(bundle_write(&f->b, f->forged, 0, &err), 0, "%s", err);
}

/* Removes member `name` (when there). */
static void drop(bundle *b, const char *name)
{
    for (int i = 0; i < b->n; i++)
        if (!strcmp(b->m[i].name, name)) {
            free(b->m[i].name);
            free(b->m[i].data);
            b->m[i] = b->m[--b->n];
            return;
        }
}

/* `verify PATH ARGS`: exit status, stdout and stderr into *out. */
static int verify(const char *path, const char *args, char **out)
{
    char log[64];
    temp_template(log, sizeof log, "/tmp/harness-forge-v-");
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    int code = sh("%s verify %s %s >%s 2>&1", harness_bin(), path, args, log);
    *out = slurp(log);
    unlink(log);
    return code;
}

/* Every "verdict" of the report's entries that is `from` becomes `to`,
 * with the detail and got a pass has. */
static void set_verdicts(json_t *report, const char *from, const char *to)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(report, "cases"), i, e)
        if (!strcmp(json_string_value(json_object_get(e, "verdict")), from)) {
            json_object_set_new(e, "verdict", json_string(to));
            json_object_set_new(e, "detail", json_string(""));
            json_object_set(e, "got", json_object_get(e, "expected"));
        }
}

#define HAS(out, s) cr_expect(strstr(out, s), "no '%s' in:\n%s", s, out)

Test(forgery, a_flipped_verdict_is_verdict_mismatch, .timeout = 120)
{
    forge f;
    forge_certify(&f, "wrong_shape", BASIC, "");
    cr_assert_eq(f.code, 1);
    json_t *r = member(&f.b, "report.json");
    json_object_set_new(r, "verdict", json_string("conformant"));
    put_report(&f, r);
    forge_write(&f);
    char *out;
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: verdict-mismatch: the report says 'conformant'; its results make it "
             "'nonconformant' (7 count against conformance)\n");
    cr_expect_not(strstr(out, "manifest-mismatch"), "%s", out);
    free(out);
    forge_free(&f);
}

Test(forgery, edited_results_are_caught_by_what_they_imply_or_by_a_rerun, .timeout = 120)
{
    forge f;
    forge_certify(&f, "wrong_shape", BASIC, "");
    cr_assert_eq(f.code, 1);
    char *out;
    /* results edited, the rest left: the summary, matrices, views disagree */
    json_t *r = member(&f.b, "report.json");
    set_verdicts(r, "FAIL", "PASS");
    put(&f.b, "report.json", r);
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: verdict-mismatch: the report says 'nonconformant'; its results make it "
             "'conformant' (0 count against conformance)\n");
    HAS(out, "problem: summary-mismatch: the summary's 'PASS' is 52; the results give 59\n");
    HAS(out, "problem: matrix-mismatch: matrix 'op_clause' is not what the results give\n");
    HAS(out, "problem: junit-mismatch: report.xml is not what report.json renders");
    HAS(out, "problem: markdown-mismatch: report.md is not what report.json renders");
    HAS(out, "problem: html-mismatch: report.html is not what report.json renders");
    free(out);
    /* and everything made to agree: only the rerun shows it */
    r = member(&f.b, "report.json");
    report_summarize(r);
    put_report(&f, r);
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 0, "%s", out);
    HAS(out, "valid: '");
    free(out);
    cr_expect_eq(verify(f.forged, "--cases " BASIC " --rerun " CANDS "wrong_shape.so", &out), 1);
    HAS(out, "problem: rerun-verdict-mismatch: trigger_f32/dense: the bundle says PASS, the rerun "
             "FAIL: returned error INVALID_ARGUMENT, expected shape [4,6]\n");
    HAS(out, "rerun: '" CANDS "wrong_shape.so' (sha256 ");
    HAS(out, "59 results, verdicts differ from the bundle's\n");
    free(out);
    /* the bundle as certify wrote it is reproduced */
    cr_expect_eq(verify(f.path, "--cases " BASIC " --rerun " CANDS "wrong_shape.so", &out), 0,
                 "%s", out);
    HAS(out, "59 results, every verdict as the bundle says\n");
    free(out);
    forge_free(&f);
}

Test(forgery, a_dropped_variant_is_variant_missing, .timeout = 120)
{
    forge f;
    forge_certify(&f, "wrong_shape", BASIC, "");
    json_t *r = member(&f.b, "report.json"), *kept = json_array();
    size_t i;
    json_t *e;
    /* the strided_dst results, trigger_f32's among them, are gone */
    json_array_foreach(json_object_get(r, "cases"), i, e)
        if (strcmp(json_string_value(json_object_get(e, "variant")), "strided_dst"))
            json_array_append(kept, e);
    json_object_set_new(r, "cases", kept);
    report_summarize(r);
    put_report(&f, r);
    forge_write(&f);
    char *out;
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: variant-missing: trigger_f32/strided_dst applies and has no result\n");
    HAS(out, "problem: variant-missing: ok_big_f32/strided_dst applies and has no result\n");
    cr_expect_not(strstr(out, "verdict-mismatch"), "%s", out);
    free(out);
    forge_free(&f);
}

/* Copies the data set BASIC to DIR/suite with `sed` applied to its case
 * file; returns the folder. */
static const char *suite_copy(const forge *f, const char *sed, char *buf, size_t size)
{
    snprintf(buf, size, "%s/suite", f->dir);
    cr_assert_eq(sh("mkdir -p %s && sed %s " BASIC "/cases.yaml >%s/cases.yaml", buf, sed, buf), 0);
    return buf;
}

Test(forgery, a_swapped_suite_is_suite_digest_mismatch, .timeout = 120)
{
    forge f, real;
    forge_certify(&real, "good", BASIC, "");
    /* trigger_f32, the case wrong_shape fails, accepts its wrong shape in this
     * suite: the ids are the same, a case's text is not */
    char dir[128];
    forge_init(&f);
    suite_copy(&f, "-e 's/expect: {shape: \\[4, 6\\]}/expect: {any_of: [{shape: [6, 4]}, "
                   "{error: INVALID_ARGUMENT}], note: \"x\"}/'", dir, sizeof dir);
    cr_assert_eq(sh("%s certify --candidate " CANDS "wrong_shape.so --cases %s --out %s/out --quiet "
                    ">/dev/null 2>&1", harness_bin(), dir, f.dir), 0, "conformant on its own suite");
    char *err = NULL;
    cr_assert_eq(bundle_read(&f.b, f.path, &err), 0, "%s", err);
    char *out;
    cr_expect_eq(verify(f.path, "--cases " BASIC, &out), 1);
    HAS(out, "problem: suite-digest-mismatch: the report ran suite ");
    HAS(out, "problem: suite-digest-mismatch: suite.json describes suite ");
    free(out);
    /* the digests made the real suite's: the cases' own fields disagree */
    json_t *r = member(&f.b, "report.json"), *rs = member(&real.b, "report.json");
    json_object_set(json_object_get(r, "suite"), "cases_sha256",
                    json_object_get(json_object_get(rs, "suite"), "cases_sha256"));
    put_report(&f, r);
    json_decref(rs);
    put(&f.b, "suite.json", member(&real.b, "suite.json"));
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    cr_expect_not(strstr(out, "suite-digest-mismatch"), "%s", out);
    HAS(out, "problem: result-mismatch: trigger_f32/infer: its 'expected' is not the suite's");
    HAS(out, "problem: result-mismatch: trigger_f32/dense: its 'expected' is not the suite's");
    cr_expect_not(strstr(out, "verdict-mismatch"), "%s", out);
    free(out);
    forge_free(&f);
    forge_free(&real);
}

Test(forgery, a_report_from_another_candidate_is_candidate_mismatch, .timeout = 120)
{
    forge f, good;
    forge_certify(&f, "wrong_shape", BASIC, "");
    forge_certify(&good, "good", BASIC, "");
    put_report(&f, member(&good.b, "report.json"));
    forge_write(&f);
    char *out;
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: candidate-mismatch: the report tested candidate ");
    free(out);
    /* candidate.sha256 too: a whole bundle of good.so, which the rerun of
     * wrong_shape.so tells apart */
    const bundle_member *cm = bundle_get(&good.b, BUNDLE_CANDIDATE);
    bundle_add(&f.b, BUNDLE_CANDIDATE, cm->data, cm->size);
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC " --rerun " CANDS "wrong_shape.so", &out), 1);
    HAS(out, "problem: rerun-candidate-mismatch: '" CANDS "wrong_shape.so' has sha256 ");
    free(out);
    forge_free(&f);
    forge_free(&good);
}

/* DIR/NAME.pem and DIR/NAME.pub.pem: a new Ed25519 key pair, made with
 * the openssl command as README says. */
static void keypair(const forge *f, const char *name)
{
    cr_assert_eq(sh("cd %s && openssl genpkey -algorithm ed25519 -out %s.pem 2>/dev/null && "
                    "openssl pkey -in %s.pem -pubout -out %s.pub.pem", f->dir, name, name, name), 0);
}

Test(forgery, signatures_say_who_signed_and_catch_edits, .timeout = 120)
{
    forge f;
    forge_certify(&f, "good", BASIC, "");   /* unsigned, for the folder and keys */
    keypair(&f, "vendor");
    keypair(&f, "forger");
    char *out, args[512], fpr[256];
    cr_expect_eq(verify(f.path, "--cases " BASIC, &out), 0, "%s", out);
    HAS(out, "unsigned: nothing says who vouched for this bundle\n");
    free(out);
    snprintf(args, sizeof args, "--cases " BASIC " --key %s/vendor.pub.pem", f.dir);
    cr_expect_eq(verify(f.path, args, &out), 1);
    HAS(out, "problem: signature-missing: the bundle is unsigned, and --key ");
    free(out);

    /* signed by the vendor: --key names the key by openssl's fingerprint */
    cr_assert_eq(sh("%s certify --candidate " CANDS "good.so --cases " BASIC " --out %s/out --quiet "
                    "--sign %s/vendor.pem --signer 'Vendor Kernels' >/dev/null 2>&1",
                    harness_bin(), f.dir, f.dir), 0);
    cr_assert_eq(sh("cd %s && openssl pkey -pubin -in vendor.pub.pem -outform DER | sha256sum "
                    "| cut -c1-64 >fpr", f.dir), 0);
    snprintf(fpr, sizeof fpr, "%s/fpr", f.dir);
    char *hex = slurp(fpr);
    snprintf(fpr, sizeof fpr, "signed: by key sha256:%.64s (--key '%s/vendor.pub.pem'), who calls "
             "itself 'Vendor Kernels'\n", hex, f.dir);
    free(hex);
    cr_expect_eq(verify(f.path, args, &out), 0, "%s", out);
    HAS(out, fpr);
    HAS(out, "valid: '");
    free(out);
    /* openssl checks the signature as well */
    cr_expect_eq(sh("cd %s && rm -rf x && mkdir x && tar xzf %s -C x && cd x/harness-test-1 && "
                    "openssl pkeyutl -verify -pubin -inkey ../../vendor.pub.pem -rawin "
                    "-in MANIFEST.sha256 -sigfile MANIFEST.sig >/dev/null", f.dir, f.path), 0);
    /* another key */
    snprintf(args, sizeof args, "--cases " BASIC " --key %s/forger.pub.pem", f.dir);
    cr_expect_eq(verify(f.path, args, &out), 1);
    HAS(out, "problem: signature-invalid: MANIFEST.sig is not a signature of MANIFEST.sha256 by "
             "key sha256:");
    HAS(out, "; the bundle names key sha256:");
    free(out);

    /* an edit with the manifest recomputed: the signature no longer holds */
    bundle_free(&f.b);
    char *err = NULL;
    cr_assert_eq(bundle_read(&f.b, f.path, &err), 0, "%s", err);
    json_t *r = member(&f.b, "report.json");
    json_object_set_new(json_object_get(r, "host"), "cpu", json_string("a faster one"));
    put(&f.b, "report.json", r);
    forge_write(&f);
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1);
    HAS(out, "problem: signature-invalid: MANIFEST.sig is not a signature of MANIFEST.sha256 by "
             "key sha256:");
    free(out);
    /* ... signed again by the forger: whole, but not the vendor's */
    char key[128];
    snprintf(key, sizeof key, "%s/forger.pem", f.dir);
    sig_key *fk = sig_key_read(key, 1, &err);
    cr_assert(fk, "%s", err);
    bundle_add_signer(&f.b, fk, "Vendor Kernels");
    forge_write(&f);
    bundle_add_signature(&f.b, fk);
    sig_key_free(fk);
    cr_assert_eq(bundle_write(&f.b, f.forged, 0, &err), 0, "%s", err);
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 0, "%s", out);
    HAS(out, "a key the bundle names itself: give --key PUB.pem to know who signed\n");
    free(out);
    snprintf(args, sizeof args, "--cases " BASIC " --key %s/vendor.pub.pem", f.dir);
    cr_expect_eq(verify(f.forged, args, &out), 1);
    HAS(out, "problem: signature-invalid: ");
    free(out);
    /* ... or the signature removed */
    drop(&f.b, BUNDLE_SIGNATURE);
    cr_assert_eq(bundle_write(&f.b, f.forged, 0, &err), 0, "%s", err);
    cr_expect_eq(verify(f.forged, args, &out), 1);
    HAS(out, "problem: signature-missing: signer.json names a signer, and there is no MANIFEST.sig\n");
    free(out);
    forge_free(&f);
}

Test(forgery, certify_refuses_a_key_it_cannot_sign_with)
{
    forge f;
    forge_certify(&f, "good", BASIC, "");
    cr_assert_eq(sh("cd %s && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 "
                    "-out ec.pem 2>/dev/null", f.dir), 0);
    cr_expect_eq(sh("%s certify --candidate " CANDS "good.so --cases " BASIC " --out %s/o2 "
                    "--sign %s/ec.pem >%s/log 2>&1", harness_bin(), f.dir, f.dir, f.dir), 2);
    char log[128];
    snprintf(log, sizeof log, "%s/log", f.dir);
    char *out = slurp(log);
    HAS(out, "is a EC key, not Ed25519");
    free(out);
    cr_expect_neq(sh("test -e %s/o2", f.dir), 0, "no run, no output folder");
    cr_expect_eq(sh("%s certify --candidate " CANDS "good.so --out %s/o2 --signer me >/dev/null "
                    "2>&1", harness_bin(), f.dir), 2);
    cr_expect_eq(sh("%s verify %s --key %s/nonexistent.pem >/dev/null 2>&1", harness_bin(), f.path,
                    f.dir), 2);
    forge_free(&f);
}
