/*
 * journal.c - appending to the run's journal (journal.h): entries are
 * buffered and written in batches with write(2), so a SIGKILL loses at
 * most the batch being filled (its results run again on resume); the file
 * is fdatasync'ed at most once a second, and at the end.  Depends on
 * jansson, report.h, util.h.
 */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "report.h"

struct journal_writer {
    int fd;                 /* -1 after a write error */
    char *path;
    strbuf buf;             /* entries not written yet */
    int pending;            /* entries in buf */
    double first_pending;   /* now_s() of the oldest one */
    double last_sync;
    int lost;
};

json_t *journal_header(const run_options *o, const char *candidate_sha256,
                       const char *cases_sha256, const char *started_utc)
{
    return json_pack("{s:s, s:i, s:s, s:s, s:s, s:o}", "journal", "reshape-conform",
                     "journal_version", JOURNAL_VERSION, "candidate_sha256", candidate_sha256,
                     "cases_sha256", cases_sha256, "started_utc", started_utc, "options",
                     report_options_json(o));
}

/* write(2) all of s[0..n), retrying short writes; 0 or -1. */
static int write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t k = write(fd, s, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

static void lose(journal_writer *w)
{
    if (!w->lost)
        warn("cannot write journal '%s': %s (the run goes on without it)", w->path,
             strerror(errno));
    w->lost = 1;
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
}

/* Writes the buffered entries; syncs when the last sync is old enough or
 * `sync` is set. */
static void flush(journal_writer *w, int sync)
{
    if (w->fd < 0)
        return;
    if (w->buf.len && write_all(w->fd, w->buf.s, w->buf.len) != 0) {
        lose(w);
        return;
    }
    w->buf.len = 0;
    w->buf.s[0] = '\0';
    w->pending = 0;
    double t = now_s();
    if (sync || t - w->last_sync >= JOURNAL_SYNC_MS / 1000.0) {
        if (fdatasync(w->fd) != 0) {
            lose(w);
            return;
        }
        w->last_sync = t;
    }
}

static journal_writer *open_writer(const char *path, int flags, char **err)
{
    int fd = open(path, flags | O_WRONLY | O_CLOEXEC, 0666);
    if (fd < 0) {
        *err = xasprintf("cannot write journal '%s': %s", path, strerror(errno));
        return NULL;
    }
    journal_writer *w = xcalloc(1, sizeof *w);
    w->fd = fd;
    w->path = xstrdup(path);
    sb_init(&w->buf);
    w->last_sync = now_s();
    return w;
}

journal_writer *journal_create(const char *path, json_t *header, char **err)
{
    journal_writer *w = open_writer(path, O_CREAT | O_TRUNC, err);
    if (!w)
        return NULL;
    char *line = json_dumps(header, JSON_COMPACT | JSON_PRESERVE_ORDER);
    sb_addf(&w->buf, "%s\n", line);
    free(line);
    flush(w, 1);
    if (w->lost) {
        *err = xasprintf("cannot write journal '%s': %s", path, strerror(errno));
        journal_close(w);
        return NULL;
    }
    return w;
}

journal_writer *journal_reopen(const char *path, size_t keep, char **err)
{
    journal_writer *w = open_writer(path, 0, err);
    if (!w)
        return NULL;
    if (ftruncate(w->fd, (off_t)keep) != 0 || lseek(w->fd, 0, SEEK_END) < 0) {
        *err = xasprintf("cannot write journal '%s': %s", path, strerror(errno));
        journal_close(w);
        return NULL;
    }
    return w;
}

void journal_append(journal_writer *w, const char *id, const result *r)
{
    if (w->fd < 0)
        return;
    json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "id", id, "variant",
                          variant_name(r->v), "verdict", verdict_name(r->vd), "detail",
                          r->detail ? r->detail : "", "got", r->got ? r->got : "",
                          "status_agrees",
                          r->status_agrees < 0 ? json_null() : json_boolean(r->status_agrees));
    char *line = e ? json_dumps(e, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(e);
    if (!line) {                /* not UTF-8: left out, so it runs again on resume */
        warn("journal '%s': cannot encode the entry of '%s/%s'", w->path, id,
             variant_name(r->v));
        return;
    }
    sb_addf(&w->buf, "%s\n", line);
    free(line);
    double t = now_s();
    if (w->pending++ == 0)
        w->first_pending = t;
    if (w->pending >= JOURNAL_FLUSH_ENTRIES || t - w->first_pending >= JOURNAL_FLUSH_MS / 1000.0)
        flush(w, 0);
}

int journal_close(journal_writer *w)
{
    flush(w, 1);
    int lost = w->lost;
    if (w->fd >= 0 && close(w->fd) != 0 && !lost) {
        warn("cannot write journal '%s': %s", w->path, strerror(errno));
        lost = 1;
    }
    free(w->buf.s);
    free(w->path);
    free(w);
    return lost ? -1 : 0;
}
