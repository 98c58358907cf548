/*
 * tamper_test.c - the candidates that tamper with files, steal secrets or
 * phone home (issue 24) against the sandbox: each run is nonconformant
 * (exit 1), the first CRASH says what the candidate tried and that the
 * worker was stopped, and nothing on disk changed.
 *
 * Each run gets a folder of its own under /tmp with copies of what a run
 * stands on: bin/reshape-conform and bin/libreshape_ref.so (the reference
 * the harness finds beside itself), cases/ (a case file), cand/NAME.so,
 * keys/vendor.pem, out/ (the report folder and its journal).  The
 * candidate's target (RESHAPE_HOSTILE_TARGET) is one of those files;
 * every file but out/ is compared byte for byte after the run, and out/
 * holds only what the harness wrote, with no forged journal line.  As
 * root, every candidate runs
 * twice: as root (the workers drop to nobody) and as nobody itself
 * (setpriv; the folder is given to nobody, so that only Landlock keeps the
 * candidate from it).  With --sandbox off the ground check fails the run
 * (exit 3) and names the file the candidate changed.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

extern char **environ;

#define NOBODY 65534

/* ------------------------------------------------------------ the folder */

static char *slurp_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    *len = fread(s, 1, (size_t)n, f);
    s[*len] = '\0';
    fclose(f);
    return s;
}

static void copy_file(const char *from, const char *to, mode_t mode)
{
    size_t n;
    char *data = slurp_file(from, &n);
    cr_assert_not_null(data, "cannot read \"%s\"", from);
    FILE *f = fopen(to, "wb");
    cr_assert_not_null(f, "cannot write \"%s\"", to);
    cr_assert_eq(fwrite(data, 1, n, f), n);
    fclose(f);
    chmod(to, mode);
    free(data);
}

/* Every file below `dir` but out/ and run.log, with its bytes. */
typedef struct snapshot {
    char paths[32][512];
    char *data[32];
    size_t len[32];
    int n;
} snapshot;

static void take(snapshot *s, const char *dir, const char *top)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot list \"%s\"", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[512];
        struct stat st;
        if (e->d_name[0] == '.' || (!strcmp(dir, top) && (!strcmp(e->d_name, "out") ||
                                                          !strcmp(e->d_name, "run.log"))))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        cr_assert_eq(lstat(path, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            take(s, path, top);
            continue;
        }
        cr_assert_lt(s->n, 32);
        snprintf(s->paths[s->n], sizeof s->paths[0], "%s", path);
        s->data[s->n] = slurp_file(path, &s->len[s->n]);
        s->n++;
    }
    closedir(d);
}

static int find(const snapshot *s, const char *path)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->paths[i], path))
            return i;
    return -1;
}

/* Every file of `before` is in `after` with the same bytes, and no other. */
static void expect_unchanged(const snapshot *before, const snapshot *after, const char *name)
{
    for (int i = 0; i < after->n; i++)
        cr_expect_geq(find(before, after->paths[i]), 0, "%s: \"%s\" appeared", name,
                      after->paths[i]);
    for (int i = 0; i < before->n; i++) {
        int k = find(after, before->paths[i]);
        cr_expect_geq(k, 0, "%s: \"%s\" went", name, before->paths[i]);
        if (k >= 0)
            cr_expect(before->len[i] == after->len[k] &&
                          !memcmp(before->data[i], after->data[k], before->len[i]),
                      "%s: \"%s\" changed", name, before->paths[i]);
    }
}

static void release(snapshot *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->data[i]);
    s->n = 0;
}

/* out/ holds what the harness writes, and the journal no forged line. */
static void expect_clean_out(const char *top, const char *name)
{
    static const char *const mine[] = {"report.json", "report.xml", "report.md", "report.html",
                                       "journal.jsonl"};
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/out", top);
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        int known = e->d_name[0] == '.';
        for (size_t i = 0; i < sizeof mine / sizeof *mine; i++)
            known |= !strcmp(e->d_name, mine[i]);
        cr_expect(known, "%s: \"%s\" appeared in the report folder", name, e->d_name);
    }
    closedir(d);
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    size_t n;
    char *journal = slurp_file(path, &n);
    cr_expect(journal && !strstr(journal, "forged"), "%s: the journal holds a forged line",
              name);
    free(journal);
}

static void remove_tree(const char *dir)
{
    pid_t pid;
    char *argv[] = {"rm", "-rf", (char *)dir, NULL};
    int st;
    if (posix_spawnp(&pid, "rm", NULL, NULL, argv, environ) == 0)
        waitpid(pid, &st, 0);
}

