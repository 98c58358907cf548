/*
 * journal.h - the run's journal: every raw verdict appended as it is
 * decided, so that a harness killed mid-run (SIGKILL, the OOM killer)
 * can be resumed (`run --resume JOURNAL`) and still write the report a
 * clean run would.  Format, flush and fsync policy: docs/harness/journal.md.
 * Depends on jansson, job.h, options.h.
 *
 * The file is JSON lines: line 1 the header object, then one object per
 * (case, variant) result, in the order the results were judged:
 *   {"journal":"reshape-conform","journal_version":1,
 *    "candidate_sha256":HEX,"cases_sha256":HEX,"started_utc":"...",
 *    "options":{...the report's options object, argv included...}}
 *   {"id":ID,"variant":NAME,"verdict":NAME,"detail":S,"got":S,
 *    "status_agrees":null|true|false}
 * Verdicts are the judged ones before expectations apply (never WAIVED or
 * UNEXPECTED_PASS); a later line for the same (id, variant) replaces an
 * earlier one.
 */
#ifndef HARNESS_JOURNAL_H
#define HARNESS_JOURNAL_H

#include <jansson.h>
#include <stddef.h>

#include "judge/judge.h"
#include "run/run.h"

#define JOURNAL_VERSION 1
/* A batch of entries is written (write(2)) when it holds this many, or
 * JOURNAL_FLUSH_MS after its first entry; fdatasync at most every
 * JOURNAL_SYNC_MS, and when the journal is closed. */
#define JOURNAL_FLUSH_ENTRIES 64
#define JOURNAL_FLUSH_MS 200
#define JOURNAL_SYNC_MS 1000

/* ------------------------------------------------------------- writing */

typedef struct journal_writer journal_writer;

/* The header object of a run: `o`'s report options, the candidate's and
 * the suite's SHA-256 (hex), the start time.  New reference. */
json_t *journal_header(const run_options *o, const char *candidate_sha256,
                       const char *cases_sha256, const char *started_utc);

/*
 * Creates (or truncates) the journal at `path` and writes `header` as its
 * first line, synced to disk.  Returns the writer, or NULL with *err set
 * ("cannot write journal 'PATH': REASON", new string).
 */
journal_writer *journal_create(const char *path, json_t *header, char **err);

/*
 * Opens an existing journal to go on appending: the file is first cut to
 * `keep` bytes (journal_parse's good_len: a torn last line goes).
 * Returns the writer, or NULL with *err set.
 */
journal_writer *journal_reopen(const char *path, size_t keep, char **err);

/* Appends the entry of result `r` of case `id` (buffered; see
 * JOURNAL_FLUSH_*).  A write error is reported once as a warning and
 * journaling stops: the run itself goes on. */
void journal_append(journal_writer *w, const char *id, const result *r);

/* Writes what is buffered, fsyncs, closes and frees `w`.  Returns 0, or
 * -1 when anything was lost (a warning was printed). */
int journal_close(journal_writer *w);

/* ------------------------------------------------------------- reading */

typedef struct journal_entry {
    char *id;
    variant v;
    verdict vd;
    char *detail;
    char *got;
    int status_agrees;      /* -1 null, 0, 1 */
    int line;               /* from 1 */
} journal_entry;

typedef struct journal {
    json_t *header;         /* the header object, checked as described above */
    journal_entry *e;
    int n;
    size_t good_len;        /* bytes up to the end of the last complete line */
    int torn_line;          /* line number of a torn last line, or 0 */
    size_t torn_bytes;      /* its length */
} journal;

/*
 * Parses the journal text[0..len) read from `path` (for messages).  The
 * header must be there and valid, every complete line (ending with a
 * newline) a valid entry; a last line without its newline is torn (the
 * write was cut): it is dropped and reported in torn_line/torn_bytes.
 * Returns 0, or -1 with *err set ("PATH:LINE: what is wrong", new string)
 * and nothing to free.
 */
int journal_parse(journal *j, const char *path, const char *text, size_t len, char **err);

/* Reads and parses the file at `path` (journal_parse); -1 with *err set
 * also when it cannot be read. */
int journal_load(journal *j, const char *path, char **err);

void journal_free(journal *j);

#endif
