/*
 * signature.h - Ed25519 signatures over a bundle's manifest (RFC 8032,
 * through libcrypto's EVP_DigestSign/EVP_DigestVerify with no digest).
 * Keys are PEM files as `openssl genpkey -algorithm ed25519` writes them
 * (private) and `openssl pkey -pubout` (public).  A key's fingerprint is
 * "sha256:" and the lowercase hex SHA-256 of its DER SubjectPublicKeyInfo,
 * what `openssl pkey -pubin -outform DER | sha256sum` prints.  Depends on
 * libcrypto.
 */
#ifndef HARNESS_SIGNATURE_H
#define HARNESS_SIGNATURE_H

#include <stddef.h>

/* Bytes of an Ed25519 signature. */
#define SIG_BYTES 64
/* "sha256:" + 64 hex digits + NUL. */
#define SIG_FPR_SIZE 72

typedef struct sig_key sig_key;

/*
 * Reads the Ed25519 key in the PEM file at `path`: a private key when
 * `private` (for signing), else a public key (a private key file is
 * accepted too: its public half is used).  Returns the key, or NULL with
 * *err set (a new string): unreadable file, no PEM key, not Ed25519.
 */
sig_key *sig_key_read(const char *path, int private, char **err);

/* The public key of PEM text `pem` (`len` bytes), as signer.json holds
 * it; NULL with *err set when it is no Ed25519 public key. */
sig_key *sig_key_from_pem(const char *pem, size_t len, char **err);

/* The key's public half as PEM text ("-----BEGIN PUBLIC KEY-----...").
 * New string. */
char *sig_key_public_pem(const sig_key *k);

/* The key's fingerprint into out[SIG_FPR_SIZE]. */
void sig_key_fingerprint(const sig_key *k, char out[SIG_FPR_SIZE]);

/* Signs `len` bytes at `msg` with private key `k` into sig[SIG_BYTES].
 * Returns 0, or -1 with *err set. */
int sig_sign(const sig_key *k, const void *msg, size_t len, unsigned char sig[SIG_BYTES],
             char **err);

/* 1 when `sig` (`siglen` bytes) is k's signature of `msg`, else 0 (a
 * signature of another length is 0). */
int sig_verify(const sig_key *k, const void *msg, size_t len, const unsigned char *sig,
               size_t siglen);

void sig_key_free(sig_key *k);

#endif
