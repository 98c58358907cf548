/*
 * signature.c - Ed25519 keys, signing and checking with libcrypto
 * (signature.h).  Depends on libcrypto, bundle.h (sha256_hex), util.h.
 */
#include "signature.h"

#include <errno.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "bundle.h"

struct sig_key {
    EVP_PKEY *pkey;
    int private;
};

/* Wraps `pkey` after checking it is Ed25519; frees it and sets *err when
 * not. */
static sig_key *wrap(EVP_PKEY *pkey, int private, const char *what, char **err)
{
    ERR_clear_error();
    if (!pkey) {
        *err = xasprintf("%s holds no PEM %s key", what, private ? "private" : "public");
        return NULL;
    }
    if (EVP_PKEY_get_id(pkey) != EVP_PKEY_ED25519) {
        *err = xasprintf("%s is a %s key, not Ed25519 (make one with 'openssl genpkey "
                         "-algorithm ed25519')", what, EVP_PKEY_get0_type_name(pkey));
        EVP_PKEY_free(pkey);
        return NULL;
    }
    sig_key *k = xmalloc(sizeof *k);
    k->pkey = pkey;
    k->private = private;
    return k;
}

sig_key *sig_key_read(const char *path, int private, char **err)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        *err = xasprintf("cannot read key '%s': %s", path, strerror(errno));
        return NULL;
    }
    BIO *bio = BIO_new_mem_buf(text, (int)len);
    EVP_PKEY *pkey = NULL;
    if (!private)
        pkey = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
    if (!pkey) {
        /* a private key file gives its public half too */
        BIO_free(bio);
        bio = BIO_new_mem_buf(text, (int)len);
        pkey = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    }
    BIO_free(bio);
    free(text);
    char *what = xasprintf("key '%s'", path);
    sig_key *k = wrap(pkey, private, what, err);
    free(what);
    return k;
}

sig_key *sig_key_from_pem(const char *pem, size_t len, char **err)
{
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    EVP_PKEY *pkey = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return wrap(pkey, 0, "the text", err);
}

char *sig_key_public_pem(const sig_key *k)
{
    BIO *bio = BIO_new(BIO_s_mem());
    if (!bio || PEM_write_bio_PUBKEY(bio, k->pkey) != 1)
        die(EXIT_HARNESS, "cannot encode a public key");
    char *data;
    long n = BIO_get_mem_data(bio, &data);
    char *pem = xmalloc((size_t)n + 1);
    memcpy(pem, data, (size_t)n);
    pem[n] = '\0';
    BIO_free(bio);
    return pem;
}

void sig_key_fingerprint(const sig_key *k, char out[SIG_FPR_SIZE])
{
    unsigned char *der = NULL;
    int n = i2d_PUBKEY(k->pkey, &der);
    if (n <= 0)
        die(EXIT_HARNESS, "cannot encode a public key");
    char hex[65];
    sha256_hex(der, (size_t)n, hex);
    OPENSSL_free(der);
    snprintf(out, SIG_FPR_SIZE, "sha256:%s", hex);
}

int sig_sign(const sig_key *k, const void *msg, size_t len, unsigned char sig[SIG_BYTES],
             char **err)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t n = SIG_BYTES;
    int ok = k->private && ctx && EVP_DigestSignInit(ctx, NULL, NULL, NULL, k->pkey) == 1 &&
             EVP_DigestSign(ctx, sig, &n, msg, len) == 1 && n == SIG_BYTES;
    EVP_MD_CTX_free(ctx);
    ERR_clear_error();
    if (!ok) {
        *err = xasprintf(k->private ? "cannot sign with the key" : "signing needs a private key");
        return -1;
    }
    return 0;
}

int sig_verify(const sig_key *k, const void *msg, size_t len, const unsigned char *sig,
               size_t siglen)
{
    if (siglen != SIG_BYTES)
        return 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, k->pkey) == 1 &&
             EVP_DigestVerify(ctx, sig, siglen, msg, len) == 1;
    EVP_MD_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

void sig_key_free(sig_key *k)
{
    if (!k)
        return;
    EVP_PKEY_free(k->pkey);
    free(k);
}
