/*
 * support.h - what the report-rendering tests share: running a program as a
 * subprocess with a deadline, reading files, and fresh folders to write in.
 *
 * Every path is relative to the repository root, the folder the tests run in
 * (`make test-reports` runs them there).  Output goes below the folder named
 * by the environment variable REPORTS_TEST_DIR, default "build/reports-test",
 * so the plain and the sanitized binaries can run at once without sharing
 * files.
 */
#ifndef REPORTS_TEST_SUPPORT_H
#define REPORTS_TEST_SUPPORT_H

#include <stddef.h>

#include <jansson.h>

/* The renderer and the interpreter it is run with. */
#define RT_PYTHON "/usr/bin/python3"
#define RT_RENDER "reports/render.py"
#define RT_DATA "tests/reports/data"

/* What a finished subprocess left: `exit_code` is its exit status when it
 * exited (else -1), `signal` the signal that ended it (else 0), `timed_out`
 * nonzero when it was killed at the deadline.  `out` and `err` hold all it
 * wrote to stdout and stderr, NUL-terminated; the caller frees them with
 * rt_run_free(). */
typedef struct rt_result {
    int exit_code;
    int signal;
    int timed_out;
    char *out;
    size_t out_len;
    char *err;
    size_t err_len;
} rt_result;

/* Runs `argv` (NULL-terminated; argv[0] is looked up in PATH) in a process
 * group of its own, with stdin from /dev/null, and waits at most `timeout_s`
 * seconds; past that the whole group gets SIGKILL (a browser leaves helper
 * processes behind otherwise).  `log_dir` is an existing folder where
 * stdout.txt and stderr.txt are kept for a person to read after a failure.
 * Returns 0 and fills `r`, or -1 with errno set when the program could not be
 * started. */
int rt_run(rt_result *r, char *const argv[], const char *log_dir, double timeout_s);

/* Frees what rt_run() allocated in `r`. */
void rt_run_free(rt_result *r);

/* Reads the whole file at `path` into a NUL-terminated buffer the caller
 * frees; stores its size in `*len` when `len` is not NULL.  Returns NULL when
 * the file cannot be read. */
char *rt_read(const char *path, size_t *len);

/* Writes `len` bytes of `data` to `path`, replacing it.  Returns 0, or -1. */
int rt_write(const char *path, const char *data, size_t len);

/* Returns a freshly emptied folder REPORTS_TEST_DIR/`name` (created with its
 * parents), as a string the caller frees.  Aborts the test on failure. */
char *rt_workdir(const char *name);

/* Removes the folder `path` and everything below it.  Returns 0, or -1. */
int rt_remove_tree(const char *path);

/* Joins `dir` and `file` with a "/" into a string the caller frees. */
char *rt_join(const char *dir, const char *file);

/* Runs the renderer on `json` with `--out out_dir` (and its logs there);
 * timeout 120 s.  Returns what rt_run() returns. */
int rt_render(rt_result *r, const char *json, const char *out_dir);

/* Renders the fixture RT_DATA/`fixture` (once per run of the test binary,
 * asserting the renderer exited 0), copies what it wrote into a fresh
 * workdir `name` and returns the contents of `file` there ("report.md" or
 * "report.html"), which the caller frees.  Stores the workdir in `*dir`
 * (the caller frees it) when `dir` is not NULL. */
char *rt_render_fixture(const char *fixture, const char *name, const char *file, char **dir);

/* The same for a report a test has changed: writes `report` as
 * report.json in a fresh workdir `name`, renders it there and returns the
 * contents of `file`; `dir` as for rt_render_fixture. */
char *rt_render_report(json_t *report, const char *name, const char *file, char **dir);

/* Loads the fixture RT_DATA/`fixture` for a test to change; aborts the test
 * when it cannot.  The caller owns the reference. */
json_t *rt_load_fixture(const char *fixture);

/* Writes `report` as `dir`/`name` and returns that path (the caller frees
 * it); aborts the test when it cannot. */
char *rt_save(json_t *report, const char *dir, const char *name);

/* How many times `needle` (non-empty) occurs in `hay`, not overlapping. */
size_t rt_count(const char *hay, const char *needle);

#endif
