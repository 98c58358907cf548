/*
 * verify_rerun.c - `verify BUNDLE --rerun CANDIDATE.so` (verify.h,
 * rerun_check): the candidate's hash against the bundle, then the suite
 * run again with the options the report records, and every verdict and
 * every library its workers loaded compared.  Depends on jansson, bundle.h, report.h (sha256_file), util.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "report/report.h"
#include "cert/cert.h"
#include "cli.h"

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/*
 * run_main over `argv` with stdout sent to /dev/null (a failing candidate
 * prints a line per failing result; the JSON report has them all).
 */
static int run_quietly(int argc, char **argv)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0)
        die(EXIT_HARNESS, "cannot redirect stdout: %s", strerror(errno));
    close(null);
    int code = run_main(argc, argv, 0);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    return code;
}

/* The entries of `report` keyed "ID/VARIANT". */
static json_t *by_pair(json_t *report)
{
    json_t *o = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(report, "cases"), i, e) {
        char *key = xasprintf("%s/%s", str(e, "id"), str(e, "variant"));
        json_object_set(o, key, e);
        free(key);
    }
    return o;
}

/* Every verdict of `was` (the bundle's) against `now` (the rerun's). */
static int compare(checker *k, json_t *was, json_t *now)
{
    json_t *a = by_pair(was), *b = by_pair(now);
    int diffs = 0;
    const char *key;
    json_t *e;
    json_object_foreach(a, key, e) {
        json_t *r = json_object_get(b, key);
        if (r && !strcmp(str(e, "verdict"), str(r, "verdict")))
            continue;
        if (diffs++ < VERIFY_SHOW)
            verify_problem(k, "rerun-verdict-mismatch", "%s: the bundle says %s, the rerun %s%s%s",
                           key, str(e, "verdict"), r ? str(r, "verdict") : "has no result",
                           r && *str(r, "detail") ? ": " : "", r ? str(r, "detail") : "");
    }
    json_object_foreach(b, key, e) {
        if (json_object_get(a, key))
            continue;
        if (diffs++ < VERIFY_SHOW)
            verify_problem(k, "rerun-verdict-mismatch", "%s: the rerun says %s, the bundle has no "
                           "result", key, str(e, "verdict"));
    }
    if (diffs > VERIFY_SHOW)
        verify_problem(k, "rerun-verdict-mismatch", "... and %d more", diffs - VERIFY_SHOW);
    json_decref(a);
    json_decref(b);
    return diffs;
}

/* Appends `option` VALUE to argv[*n..] for each string of the report's
 * option array `key`, up to `room` words. */
static void pass_list(char **argv, int *n, int room, json_t *o, const char *key,
                      char *option)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(o, key), i, v)
        if (json_is_string(v) && *n + 2 <= room) {
            argv[(*n)++] = option;
            argv[(*n)++] = (char *)json_string_value(v);
        }
}

void rerun_check(checker *k, const bundle *b, json_t *report, const char *so,
                 const char *cases, const char *jobs, int allow_system, char *argv0,
                 const char *bundle_path)
{
    char sha[65];
    if (sha256_file(so, sha) != 0)
        die(EXIT_USAGE, "cannot read candidate '%s': %s", so, strerror(errno));
    const bundle_member *cm = bundle_get(b, BUNDLE_CANDIDATE);
    if (!cm || cm->size < 64 || memcmp(cm->data, sha, 64)) {
        verify_problem(k, "rerun-candidate-mismatch", "'%s' has sha256 %.12s..., the bundle "
                       "certifies %.12s...", so, sha, cm && cm->size >= 64 ? (char *)cm->data : "?");
        return;
    }
    json_t *o = json_object_get(report, "options");
    const char *tmpdir = getenv("TMPDIR");
    char *dir = xasprintf("%s/reshape-rerun-%c%c%c%c%c%c", tmpdir && *tmpdir ? tmpdir : "/tmp",
                          'X', 'X', 'X', 'X', 'X', 'X');
    if (!mkdtemp(dir))
        die(EXIT_HARNESS, "cannot create a folder '%s': %s", dir, strerror(errno));
    char *json = xasprintf("%s/report.json", dir);
    char seed[32], timeout[32], max_bytes[32];
    snprintf(seed, sizeof seed, "%lld", (long long)json_integer_value(json_object_get(o, "seed")));
    snprintf(timeout, sizeof timeout, "%lld",
             (long long)json_integer_value(json_object_get(o, "timeout_ms")));
    snprintf(max_bytes, sizeof max_bytes, "%lld",
             (long long)json_integer_value(json_object_get(o, "max_bytes")));
    char *argv[64];
    int n = 0;
    argv[n++] = argv0;
    argv[n++] = "--candidate";
    argv[n++] = (char *)so;
    argv[n++] = "--cases";
    argv[n++] = (char *)cases;
    argv[n++] = "--variants";
    argv[n++] = "all";
    argv[n++] = "--seed";
    argv[n++] = seed;
    argv[n++] = "--timeout-ms";
    argv[n++] = timeout;
    argv[n++] = "--max-bytes";
    argv[n++] = max_bytes;
    argv[n++] = "--json";
    argv[n++] = json;
    argv[n++] = "--quiet";
    argv[n++] = "--libraries";
    if (json_is_true(json_object_get(o, "strict_errors")))
        argv[n++] = "--strict-errors";
    if (jobs) {
        argv[n++] = "--jobs";
        argv[n++] = (char *)jobs;
    }
    argv[n++] = "--sandbox-deny";
    argv[n++] = (char *)bundle_path;
    pass_list(argv, &n, 62, o, "sandbox_allow", "--sandbox-allow");
    pass_list(argv, &n, 62, o, "sandbox_allow_write", "--sandbox-allow-write");
    argv[n] = NULL;
    int code = run_quietly(n, argv);
    json_error_t je;
    json_t *now = code <= EXIT_NONCONFORMANT ? json_load_file(json, 0, &je) : NULL;
    if (!now)
        die(EXIT_HARNESS, "the rerun of '%s' ended with exit status %d and no report", so, code);
    int diffs = compare(k, report, now);
    int libs = libraries_compare(k, report, now, allow_system);
    printf("rerun: '%s' (sha256 %.12s...): %zu results, %s\n", so, sha,
           json_array_size(json_object_get(now, "cases")),
           diffs ? "verdicts differ from the bundle's" : "every verdict as the bundle says");
    if (json_is_array(json_object_get(report, "libraries")))
        printf("rerun: %zu shared objects loaded, %s\n",
               json_array_size(json_object_get(now, "libraries")),
               libs ? "libraries differ from the bundle's" : "every library as the bundle pins it");
    else
        printf("rerun: the bundle pins no libraries (certified before they were recorded)\n");
    json_decref(now);
    remove(json);
    rmdir(dir);
    free(json);
    free(dir);
}
