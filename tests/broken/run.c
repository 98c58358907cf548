/*
 * run.c - running the harness on a candidate and summarizing its report;
 * see run.h.  Depends on jansson and POSIX (posix_spawn).
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

extern char **environ;

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? v : fallback;
}

const char *run_harness_path(void)
{
    return env_or("RESHAPE_CONFORM", "build/reshape-conform");
}

const char *run_broken_dir(void)
{
    return env_or("BROKEN_DIR", "build/broken");
}

const char *run_test_cands_dir(void)
{
    return env_or("HARNESS_CANDS", "build/tests/harness_cands");
}

const char *run_reference_path(void)
{
    return env_or("REFERENCE_SO", "build/libreshape_ref.so");
}

const char *run_cases_dir(void)
{
    return env_or("CASES_DIR", "cases");
}

const char *run_runs_dir(void)
{
    return env_or("BROKEN_RUNS", "build/broken/runs");
}

/* mkdir -p for a relative or absolute path of at most 511 bytes. */
static int make_dirs(const char *path)
{
    char buf[512];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

#define RUN_MAX_ARGS 64

int run_harness(const char *so, const char *out_dir, const char *label,
                int timeout_ms, const char *const *extra, char *json_path,
                size_t size)
{
    char log_path[512], timeout[32];
    if (make_dirs(out_dir) != 0)
        return -1;
    snprintf(json_path, size, "%s/%s.json", out_dir, label);
    snprintf(log_path, sizeof log_path, "%s/%s.log", out_dir, label);
    snprintf(timeout, sizeof timeout, "%d", timeout_ms);
    remove(json_path);

    const char *argv[RUN_MAX_ARGS] = {
        run_harness_path(), "--candidate", so, "--json", json_path,
        "--jobs", "2", "--timeout-ms", timeout, "--quiet"};
    int argc = 10;
    for (; extra != NULL && *extra != NULL; extra++) {
        if (argc == RUN_MAX_ARGS - 1)
            return -1;
        argv[argc++] = *extra;
    }
    argv[argc] = NULL;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log_path,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0666);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    /* posix_spawn takes char *const[]; it does not write to the strings. */
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv,
                         environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_verdict_counts(const char *verdict)
{
    static const char *const against[] = {
        "FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT", "MEMORY_VIOLATION",
        "LEAK", "FLOOD", "UNEXPECTED_PASS"};
    for (size_t i = 0; i < sizeof against / sizeof against[0]; i++)
        if (strcmp(verdict, against[i]) == 0)
            return 1;
    return 0;
}

static void copy_string(char *to, size_t size, json_t *from)
{
    const char *v = json_is_string(from) ? json_string_value(from) : "";
    snprintf(to, size, "%s", v);
}

int run_summarize(const char *json_path, const char *expect,
                  struct run_summary *s)
{
    memset(s, 0, sizeof *s);
    json_error_t err;
    json_t *root = json_load_file(json_path, 0, &err);
    if (root == NULL) {
        snprintf(s->error, sizeof s->error, "cannot read report \"%s\": %s",
                 json_path, err.text);
        return -1;
    }
    json_t *cases = json_object_get(root, "cases");
    if (json_integer_value(json_object_get(root, "schema_version")) != 1
        || !json_is_string(json_object_get(root, "verdict"))
        || !json_is_array(cases)) {
        snprintf(s->error, sizeof s->error,
                 "report \"%s\" is not schema version 1", json_path);
        json_decref(root);
        return -1;
    }
    copy_string(s->verdict, sizeof s->verdict,
                json_object_get(root, "verdict"));
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *verdict = json_string_value(json_object_get(c, "verdict"));
        s->results++;
        if (verdict == NULL)
            continue;
        s->caught += run_verdict_counts(verdict);
        if (strcmp(verdict, expect) != 0)
            continue;
        if (s->caught_expected++ == 0) {
            copy_string(s->first_case, sizeof s->first_case,
                        json_object_get(c, "id"));
            copy_string(s->first_variant, sizeof s->first_variant,
                        json_object_get(c, "variant"));
            copy_string(s->first_detail, sizeof s->first_detail,
                        json_object_get(c, "detail"));
        }
    }
    json_decref(root);
    return 0;
}
