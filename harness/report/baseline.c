/*
 * baseline.c - reading a previous JSON report for `--baseline`, `merge`
 * and `compare` (baseline.h).  OLD's entries are kept in a jansson object
 * keyed "id/variant" (ids are [a-z0-9_]+, so the key is unambiguous).
 * Files are read through zlib, so that a gzip'd report is read as well as
 * a plain one.  Depends on jansson, zlib and util.h.
 */
#include "baseline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/base.h"

static const char *get(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

char *baseline_read_file(const char *path, size_t *len, char **err)
{
    errno = 0;
    gzFile f = gzopen(path, "rb");
    if (!f) {
        *err = xstrdup(errno ? strerror(errno) : "out of memory");
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap + 1);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap + 1);
        }
        unsigned want = cap - n > (1u << 30) ? 1u << 30 : (unsigned)(cap - n);
        int got = gzread(f, buf + n, want);
        if (got < 0) {
            int zerr;
            const char *why = gzerror(f, &zerr);
            *err = xstrdup(zerr == Z_ERRNO ? strerror(errno) : why);
            gzclose(f);
            free(buf);
            return NULL;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    gzclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

json_t *report_load(const char *path, char **err)
{
    size_t len;
    char *why = NULL, *text = baseline_read_file(path, &len, &why);
    if (!text) {
        *err = xasprintf("cannot read report '%s': %s", path, why);
        free(why);
        return NULL;
    }
    json_error_t je;
    json_t *r = json_loadb(text, len, 0, &je);
    free(text);
    if (!r) {
        *err = xasprintf("%s:%d:%d: invalid json report: %s", path, je.line, je.column, je.text);
        return NULL;
    }
    json_int_t sv = json_integer_value(json_object_get(r, "schema_version"));
    if (sv != 1 || !json_is_array(json_object_get(r, "cases"))) {
        *err = xasprintf("'%s' is not a reshape-conform report of schema_version 1 (it has "
                         "schema_version %lld)", path, (long long)sv);
        json_decref(r);
        return NULL;
    }
    return r;
}

int baseline_load(baseline *b, const char *path, char **err)
{
    size_t len;
    char *why = NULL, *text = baseline_read_file(path, &len, &why);
    if (!text) {
        memset(b, 0, sizeof *b);
        *err = xasprintf("cannot read baseline report '%s': %s", path, why);
        free(why);
        return -1;
    }
    int rc = baseline_parse(b, path, text, len, err);
    free(text);
    return rc;
}

int baseline_parse(baseline *b, const char *path, const char *text, size_t len, char **err)
{
    memset(b, 0, sizeof *b);
    json_error_t je;
    json_t *r = json_loadb(text, len, 0, &je);
    if (!r) {
        *err = je.line > 0 ? xasprintf("invalid baseline report: %s %s:%d:%d", je.text, path,
                                       je.line, je.column)
                           : xasprintf("cannot read baseline report '%s': %s", path, je.text);
        return -1;
    }
    json_int_t sv = json_integer_value(json_object_get(r, "schema_version"));
    json_t *cases = json_object_get(r, "cases");
    if (sv != 1 || !json_is_array(cases)) {
        *err = xasprintf("baseline '%s' is not a reshape-conform report of schema_version 1",
                         path);
        json_decref(r);
        return -1;
    }
    b->old = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(cases, i, e) {
        const char *id = get(e, "id"), *v = get(e, "variant"), *vd = get(e, "verdict");
        if (!id || !v || !vd) {
            *err = xasprintf("baseline '%s': cases[%zu] lacks a string id, variant or verdict",
                             path, i);
            json_decref(r);
            baseline_free(b);
            return -1;
        }
        char *key = xasprintf("%s/%s", id, v);
        if (json_object_get(b->old, key)) {
            *err = xasprintf("baseline '%s': '%s' appears twice", path, key);
            free(key);
            json_decref(r);
            baseline_free(b);
            return -1;
        }
        json_object_set_new(b->old, key, json_string(vd));
        free(key);
    }
    json_decref(r);
    b->path = xstrdup(path);
    return 0;
}

void baseline_free(baseline *b)
{
    json_decref(b->old);
    free(b->path);
    memset(b, 0, sizeof *b);
}
