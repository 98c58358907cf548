/*
 * case_set.c - finding case files, loading them all, rejecting duplicate
 * ids, and the digest of the suite.  Depends on case_load.c, case.c,
 * libcrypto (SHA-256) and libc.
 *
 * cases_sha256 is SHA-256 over, for each file in load order (each --cases
 * path in the order given, the files below a directory sorted by path),
 * "PATH\n" where PATH is relative to that --cases path, then the byte count
 * in decimal and "\n", then the file's bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "case.h"

typedef struct pathlist {
    char **v;
    int n;
} pathlist;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with_yaml(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && !strcmp(name + n - 5, ".yaml");
}

/* Appends every *.yaml below `dir` (recursively, hidden entries skipped). */
static void walk(case_set *set, const char *dir, pathlist *out)
{
    DIR *d = opendir(dir);
    if (!d) {
        case_set_error(set, dir, 0, 0, "cannot read directory '%s': %s", dir, strerror(errno));
        return;
    }
    pathlist here = {NULL, 0};
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        here.v = xrealloc(here.v, (size_t)(here.n + 1) * sizeof *here.v);
        here.v[here.n++] = path_join(dir, e->d_name);
    }
    closedir(d);
    qsort(here.v, (size_t)here.n, sizeof *here.v, cmp_str);
    for (int i = 0; i < here.n; i++) {
        struct stat st;
        if (stat(here.v[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            walk(set, here.v[i], out);
            free(here.v[i]);
        } else if (ends_with_yaml(here.v[i])) {
            out->v = xrealloc(out->v, (size_t)(out->n + 1) * sizeof *out->v);
            out->v[out->n++] = here.v[i];
        } else {
            free(here.v[i]);
        }
    }
    free(here.v);
}

typedef struct id_ref {
    const char *id;
    int index;
} id_ref;

static int cmp_id_ref(const void *a, const void *b)
{
    const id_ref *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void free_case(rcase *c)
{
    free(c->id);
    free(c->clause);
    free(c->quote);
    for (int i = 0; i < c->ntags; i++)
        free(c->tags[i]);
    free(c->tags);
    free(c->data.bytes);
    for (int i = 0; i < c->noutcomes; i++)
        free(c->outcomes[i].data.bytes);
    free(c->note);
}

/* The second and later cases with one id are load errors and are removed. */
static void reject_duplicates(case_set *set)
{
    id_ref *refs = xmalloc((size_t)set->ncases * sizeof *refs);
    char *drop = xcalloc((size_t)set->ncases, 1);
    for (int i = 0; i < set->ncases; i++)
        refs[i] = (id_ref){set->cases[i].id, i};
    qsort(refs, (size_t)set->ncases, sizeof *refs, cmp_id_ref);
    for (int i = 1; i < set->ncases; i++) {
        if (strcmp(refs[i].id, refs[i - 1].id))
            continue;
        int first = i - 1;
        while (first > 0 && !strcmp(refs[first - 1].id, refs[i].id))
            first--;
        const rcase *a = &set->cases[refs[first].index], *c = &set->cases[refs[i].index];
        case_set_error(set, c->file, c->line, c->column, "duplicate id '%s', first at %s:%d:%d",
                       c->id, a->file, a->line, a->column);
        drop[refs[i].index] = 1;
    }
    int n = 0;
    for (int i = 0; i < set->ncases; i++) {
        if (drop[i])
            free_case(&set->cases[i]);
        else if (n++ != i)
            set->cases[n - 1] = set->cases[i];
    }
    set->ncases = n;
    free(refs);
    free(drop);
}

/*
 * The case array (4 KiB a case) is never touched by a worker process:
 * leaving its pages out of forks makes forking a worker, and its end,
 * cheaper (page tables are copied and torn down page by page).
 */
static void keep_out_of_forks(const case_set *set)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)set->cases + page - 1) / page * page;
    uintptr_t hi = ((uintptr_t)(set->cases + set->ncases)) / page * page;
    if (hi > lo + 16 * page)
        madvise((void *)lo, hi - lo, MADV_DONTFORK);
}

void case_set_load(case_set *set, const char *const *paths, int npaths)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!md || !EVP_DigestInit_ex(md, EVP_sha256(), NULL))
        die(EXIT_HARNESS, "cannot initialize sha256");
    for (int p = 0; p < npaths; p++) {
        pathlist files = {NULL, 0};
        struct stat st;
        size_t rootlen = 0;
        if (stat(paths[p], &st) != 0) {
            case_set_error(set, paths[p], 0, 0, "cannot read cases '%s': %s", paths[p],
                           strerror(errno));
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            walk(set, paths[p], &files);
            rootlen = strlen(paths[p]) + 1;
        } else {
            files.v = xmalloc(sizeof *files.v);
            files.v[files.n++] = xstrdup(paths[p]);
            const char *slash = strrchr(paths[p], '/');
            rootlen = slash ? (size_t)(slash - paths[p]) + 1 : 0;
        }
        for (int i = 0; i < files.n; i++) {
            size_t len;
            char *text = read_file(files.v[i], &len);
            set->files = xrealloc(set->files, (size_t)(set->nfiles + 1) * sizeof *set->files);
            set->files[set->nfiles++] = files.v[i];
            if (!text) {
                case_set_error(set, files.v[i], 0, 0, "cannot read case file '%s': %s",
                               files.v[i], strerror(errno));
                continue;
            }
            char head[64];
            const char *rel = files.v[i] + rootlen;
            int hl = snprintf(head, sizeof head, "\n%zu\n", len);
            EVP_DigestUpdate(md, rel, strlen(rel));
            EVP_DigestUpdate(md, head, (size_t)hl);
            EVP_DigestUpdate(md, text, len);
            case_load_text(set, files.v[i], text, len);
            free(text);
        }
        free(files.v);
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;
    EVP_DigestFinal_ex(md, digest, &dlen);
    EVP_MD_CTX_free(md);
    for (unsigned i = 0; i < dlen && i < 32; i++)
        snprintf(set->cases_sha256 + 2 * i, 3, "%02x", digest[i]);
    reject_duplicates(set);
    keep_out_of_forks(set);
}

void case_set_free(case_set *set)
{
    for (int i = 0; i < set->ncases; i++)
        free_case(&set->cases[i]);
    free(set->cases);
    for (int i = 0; i < set->nerrors; i++) {
        free(set->errors[i].file);
        free(set->errors[i].message);
    }
    free(set->errors);
    for (int i = 0; i < set->nfiles; i++)
        free(set->files[i]);
    free(set->files);
    memset(set, 0, sizeof *set);
}
