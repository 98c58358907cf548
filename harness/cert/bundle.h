/*
 * bundle.h - the certification bundle (docs/harness/certification.md,
 * "Certification bundle"): a gzip-compressed tar archive whose members all
 * sit in one top folder "NAME-VERSION/", with MANIFEST.sha256 listing the
 * SHA-256 of
 * every other member in sha256sum's format ("HEX  NAME\n", sorted by name),
 * so that `sha256sum -c MANIFEST.sha256` also checks an unpacked bundle.
 * `certify` writes one (cmd_certify.c), `verify` checks one
 * (cmd_verify.c).  Depends on libarchive and libcrypto.
 */
#ifndef HARNESS_BUNDLE_H
#define HARNESS_BUNDLE_H

#include <stddef.h>
#include <time.h>

/* Member names. */
#define BUNDLE_MANIFEST "MANIFEST.sha256"
#define BUNDLE_REPORT "report.json"
#define BUNDLE_SUITE "suite.json"
#define BUNDLE_CANDIDATE "candidate.sha256"
#define BUNDLE_HOST "host.json"
#define BUNDLE_COMMAND "command.txt"
/* Every shared object the run's workers had mapped, "HEX  PATH" a line
 * (sha256sum's format: `sha256sum -c` checks them on the certifying host),
 * as the report's "libraries" lists them (libraries_check.c). */
#define BUNDLE_LIBRARIES "libraries.sha256"
/* A signed bundle's (bundle_sign.c): who signed, listed in the manifest,
 * and the Ed25519 signature of MANIFEST.sha256's bytes, the one member the
 * manifest does not list besides itself. */
#define BUNDLE_SIGNER "signer.json"
#define BUNDLE_SIGNATURE "MANIFEST.sig"

typedef struct bundle_member {
    char *name;                 /* below the top folder, no '/' */
    unsigned char *data;
    size_t size;
} bundle_member;

typedef struct bundle {
    char *top;                  /* the top folder, "NAME-VERSION" */
    bundle_member *m;
    int n;
} bundle;

/*
 * The bundle's top folder and file name (without ".tar.gz") for candidate
 * `name` and `version`: each made a slug (lowercase letters, digits and
 * ".", "_", "+" kept; every run of other bytes one "-"; "-", "." and "_"
 * trimmed at both ends; "unnamed" when nothing is left), joined by "-":
 * "Arm NN Reshape (CpuRef)", "20.08" gives "arm-nn-reshape-cpuref-20.08".
 * A new string.
 */
char *bundle_name(const char *name, const char *version);

/* Lowercase hex SHA-256 of `size` bytes at `data` into out[65]. */
void sha256_hex(const void *data, size_t size, char out[65]);

/* Adds a copy of `size` bytes as member `name` (replacing one so named). */
void bundle_add(bundle *b, const char *name, const void *data, size_t size);
/* Adds the file at `path` as member `name`; 0, or -1 with errno set. */
int bundle_add_file(bundle *b, const char *name, const char *path);
/* The member named `name`, or NULL. */
const bundle_member *bundle_get(const bundle *b, const char *name);

/* The text of MANIFEST.sha256 over every member but the manifest itself
 * and its signature.  New string. */
char *bundle_manifest(const bundle *b);

/*
 * Writes `b` as a .tar.gz at `path` (through PATH.tmp, renamed), members
 * sorted by name under b->top, mode 0644, modification time `mtime`.
 * Returns 0, or -1 with *err set (a new string).
 */
int bundle_write(const bundle *b, const char *path, time_t mtime, char **err);

/*
 * Reads the archive at `path` (any format and compression libarchive
 * knows) into `b`.  Every regular file must lie directly in one top folder;
 * folder entries are skipped.  Returns 0, or -1 with *err set: not an
 * archive, a damaged one, another kind of entry (link, device), a member
 * outside the top folder or nested deeper, a member twice.
 */
int bundle_read(bundle *b, const char *path, char **err);

void bundle_free(bundle *b);

#endif
