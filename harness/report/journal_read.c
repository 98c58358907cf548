/*
 * journal_read.c - reading a journal back (journal.h): the header, every
 * entry, a torn last line.  A pure parser over a buffer (the fuzz target
 * tests/fuzz/fuzz_journal.c feeds it), then journal_load over a file.
 * Depends on jansson, job.h, util.h.
 */
#include "journal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* Nonzero when `s` is 64 lowercase hex digits. */
static int is_sha256(const char *s)
{
    if (!s || strlen(s) != 64)
        return 0;
    for (int i = 0; i < 64; i++)
        if (!strchr("0123456789abcdef", s[i]))
            return 0;
    return 1;
}

/* What is wrong with header `h`, or NULL when nothing is. */
static const char *header_problem(json_t *h)
{
    if (!json_is_object(h))
        return "the header is not a JSON object";
    const char *magic = str(h, "journal");
    if (!magic || strcmp(magic, "reshape-conform"))
        return "not a reshape-conform journal (no \"journal\": \"reshape-conform\")";
    json_t *ver = json_object_get(h, "journal_version");
    if (!json_is_integer(ver) || json_integer_value(ver) != JOURNAL_VERSION)
        return "journal_version is not 1";
    if (!is_sha256(str(h, "candidate_sha256")) || !is_sha256(str(h, "cases_sha256")))
        return "candidate_sha256 or cases_sha256 is not a SHA-256 in hex";
    if (!str(h, "started_utc"))
        return "started_utc is not a string";
    json_t *o = json_object_get(h, "options"), *argv = json_object_get(o, "argv");
    if (!json_is_object(o) || !json_is_array(argv) || json_array_size(argv) < 1)
        return "options is not an object with a non-empty argv";
    size_t i;
    json_t *a;
    json_array_foreach(argv, i, a) {
        if (!json_is_string(a))
            return "options.argv holds a value that is not a string";
    }
    return NULL;
}

/* Fills `e` from entry object `o`; NULL, or what is wrong. */
static const char *entry_read(json_t *o, journal_entry *e)
{
    if (!json_is_object(o))
        return "the entry is not a JSON object";
    const char *id = str(o, "id"), *v = str(o, "variant"), *vd = str(o, "verdict");
    const char *detail = str(o, "detail"), *got = str(o, "got");
    json_t *agrees = json_object_get(o, "status_agrees");
    if (!id || !*id || !v || !vd || !detail || !got)
        return "the entry lacks a string id, variant, verdict, detail or got";
    if (!agrees || !(json_is_null(agrees) || json_is_boolean(agrees)))
        return "status_agrees is not null, true or false";
    int vi = variant_parse(v);
    if (vi < 0)
        return "unknown variant";
    int vdi = -1;
    for (int k = 0; k < VD_COUNT; k++)
        if (!strcmp(vd, verdict_name((verdict)k)))
            vdi = k;
    if (vdi < 0 || vdi == VD_WAIVED || vdi == VD_UNEXPECTED_PASS)
        return "unknown verdict (WAIVED and UNEXPECTED_PASS are never journaled)";
    e->id = xstrdup(id);
    e->v = (variant)vi;
    e->vd = (verdict)vdi;
    e->detail = xstrdup(detail);
    e->got = xstrdup(got);
    e->status_agrees = json_is_null(agrees) ? -1 : json_is_true(agrees);
    return NULL;
}

int journal_parse(journal *j, const char *path, const char *text, size_t len, char **err)
{
    memset(j, 0, sizeof *j);
    size_t at = 0;
    int cap = 0;
    for (int line = 1; at < len; line++) {
        const char *nl = memchr(text + at, '\n', len - at);
        if (!nl) {                  /* a torn last line: the write was cut */
            j->torn_line = line;
            j->torn_bytes = len - at;
            break;
        }
        size_t n = (size_t)(nl - (text + at));
        json_error_t je;
        json_t *o = json_loadb(text + at, n, JSON_REJECT_DUPLICATES, &je);
        const char *why = NULL;
        if (!o) {
            *err = xasprintf("%s:%d:%d: invalid journal line: %s", path, line, je.column,
                             je.text);
            journal_free(j);
            return -1;
        }
        if (line == 1) {
            why = header_problem(o);
            if (!why) {
                j->header = o;
                o = NULL;
            }
        } else {
            if (j->n == cap) {
                cap = cap ? 2 * cap : 256;
                j->e = xrealloc(j->e, (size_t)cap * sizeof *j->e);
            }
            memset(&j->e[j->n], 0, sizeof j->e[j->n]);
            why = entry_read(o, &j->e[j->n]);
            if (!why)
                j->e[j->n++].line = line;
        }
        json_decref(o);
        if (why) {
            *err = xasprintf("%s:%d: invalid journal %s: %s", path, line,
                             line == 1 ? "header" : "entry", why);
            journal_free(j);
            return -1;
        }
        at += n + 1;
        j->good_len = at;
    }
    if (!j->header) {
        *err = xasprintf("%s:1: no journal header (the run was cut before it was written: "
                         "run again instead)", path);
        journal_free(j);
        return -1;
    }
    return 0;
}

int journal_load(journal *j, const char *path, char **err)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        memset(j, 0, sizeof *j);
        *err = xasprintf("cannot read journal '%s': %s", path, strerror(errno));
        return -1;
    }
    int rc = journal_parse(j, path, text, len, err);
    free(text);
    return rc;
}

void journal_free(journal *j)
{
    for (int i = 0; i < j->n; i++) {
        free(j->e[i].id);
        free(j->e[i].detail);
        free(j->e[i].got);
    }
    free(j->e);
    json_decref(j->header);
    memset(j, 0, sizeof *j);
}
