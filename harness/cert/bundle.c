/*
 * bundle.c - certification bundles in memory, written and read with
 * libarchive (bundle.h).  Depends on libarchive, libcrypto and util.h.
 */
#include "bundle.h"

#include <archive.h>
#include <archive_entry.h>
#include <ctype.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

void sha256_hex(const void *data, size_t size, char out[65])
{
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(data, size, d, &n, EVP_sha256(), NULL) || n != 32)
        die(EXIT_HARNESS, "cannot compute sha256");
    for (unsigned i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* The slug of `s` (bundle_name), appended to `b`. */
static void add_slug(strbuf *b, const char *s)
{
    size_t start = b->len;
    int gap = 0;
    for (; *s; s++) {
        char c = (char)tolower((unsigned char)*s);
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("._+", c)) {
            if (gap && b->len > start)
                sb_addf(b, "-");
            sb_addf(b, "%c", c);
            gap = 0;
        } else {
            gap = 1;
        }
    }
    size_t lo = start;
    while (lo < b->len && strchr("-._", b->s[lo]))
        lo++;
    while (b->len > lo && strchr("-._", b->s[b->len - 1]))
        b->len--;
    memmove(b->s + start, b->s + lo, b->len - lo);
    b->len -= lo - start;
    b->s[b->len] = '\0';
    if (b->len == start)
        sb_addf(b, "unnamed");
}

char *bundle_name(const char *name, const char *version)
{
    strbuf b;
    sb_init(&b);
    add_slug(&b, name);
    sb_addf(&b, "-");
    add_slug(&b, version);
    return sb_take(&b);
}

void bundle_add(bundle *b, const char *name, const void *data, size_t size)
{
    bundle_member *m = (bundle_member *)bundle_get(b, name);
    if (!m) {
        b->m = xrealloc(b->m, (size_t)(b->n + 1) * sizeof *b->m);
        m = &b->m[b->n++];
        m->name = xstrdup(name);
    } else {
        free(m->data);
    }
    m->data = xmalloc(size ? size : 1);
    memcpy(m->data, data, size);
    m->size = size;
}

int bundle_add_file(bundle *b, const char *name, const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        return -1;
    bundle_add(b, name, text, len);
    free(text);
    return 0;
}

const bundle_member *bundle_get(const bundle *b, const char *name)
{
    for (int i = 0; i < b->n; i++)
        if (!strcmp(b->m[i].name, name))
            return &b->m[i];
    return NULL;
}

static int cmp_member(const void *x, const void *y)
{
    return strcmp((*(const bundle_member *const *)x)->name, (*(const bundle_member *const *)y)->name);
}

/* The members sorted by name (pointers into b->m).  New array. */
static const bundle_member **sorted(const bundle *b)
{
    const bundle_member **v = xmalloc((size_t)(b->n ? b->n : 1) * sizeof *v);
    for (int i = 0; i < b->n; i++)
        v[i] = &b->m[i];
    qsort(v, (size_t)b->n, sizeof *v, cmp_member);
    return v;
}

char *bundle_manifest(const bundle *b)
{
    const bundle_member **v = sorted(b);
    strbuf s;
    sb_init(&s);
    for (int i = 0; i < b->n; i++) {
        if (!strcmp(v[i]->name, BUNDLE_MANIFEST) || !strcmp(v[i]->name, BUNDLE_SIGNATURE))
            continue;
        char hex[65];
        sha256_hex(v[i]->data, v[i]->size, hex);
        sb_addf(&s, "%s  %s\n", hex, v[i]->name);
    }
    free(v);
    return sb_take(&s);
}