/* The run's folder for candidate `name`, given to `uid` (-1: kept). */
static void make_tree(char *top, size_t size, const char *name, int uid)
{
    snprintf(top, size, "/tmp/reshape-tamper-%c%c%c%c%c%c", 'X', 'X', 'X', 'X', 'X', 'X');
    cr_assert_not_null(mkdtemp(top));
    chmod(top, 0755);
    static const char *const dirs[] = {"bin", "cases", "cand", "keys", "out"};
    char path[600], from[600];
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(path, sizeof path, "%s/%s", top, dirs[i]);
        cr_assert_eq(mkdir(path, 0755), 0);
    }
    snprintf(path, sizeof path, "%s/bin/reshape-conform", top);
    copy_file(run_harness_path(), path, 0755);
    snprintf(path, sizeof path, "%s/bin/libreshape_ref.so", top);
    copy_file(run_reference_path(), path, 0755);
    snprintf(from, sizeof from, "%s/onednn_static_reshape_1.yaml", run_cases_dir());
    snprintf(path, sizeof path, "%s/cases/onednn_static_reshape_1.yaml", top);
    copy_file(from, path, 0644);
    snprintf(from, sizeof from, "%s/%s.so", run_broken_dir(), name);
    snprintf(path, sizeof path, "%s/cand/%s.so", top, name);
    copy_file(from, path, 0755);
    snprintf(path, sizeof path, "%s/keys/vendor.pem", top);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n", f);
    fclose(f);
    if (uid >= 0) {
        char owner[32];
        snprintf(owner, sizeof owner, "%d:%d", uid, uid);
        char *argv[] = {"chown", "-R", owner, top, NULL};
        pid_t pid;
        int st;
        cr_assert_eq(posix_spawnp(&pid, "chown", NULL, NULL, argv, environ), 0);
        waitpid(pid, &st, 0);
        cr_assert_eq(st, 0, "chown -R %s %s failed", owner, top);
    }
}

/* ------------------------------------------------------------ the runs */

/* Runs the folder's harness on its candidate as `uid` (-1: as we are),
 * with `extra` arguments; its output goes to TOP/run.log.  Returns the
 * exit status. */
