/*
 * test_atomic.c - report files are replaced whole (harness/atomic_write.h,
 * reports/atomic_file.py): a reader polling the path while reports are
 * written over each other sees one whole report or the other, never a
 * part, and no temporary file is left behind.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "report/report.h"

/* A report-like object of `n` entries, marked with `mark`. */
static json_t *big(int n, const char *mark)
{
    json_t *cases = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(cases, json_pack("{s:s, s:i, s:s}", "id", mark, "i", i, "detail",
                                               "0123456789abcdef0123456789abcdef"));
    return json_pack("{s:s, s:o}", "mark", mark, "cases", cases);
}

typedef struct poll_ctx {
    const char *path;
    atomic_int stop;
    int reads, bad;
    char why[256];
} poll_ctx;

static void *poller(void *arg)
{
    poll_ctx *p = arg;
    while (!atomic_load(&p->stop)) {
        json_error_t je;
        json_t *r = json_load_file(p->path, 0, &je);
        p->reads++;
        if (!r) {
            p->bad++;
            snprintf(p->why, sizeof p->why, "%s", je.text);
            continue;
        }
        const char *mark = json_string_value(json_object_get(r, "mark"));
        size_t n = json_array_size(json_object_get(r, "cases"));
        if (!mark || (strcmp(mark, "small") == 0 ? n != 10 : n != 20000)) {
            p->bad++;
            snprintf(p->why, sizeof p->why, "mark %s with %zu entries", mark, n);
        }
        json_decref(r);
    }
    return NULL;
}

static int temp_files_in(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

Test(atomic, a_report_written_over_another_is_never_seen_in_part, .timeout = 120)
{
    char dir[] = "/tmp/atomic-test-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/report.json", dir);
    json_t *a = big(20000, "big"), *b = big(10, "small");
    char *err = NULL;
    cr_assert_eq(report_write_json(a, path, &err), 0, "%s", err);
    poll_ctx p = {.path = path};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, poller, &p), 0);
    for (int i = 0; i < 40; i++)
        cr_assert_eq(report_write_json(i % 2 ? a : b, path, &err), 0, "%s", err);
    atomic_store(&p.stop, 1);
    pthread_join(t, NULL);
    cr_expect_gt(p.reads, 10, "the reader hardly ran");
    cr_expect_eq(p.bad, 0, "%d of %d reads saw a partial report: %s", p.bad, p.reads, p.why);
    cr_expect_eq(temp_files_in(dir), 0, "a temporary file was left");
    json_decref(a);
    json_decref(b);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(atomic, a_failed_write_leaves_the_old_file_and_no_temporary)
{
    char dir[] = "/tmp/atomic-test-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/r.txt", dir);
    char *err = NULL;
    cr_assert_eq(atomic_write_bytes(path, "old\n", 4, &err), 0, "%s", err);
    atomic_file af;
    cr_assert_eq(atomic_open(&af, path, &err), 0, "%s", err);
    fputs("half of a new", af.f);
    atomic_abort(&af);
    char buf[16] = {0};
    FILE *f = fopen(path, "r");
    cr_assert(f);
    cr_expect_eq(fread(buf, 1, sizeof buf - 1, f), 4);
    fclose(f);
    cr_expect_str_eq(buf, "old\n");
    cr_expect_eq(temp_files_in(dir), 0);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    cr_expect_eq(st.st_mode & 0777, 0666 & ~mask, "mode %o", st.st_mode & 0777);
    /* a folder that does not exist: an error naming the path */
    cr_expect_eq(atomic_write_bytes("/nonexistent-dir/r.txt", "x", 1, &err), -1);
    cr_expect(err && strstr(err, "cannot write '/nonexistent-dir/r.txt'"), "%s", err);
    free(err);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(atomic, render_py_replaces_its_outputs_whole, .timeout = 120)
{
    char dir[] = "/tmp/atomic-test-XXXXXX";
    cr_assert(mkdtemp(dir));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --candidate build/tests/harness_cands/good.so "
             "--cases tests/harness/data/basic --quiet --report-dir %s >/dev/null 2>&1",
             getenv("HARNESS_BIN") ? getenv("HARNESS_BIN") : "build/reshape-conform", dir);
    cr_assert_eq(system(cmd), 0);
    static const char *const names[] = {"report.json", "report.xml", "report.md", "report.html"};
    ino_t before[4];
    for (int i = 0; i < 4; i++) {
        char p[128];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        cr_assert_eq(stat(p, &st), 0, "no %s", p);
        before[i] = st.st_ino;
    }
    cr_assert_eq(system(cmd), 0);
    for (int i = 0; i < 4; i++) {
        char p[128];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        cr_assert_eq(stat(p, &st), 0);
        /* a new inode: renamed over, not rewritten in place */
        cr_expect_neq(st.st_ino, before[i], "%s was rewritten in place", names[i]);
    }
    cr_expect_eq(temp_files_in(dir), 0, "a temporary file was left");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

/* Regression: `--junit /dev/stdout`, stdout a file, once renamed a
 * temporary file over /dev/stdout, replacing the link with a regular file.
 * A target that is no regular file itself is written in place; links stay. */
Test(atomic, a_target_that_is_no_regular_file_is_written_in_place)
{
    char dir[] = "/tmp/atomic-test-XXXXXX";
    cr_assert(mkdtemp(dir));
    char link[64];
    snprintf(link, sizeof link, "%s/out", dir);
    cr_assert_eq(symlink("/dev/null", link), 0);
    char *err = NULL;
    cr_expect_eq(atomic_write_bytes(link, "report\n", 7, &err), 0, "%s", err);
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link was replaced");
    cr_assert_eq(stat("/dev/null", &st), 0);
    cr_expect(S_ISCHR(st.st_mode), "/dev/null is no longer a device");
    cr_expect_eq(temp_files_in(dir), 0, "a temporary file was left");
    /* a link to a regular file, as /dev/stdout is when stdout is one */
    char file[64], link2[64];
    snprintf(file, sizeof file, "%s/file", dir);
    snprintf(link2, sizeof link2, "%s/out2", dir);
    cr_assert_eq(atomic_write_bytes(file, "old\n", 4, &err), 0, "%s", err);
    cr_assert_eq(symlink(file, link2), 0);
    cr_expect_eq(atomic_write_bytes(link2, "new\n", 4, &err), 0, "%s", err);
    cr_assert_eq(lstat(link2, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link to a file was replaced");
    FILE *f = fopen(file, "r");
    char buf[8] = {0};
    cr_assert(f);
    cr_expect_eq(fread(buf, 1, 7, f), 4);
    fclose(f);
    cr_expect_str_eq(buf, "new\n", "the file behind the link was not written");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}
