/*
 * ground.h - the files a run stands on (the case files and folders, the
 * candidate, the reference, the harness binary and its workers' program,
 * the expectations and the baseline), hashed (SHA-256, libcrypto) before the first worker starts
 * and again when the last has ended: a file that changed under the run,
 * whatever changed it, fails the run (exit 3), so that even a hole in the
 * sandbox cannot pass silently.  Depends on host.c (sha256_file).
 */
#ifndef HARNESS_GROUND_H
#define HARNESS_GROUND_H

typedef struct ground_file {
    char *path;
    char sha256[65];            /* "" when it could not be read */
} ground_file;

typedef struct ground {
    ground_file *files;
    int nfiles;
    char **dirs;                /* case folders: no *.yaml may appear */
    int ndirs;
} ground;

/* Hashes the file at `path` now (once: a path added twice is kept once). */
void ground_add(ground *g, const char *path);

/* Keeps folder `dir`: every *.yaml below it (hidden entries aside, as the
 * suite loads them) must be one added with ground_add when checked. */
void ground_add_dir(ground *g, const char *dir);

/*
 * Hashes every file again and lists the folders again: NULL when nothing
 * changed, else a message naming the first file that changed, went or
 * appeared ("the file 'cases/x.yaml' changed during the run (sha256
 * 3f2a4c... before, 9c1b0d... after)").  New string.
 */
char *ground_changed(const ground *g);

void ground_free(ground *g);

#endif