static int run_tree(const char *top, const char *name, int uid, const char *extra)
{
    char harness[600], cand[600], cases[600], out[600], journal[600], log[600];
    snprintf(harness, sizeof harness, "%s/bin/reshape-conform", top);
    snprintf(cand, sizeof cand, "%s/cand/%s.so", top, name);
    snprintf(cases, sizeof cases, "%s/cases", top);
    snprintf(out, sizeof out, "%s/out", top);
    snprintf(journal, sizeof journal, "%s/out/journal.jsonl", top);
    snprintf(log, sizeof log, "%s/run.log", top);
    const char *argv[32] = {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
    int argc = uid >= 0 ? 5 : 0;
    const char *rest[] = {harness, "--candidate", cand, "--cases", cases, "--report-dir", out,
                          "--journal", journal, "--variants", "infer,dense", "--jobs", "2",
                          "--timeout-ms", "3000", "--quiet", extra};
    for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
        if (rest[i])
            argv[argc++] = rest[i];
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    cr_assert_eq(rc, 0, "cannot start %s: %s", argv[0], strerror(rc));
    int st;
    while (waitpid(pid, &st, 0) < 0)
        cr_assert_eq(errno, EINTR);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* What the candidate attacks in the folder `top`: RESHAPE_HOSTILE_TARGET. */
static void target(char *buf, size_t size, const char *top, const char *file)
{
    snprintf(buf, size, "%s/%s", top, file);
}

/* The report's host.sandbox.network. */
static const char *network_of(json_t *report)
{
    const char *s = json_string_value(json_object_get(
        json_object_get(json_object_get(report, "host"), "sandbox"), "network"));
    return s ? s : "";
}

/* 1 when `text` holds the parts of `pattern` split at each '*', in order. */
static int holds_in_order(const char *text, const char *pattern)
{
    char part[700];
    while (*pattern) {
        size_t n = strcspn(pattern, "*");
        snprintf(part, sizeof part, "%.*s", (int)n, pattern);
        const char *at = strstr(text, part);
        if (!at)
            return 0;
        text = at + n;
        pattern += n + (pattern[n] == '*');
    }
    return 1;
}

/*
 * Runs candidate `name` on target TOP/`file` (NULL: none) as `uid` and
 * checks: exit 1, nonconformant, a CRASH whose detail holds "it tried to "
 * `act` (TOP/ in it replaced by the folder; * for any text) and "(the
 * worker was stopped)", nothing changed.
 */
static void caught(const char *name, const char *file, const char *act, int uid)
{
    char top[64], tgt[600], want[700], json[600];
    make_tree(top, sizeof top, name, uid);
    if (file) {
        target(tgt, sizeof tgt, top, file);
        setenv("RESHAPE_HOSTILE_TARGET", tgt, 1);
    }
    snapshot before = {0}, after = {0};
    take(&before, top, top);
    int rc = run_tree(top, name, uid, NULL);
    unsetenv("RESHAPE_HOSTILE_TARGET");
    const char *who = uid >= 0 ? "as nobody" : "as ourselves";
    cr_expect_eq(rc, 1, "%s %s: exit status %d (1 expected); see %s/run.log", name, who, rc, top);
    snprintf(json, sizeof json, "%s/out/report.json", top);
    struct run_summary s;
    cr_assert_eq(run_summarize(json, "CRASH", &s), 0, "%s %s: %s", name, who, s.error);
    cr_expect_str_eq(s.verdict, "nonconformant");
    json_t *report = json_load_file(json, 0, NULL);
    if (!strcmp(act, "connect"))    /* where the worker has no network namespace: no socket */
        snprintf(want, sizeof want, "it tried to %s", strstr(network_of(report), "namespace")
                 ? "connect to 203.0.113.1:443" : "open a network socket (AF_INET, SOCK_STREAM)");
    else if (strstr(act, "TOP/"))
        snprintf(want, sizeof want, "it tried to %.*s%s%s", (int)(strstr(act, "TOP/") - act), act,
                 top, strstr(act, "TOP/") + 3);
    else
        snprintf(want, sizeof want, "it tried to %s", act);
    json_decref(report);
    cr_expect(holds_in_order(s.first_detail, want), "%s %s: the first CRASH says \"%s\", not "
              "\"%s\"", name, who, s.first_detail, want);
    cr_expect(strstr(s.first_detail, "(the worker was stopped)"), "%s", s.first_detail);
    take(&after, top, top);
    expect_unchanged(&before, &after, name);
    expect_clean_out(top, name);
    release(&before);
    release(&after);
    remove_tree(top);
}

/* As we are, and as nobody too when we are root. */
static void caught_both(const char *name, const char *file, const char *act)
{
    caught(name, file, act, -1);
    if (geteuid() == 0)
        caught(name, file, act, NOBODY);
}

Test(tamper, a_file_created_outside_scratch_is_refused, .timeout = 300)
{
    caught_both("writes_outside_scratch", "keys/vendor.pem", "create TOP/keys/reshape_tamper_probe");
}

Test(tamper, a_case_file_opened_for_writing_is_refused, .timeout = 300)
{
    caught_both("appends_to_case_file", "cases/onednn_static_reshape_1.yaml",
                "open TOP/cases/onednn_static_reshape_1.yaml for writing");
}

Test(tamper, reading_etc_shadow_is_refused, .timeout = 300)
{
    caught_both("reads_shadow", NULL, "read /etc/shadow");
}

Test(tamper, truncating_the_reference_is_refused, .timeout = 300)
{
    caught_both("truncates_reference", "bin/libreshape_ref.so",
                "truncate TOP/bin/libreshape_ref.so");
}

Test(tamper, reading_a_signing_key_is_refused, .timeout = 300)
{
    caught_both("reads_signing_key", "keys/vendor.pem", "read TOP/keys/vendor.pem");
}

Test(tamper, a_tcp_connection_is_refused, .timeout = 300)
{
    caught_both("connects_tcp", NULL, "connect");
}

Test(tamper, replacing_the_journal_is_refused, .timeout = 300)
{
    caught_both("replaces_journal", "out/journal.jsonl",
                "rename /*/journal.jsonl to TOP/out/journal.jsonl");
}

/* --sandbox off: the candidate changes TOP/`file`; the run exits 3 and
 * says which file changed. */
static void ground_fails(const char *name, const char *file)
{
    char top[64], tgt[600], log[600];
    make_tree(top, sizeof top, name, -1);
    target(tgt, sizeof tgt, top, file);
    setenv("RESHAPE_HOSTILE_TARGET", tgt, 1);
    int rc = run_tree(top, name, -1, "--sandbox=off");
    unsetenv("RESHAPE_HOSTILE_TARGET");
    snprintf(log, sizeof log, "%s/run.log", top);
    size_t n;
    char *text = slurp_file(log, &n);
    char want[700];
    snprintf(want, sizeof want, "the file '%s' changed during the run", tgt);
    cr_expect_eq(rc, 3, "%s: exit status %d (3 expected): %s", name, rc, text);
    cr_expect(text && strstr(text, want), "%s: no \"%s\" in: %s", name, want, text);
    free(text);
    remove_tree(top);
}

Test(ground, a_case_file_changed_under_the_run_fails_it, .timeout = 300)
{
    ground_fails("appends_to_case_file", "cases/onednn_static_reshape_1.yaml");
}

Test(ground, a_reference_truncated_under_the_run_fails_it, .timeout = 300)
{
    ground_fails("truncates_reference", "bin/libreshape_ref.so");
}
