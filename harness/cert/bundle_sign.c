/*
 * bundle_sign.c - signing a bundle's manifest (`certify --sign`) and
 * checking the signature (`verify --key`); bundle_sign.h.  The signature
 * covers MANIFEST.sha256, which lists every other member, signer.json
 * included: so it vouches for every byte of the bundle.  Depends on
 * jansson, bundle.h, signature.h, verify.h.
 */
#include "bundle_sign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

void bundle_add_signer(bundle *b, const sig_key *key, const char *name)
{
    char fpr[SIG_FPR_SIZE];
    sig_key_fingerprint(key, fpr);
    char *pem = sig_key_public_pem(key);
    json_t *j = json_pack("{s:o, s:s, s:s}", "name", name ? json_string(name) : json_null(),
                          "fingerprint", fpr, "public_key", pem);
    free(pem);
    if (!j)
        die(EXIT_USAGE, "the signer's name is not UTF-8");
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (!text)
        die(EXIT_HARNESS, "cannot encode '%s'", BUNDLE_SIGNER);
    char *line = xasprintf("%s\n", text);
    bundle_add(b, BUNDLE_SIGNER, line, strlen(line));
    free(line);
    free(text);
}

void bundle_add_signature(bundle *b, const sig_key *key)
{
    const bundle_member *m = bundle_get(b, BUNDLE_MANIFEST);
    unsigned char sig[SIG_BYTES];
    char *err = NULL;
    if (!m)
        die(EXIT_HARNESS, "no manifest to sign");
    if (sig_sign(key, m->data, m->size, sig, &err))
        die(EXIT_HARNESS, "%s", err);
    bundle_add(b, BUNDLE_SIGNATURE, sig, sizeof sig);
}

/* signer.json's string field `key`, or NULL. */
static const char *field(json_t *signer, const char *key)
{
    return json_string_value(json_object_get(signer, key));
}

void signature_check(checker *k, const bundle *b, const sig_key *trusted, const char *key_path)
{
    const bundle_member *sig = bundle_get(b, BUNDLE_SIGNATURE),
                        *sm = bundle_get(b, BUNDLE_SIGNER), *man = bundle_get(b, BUNDLE_MANIFEST);
    if (!sig) {
        if (sm)
            verify_problem(k, "signature-missing", "%s names a signer, and there is no %s",
                           BUNDLE_SIGNER, BUNDLE_SIGNATURE);
        if (trusted)
            verify_problem(k, "signature-missing", "the bundle is unsigned, and --key '%s' asks "
                           "for a signature", key_path);
        else if (!sm)
            printf("unsigned: nothing says who vouched for this bundle\n");
        return;
    }
    json_t *signer = sm ? json_loadb((const char *)sm->data, sm->size, 0, NULL) : NULL;
    const char *pem = field(signer, "public_key"), *fpr = field(signer, "fingerprint");
    char *name = field(signer, "name") ? xstrdup(field(signer, "name")) : NULL;
    if (name)
        sanitize_text(name);    /* the bundle's claim, for a terminal */
    char *err = NULL;
    sig_key *named = pem ? sig_key_from_pem(pem, strlen(pem), &err) : NULL;
    free(err);
    char named_fpr[SIG_FPR_SIZE] = "";
    if (named)
        sig_key_fingerprint(named, named_fpr);
    if (!named || !fpr || strcmp(fpr, named_fpr)) {
        verify_problem(k, "signature-invalid", "%s does not hold an Ed25519 public key and its "
                       "fingerprint", BUNDLE_SIGNER);
    } else if (!man || !sig_verify(trusted ? trusted : named, man->data, man->size, sig->data,
                                   sig->size)) {
        char fp[SIG_FPR_SIZE];
        sig_key_fingerprint(trusted ? trusted : named, fp);
        verify_problem(k, "signature-invalid", "%s is not a signature of %s by key %s%s%s%s",
                       BUNDLE_SIGNATURE, BUNDLE_MANIFEST, fp, trusted ? " (--key)" : "",
                       trusted && strcmp(fp, named_fpr) ? "; the bundle names key " : "",
                       trusted && strcmp(fp, named_fpr) ? named_fpr : "");
    } else if (trusted) {
        printf("signed: by key %s (--key '%s')%s%s%s\n", named_fpr, key_path,
               name ? ", who calls itself '" : "", name ? name : "", name ? "'" : "");
    } else {
        printf("signed: by key %s%s%s%s, a key the bundle names itself: give --key PUB.pem to "
               "know who signed\n", named_fpr, name ? " ('" : "", name ? name : "",
               name ? "')" : "");
    }
    sig_key_free(named);
    json_decref(signer);
    free(name);
}
