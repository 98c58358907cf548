/*
 * test_signature.c - signed bundles: `certify --sign` with a key made by
 * the openssl command, `verify --key` naming the signer by the fingerprint
 * openssl computes, `openssl pkeyutl` accepting our signature; and the
 * forgeries: another key, an edit after signing, a bundle signed again by
 * a forger, a signature removed, a --key for an unsigned bundle.  Each
 * caught with its named problem.
 */
#include "forge.h"

/* DIR/NAME.pem and DIR/NAME.pub.pem: a new Ed25519 key pair, made with
 * the openssl command as README says. */
static void keypair(const forge *f, const char *name)
{
    cr_assert_eq(sh_status("cd %s && openssl genpkey -algorithm ed25519 -out %s.pem 2>/dev/null && "
                    "openssl pkey -in %s.pem -pubout -out %s.pub.pem", f->dir, name, name, name), 0);
}

Test(signature, signatures_say_who_signed_and_catch_edits, .timeout = 120)
{
    forge f;
    forge_certify(&f, "good", BASIC);   /* unsigned, for the folder and keys */
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
    cr_assert_eq(sh_status("%s certify --candidate " CANDS "good.so --cases " BASIC " --out %s/out --quiet "
                    "--sign %s/vendor.pem --signer 'Vendor Kernels' >/dev/null 2>&1",
                    harness_bin(), f.dir, f.dir), 0);
    cr_assert_eq(sh_status("cd %s && openssl pkey -pubin -in vendor.pub.pem -outform DER | sha256sum "
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
    cr_expect_eq(sh_status("cd %s && rm -rf x && mkdir x && tar xzf %s -C x && cd x/harness-test-1 && "
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

Test(signature, certify_refuses_a_key_it_cannot_sign_with)
{
    forge f;
    forge_certify(&f, "good", BASIC);
    cr_assert_eq(sh_status("cd %s && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 "
                    "-out ec.pem 2>/dev/null", f.dir), 0);
    cr_expect_eq(sh_status("%s certify --candidate " CANDS "good.so --cases " BASIC " --out %s/o2 "
                    "--sign %s/ec.pem >%s/log 2>&1", harness_bin(), f.dir, f.dir, f.dir), 2);
    char log[128];
    snprintf(log, sizeof log, "%s/log", f.dir);
    char *out = slurp(log);
    HAS(out, "is a EC key, not Ed25519");
    free(out);
    cr_expect_neq(sh_status("test -e %s/o2", f.dir), 0, "no run, no output folder");
    cr_expect_eq(sh_status("%s certify --candidate " CANDS "good.so --out %s/o2 --signer me >/dev/null "
                    "2>&1", harness_bin(), f.dir), 2);
    cr_expect_eq(sh_status("%s verify %s --key %s/nonexistent.pem >/dev/null 2>&1", harness_bin(), f.path,
                    f.dir), 2);
    forge_free(&f);
}
