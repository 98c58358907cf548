/*
 * baseline.h - `--baseline OLD.json`: the verdicts of a previous JSON
 * report (reports/SCHEMA.md), read to judge a run against them instead of
 * against perfection (gate.h does the judging; docs/harness/gate.md,
 * "Baseline").  OLD may be gzip'd (`gzip -9 report.json`: read with zlib,
 * a plain file reads as it is).  Depends on jansson and zlib.
 */
#ifndef HARNESS_BASELINE_H
#define HARNESS_BASELINE_H

#include <jansson.h>
#include <stddef.h>

typedef struct baseline {
    char *path;
    json_t *old;                /* "id/variant" -> OLD's verdict name */
} baseline;

/*
 * Reads the report at `path` (plain or gzip'd) into `b`.  Returns 0, or -1
 * with *err set (a new string): unreadable, not JSON ("PATH:LINE:COL:
 * ..."), not schema_version 1, or an entry of "cases" without a string id,
 * variant or verdict, or an (id, variant) twice.
 */
int baseline_load(baseline *b, const char *path, char **err);

/* As baseline_load, over the report's bytes text[0..len) read from `path`
 * (named in messages): the parser itself, which tests/fuzz feeds. */
int baseline_parse(baseline *b, const char *path, const char *text, size_t len, char **err);

/*
 * Reads the whole file at `path`, gunzipping it when it is gzip'd (zlib's
 * gzread reads a plain file as it is).  Returns a new NUL-terminated
 * buffer and its length in *len, or NULL with *err set to the reason
 * (strerror's, or zlib's for a damaged gzip stream; a new string).
 */
char *baseline_read_file(const char *path, size_t *len, char **err);

/*
 * A JSON report (plain or gzip'd) read whole: a new reference, or NULL
 * with *err set: unreadable ("cannot read report 'PATH': REASON"),
 * "PATH:LINE:COL: invalid json report: ...",
 * or a schema_version other than 1.
 */
json_t *report_load(const char *path, char **err);

void baseline_free(baseline *b);

#endif
