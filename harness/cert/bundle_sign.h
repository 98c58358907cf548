/*
 * bundle_sign.h - signed certification bundles
 * (docs/harness/certification.md, "Certification bundle", --sign).
 * `certify --sign KEY.pem [--signer NAME]` adds
 * signer.json ({"name": NAME or null, "fingerprint": "sha256:HEX",
 * "public_key": PEM}) before the manifest is computed, so the manifest
 * lists it, then MANIFEST.sig: the 64-byte Ed25519 signature of
 * MANIFEST.sha256's bytes, which `openssl pkeyutl -verify -rawin` checks as
 * well.  Depends on jansson, bundle.h, signature.h, verify.h.
 */
#ifndef HARNESS_BUNDLE_SIGN_H
#define HARNESS_BUNDLE_SIGN_H

#include "bundle.h"
#include "signature.h"
#include "verify.h"

/* Adds signer.json for private key `key` and the signer's `name` (NULL:
 * none).  Call before the manifest is computed.  Exits 2 when `name` is
 * not UTF-8. */
void bundle_add_signer(bundle *b, const sig_key *key, const char *name);

/* Adds MANIFEST.sig, the signature of member MANIFEST.sha256 by `key`.
 * Call after the manifest is added.  Exits 3 when signing fails. */
void bundle_add_signature(bundle *b, const sig_key *key);

/*
 * Checks the signature of bundle `b` and prints what it proves: with
 * `trusted` (the key of --key, read from `key_path`), MANIFEST.sig must
 * verify under it ("signed: by key sha256:... (--key ...)"); without, under
 * the key signer.json names, which proves only that the bundle is whole
 * ("... give --key PUB.pem to know who signed").  Problems:
 * "signature-missing" (--key and no signature, or signer.json without
 * MANIFEST.sig), "signature-invalid" (no valid signer.json, or a
 * signature that does not verify).  An unsigned bundle without --key
 * prints "unsigned: ..." and is no problem.
 */
void signature_check(checker *k, const bundle *b, const sig_key *trusted, const char *key_path);

#endif