int bundle_write(const bundle *b, const char *path, time_t mtime, char **err)
{
    char *tmp = xasprintf("%s.tmp", path);
    struct archive *a = archive_write_new();
    const bundle_member **v = sorted(b);
    int rc = -1;
    if (archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
        archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
        archive_write_open_filename(a, tmp) != ARCHIVE_OK)
        goto fail;
    for (int i = 0; i < b->n; i++) {
        struct archive_entry *e = archive_entry_new();
        char *name = xasprintf("%s/%s", b->top, v[i]->name);
        archive_entry_set_pathname(e, name);
        archive_entry_set_size(e, (la_int64_t)v[i]->size);
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_mtime(e, mtime, 0);
        int ok = archive_write_header(a, e) == ARCHIVE_OK &&
                 archive_write_data(a, v[i]->data, v[i]->size) == (la_ssize_t)v[i]->size;
        archive_entry_free(e);
        free(name);
        if (!ok)
            goto fail;
    }
    if (archive_write_close(a) != ARCHIVE_OK)
        goto fail;
    if (atomic_rename_synced(tmp, path) != 0) {
        *err = xasprintf("cannot write bundle '%s': %s", path, strerror(errno));
        remove(tmp);
        goto done;
    }
    rc = 0;
    goto done;
fail:
    *err = xasprintf("cannot write bundle '%s': %s", tmp,
                     archive_error_string(a) ? archive_error_string(a) : "unknown error");
    remove(tmp);
done:
    archive_write_free(a);
    free(v);
    free(tmp);
    return rc;
}

/* Reads the data of the current entry into a new buffer and its length
 * into *size; NULL when the archive is damaged. */
static unsigned char *read_data(struct archive *a, size_t *size)
{
    char buf[65536];
    la_ssize_t n;
    size_t total = 0;
    unsigned char *data = xmalloc(1);
    while ((n = archive_read_data(a, buf, sizeof buf)) > 0) {
        data = xrealloc(data, total + (size_t)n);
        memcpy(data + total, buf, (size_t)n);
        total += (size_t)n;
    }
    if (n < 0) {
        free(data);
        return NULL;
    }
    *size = total;
    return data;
}

int bundle_read(bundle *b, const char *path, char **err)
{
    memset(b, 0, sizeof *b);
    struct archive *a = archive_read_new();
    archive_read_support_filter_all(a);
    archive_read_support_format_all(a);
    struct archive_entry *e;
    int r;
    if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
        *err = xasprintf("bundle '%s' is damaged or no archive: %s", path, archive_error_string(a));
        archive_read_free(a);
        return -1;
    }
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        const char *name = archive_entry_pathname(e);
        if (archive_entry_filetype(e) == AE_IFDIR)
            continue;
        if (archive_entry_filetype(e) != AE_IFREG) {
            *err = xasprintf("bundle '%s' holds '%s', which is no regular file", path, name);
            goto fail;
        }
        const char *slash = strchr(name, '/');
        if (!slash || slash == name || !slash[1] || strchr(slash + 1, '/')) {
            *err = xasprintf("bundle '%s' holds '%s', not directly in one top folder", path, name);
            goto fail;
        }
        size_t toplen = (size_t)(slash - name);
        if (!b->top) {
            b->top = xasprintf("%.*s", (int)toplen, name);
        } else if (strlen(b->top) != toplen || strncmp(b->top, name, toplen)) {
            *err = xasprintf("bundle '%s' has two top folders, '%s' and '%.*s'", path, b->top,
                             (int)toplen, name);
            goto fail;
        }
        if (bundle_get(b, slash + 1)) {
            *err = xasprintf("bundle '%s' holds '%s' twice", path, name);
            goto fail;
        }
        size_t size;
        unsigned char *data = read_data(a, &size);
        if (!data) {
            *err = xasprintf("bundle '%s' is damaged at '%s': %s", path, name,
                             archive_error_string(a));
            goto fail;
        }
        b->m = xrealloc(b->m, (size_t)(b->n + 1) * sizeof *b->m);
        b->m[b->n++] = (bundle_member){xstrdup(slash + 1), data, size};
    }
    if (r != ARCHIVE_EOF) {
        *err = xasprintf("bundle '%s' is damaged or no archive: %s", path, archive_error_string(a));
        goto fail;
    }
    archive_read_free(a);
    return 0;
fail:
    archive_read_free(a);
    bundle_free(b);
    return -1;
}

void bundle_free(bundle *b)
{
    for (int i = 0; i < b->n; i++) {
        free(b->m[i].name);
        free(b->m[i].data);
    }
    free(b->m);
    free(b->top);
    memset(b, 0, sizeof *b);
}
