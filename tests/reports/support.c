/*
 * support.c - subprocesses, files and folders for the report-rendering tests.
 * Uses POSIX and Criterion's assertions only.
 */
#define _XOPEN_SOURCE 700 /* nftw() */
#include "support.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

extern char **environ;

char *rt_join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *path = malloc(n);
    cr_assert_not_null(path, "out of memory");
    snprintf(path, n, "%s/%s", dir, file);
    return path;
}

char *rt_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *grown = realloc(buf, 2 * cap + 1);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int failed = ferror(f);
    fclose(f);
    if (!buf || failed) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int rt_write(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = fwrite(data, 1, len, f);
    int closed = fclose(f);
    return n == len && closed == 0 ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

int rt_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p: creates `path` and its missing parents. */
static int make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, path, n + 1);
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

char *rt_workdir(const char *name)
{
    const char *base = getenv("REPORTS_TEST_DIR");
    char *dir = rt_join(base && *base ? base : "build/reports-test", name);
    cr_assert_eq(rt_remove_tree(dir), 0, "cannot empty \"%s\": %s", dir, strerror(errno));
    cr_assert_eq(make_dirs(dir), 0, "cannot create \"%s\": %s", dir, strerror(errno));
    return dir;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int rt_run(rt_result *r, char *const argv[], const char *log_dir, double timeout_s)
{
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    char *out_path = rt_join(log_dir, "stdout.txt");
    char *err_path = rt_join(log_dir, "stderr.txt");

    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);

    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        free(out_path);
        free(err_path);
        errno = rc;
        return -1;
    }

    /* Wait without reaping, so that the pid, and with it the process group
     * id, stays ours until the helpers left in the group are killed. */
    double deadline = now_s() + timeout_s;
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
            if (errno == EINTR)
                continue;
            free(out_path);
            free(err_path);
            return -1;
        }
        if (info.si_pid == pid)
            break;
        if (now_s() > deadline) {
            r->timed_out = 1;
            break;
        }
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;

    if (WIFEXITED(status))
        r->exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r->signal = WTERMSIG(status);
    r->out = rt_read(out_path, &r->out_len);
    r->err = rt_read(err_path, &r->err_len);
    free(out_path);
    free(err_path);
    cr_assert(r->out && r->err, "cannot read the output of \"%s\"", argv[0]);
    return 0;
}

void rt_run_free(rt_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

int rt_render(rt_result *r, const char *json, const char *out_dir)
{
    char *argv[] = {RT_PYTHON, RT_RENDER, (char *)json, "--out", (char *)out_dir, NULL};
    return rt_run(r, argv, out_dir, 120.0);
}

/* Renders `json` into `out`, asserts the renderer exited 0 and returns the
 * contents of `file` there. */
static char *render_into(const char *json, const char *out, const char *file)
{
    rt_result r;
    cr_assert_eq(rt_render(&r, json, out), 0, "cannot start %s: %s", RT_PYTHON, strerror(errno));
    cr_assert_eq(r.exit_code, 0, "render.py exited %d on %s:\n%s", r.exit_code, json, r.err);
    rt_run_free(&r);
    char *path = rt_join(out, file);
    char *text = rt_read(path, NULL);
    cr_assert_not_null(text, "render.py did not write \"%s\"", path);
    free(path);
    return text;
}

/* Hands the workdir to the caller through `dir`, or frees it. */
static void give_dir(char *out, char **dir)
{
    if (dir)
        *dir = out;
    else
        free(out);
}

/* Copies the regular files of folder `from` into folder `to`. */
static void copy_files(const char *from, const char *to)
{
    DIR *d = opendir(from);
    cr_assert_not_null(d, "cannot read \"%s\"", from);
    struct dirent *e;
    while ((e = readdir(d))) {
        char *src = rt_join(from, e->d_name), *dst = rt_join(to, e->d_name);
        struct stat st;
        size_t len;
        char *data = stat(src, &st) == 0 && S_ISREG(st.st_mode) ? rt_read(src, &len) : NULL;
        cr_assert(!data || rt_write(dst, data, len) == 0, "cannot write \"%s\"", dst);
        free(data);
        free(src);
        free(dst);
    }
    closedir(d);
}

/* The folder where fixture `fixture` is rendered once per run of the test
 * binary (the tests of a run share their runner, getppid()), not once per
 * test: the renderer is deterministic (cli/same_report_same_bytes), and a
 * render costs a Python start and jinja2's import, most of what these tests
 * cost.  Two tests that render it at once each publish by rename(); the
 * second's is dropped. */
static char *rendered_once(const char *fixture)
{
    const char *base = getenv("REPORTS_TEST_DIR");
    char key[256];
    snprintf(key, sizeof key, "fixture-cache-%ld/%s", (long)getppid(), fixture);
    char *done = rt_join(base && *base ? base : "build/reports-test", key);
    char *html = rt_join(done, "report.html");
    int have = access(html, R_OK) == 0;
    free(html);
    if (have)
        return done;
    snprintf(key, sizeof key, "%s.%ld", fixture, (long)getpid());
    char *tmp = rt_join(done, "..");
    char *mine = rt_join(tmp, key);
    free(tmp);
    cr_assert_eq(make_dirs(mine), 0, "cannot create \"%s\": %s", mine, strerror(errno));
    char *json = rt_join(RT_DATA, fixture);
    free(render_into(json, mine, "report.md"));
    free(json);
    if (rename(mine, done) != 0)
        rt_remove_tree(mine);   /* another test published it first */
    free(mine);
    return done;
}

char *rt_render_fixture(const char *fixture, const char *name, const char *file, char **dir)
{
    char *cache = rendered_once(fixture);
    char *out = rt_workdir(name);
    copy_files(cache, out);
    free(cache);
    char *path = rt_join(out, file);
    char *text = rt_read(path, NULL);
    cr_assert_not_null(text, "render.py did not write \"%s\"", path);
    free(path);
    give_dir(out, dir);
    return text;
}

char *rt_render_report(json_t *report, const char *name, const char *file, char **dir)
{
    char *out = rt_workdir(name);
    char *json = rt_save(report, out, "report.json");
    char *text = render_into(json, out, file);
    free(json);
    give_dir(out, dir);
    return text;
}

json_t *rt_load_fixture(const char *fixture)
{
    char *path = rt_join(RT_DATA, fixture);
    json_error_t error;
    json_t *report = json_load_file(path, 0, &error);
    cr_assert_not_null(report, "cannot load \"%s\": %s at %d:%d", path, error.text,
                       error.line, error.column);
    free(path);
    return report;
}

char *rt_save(json_t *report, const char *dir, const char *name)
{
    char *path = rt_join(dir, name);
    cr_assert_eq(json_dump_file(report, path, JSON_INDENT(1)), 0, "cannot write \"%s\"", path);
    return path;
}

size_t rt_count(const char *hay, const char *needle)
{
    size_t n = 0, step = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + step, needle))
        n++;
    return n;
}
