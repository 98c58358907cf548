/*
 * verify_views.c - a bundle's JUnit, Markdown and HTML views against its
 * JSON report (verify.h, views_check): each is rendered again from
 * report.json, with report_write_junit() and reports/render.py, the code
 * `run` renders them with, and compared byte for byte when the bundle was
 * made by a harness of this one's commit (a note otherwise).  Depends on
 * jansson, bundle.h, report.h, util.h.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "report/report.h"
#include "verify.h"

extern char **environ;

/* The line (from 1) where `a` and `b` first differ. */
static long first_diff_line(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
    long line = 1;
    for (size_t i = 0; i < na && i < nb && a[i] == b[i]; i++)
        line += a[i] == '\n';
    return line;
}

/* The commit of the harness that wrote `report` (suite.git_commit) when it
 * is not this harness's own, else NULL: views rendered by another commit may
 * differ from this one's rendering for reasons of the renderer alone (a view
 * changed its format), which is no problem of the bundle. */
static const char *other_commit(json_t *report)
{
    const char *theirs =
        json_string_value(json_object_get(json_object_get(report, "suite"), "git_commit"));
    char *mine = suite_commit();
    int same = theirs && strcmp(mine, "unknown") && !strcmp(theirs, mine);
    free(mine);
    return same ? NULL : theirs ? theirs : "unknown";
}

/* Member `name` against the file at `path`: a `problem` when they differ,
 * a note when the bundle was made by a harness of another commit
 * (`other`, or NULL). */
static void compare(checker *k, const bundle *b, const char *name, const char *path,
                    const char *problem, const char *other)
{
    const bundle_member *m = bundle_get(b, name);
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        die(EXIT_HARNESS, "cannot read '%s': %s", path, strerror(errno));
    long line = first_diff_line(m->data, m->size, (unsigned char *)text, len);
    if ((len != m->size || memcmp(text, m->data, len)) && other)
        printf("note: %s is not what this harness renders from report.json (first difference "
               "on line %ld), which a harness of commit %.12s wrote: not compared\n", name, line,
               other);
    else if (len != m->size || memcmp(text, m->data, len))
        verify_problem(k, problem, "%s is not what report.json renders (first difference on "
                       "line %ld)", name, line);
    free(text);
}

/* Runs reports/render.py `script` on DIR/report.json; nonzero on failure. */
static int render(const char *script, const char *dir)
{
    char *json = xasprintf("%s/report.json", dir);
    char *argv[] = {"/usr/bin/python3", (char *)script, json, "--out", (char *)dir, NULL};
    pid_t pid;
    int st = 0;
    fflush(stdout);
    int rc = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);
    if (rc == 0)
        waitpid(pid, &st, 0);
    free(json);
    return rc != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}

void views_check(checker *k, const bundle *b, json_t *report)
{
    const char *tmpdir = getenv("TMPDIR");
    char *dir = xasprintf("%s/reshape-verify-%c%c%c%c%c%c", tmpdir && *tmpdir ? tmpdir : "/tmp",
                          'X', 'X', 'X', 'X', 'X', 'X');
    if (!mkdtemp(dir))
        die(EXIT_HARNESS, "cannot create a folder '%s': %s", dir, strerror(errno));
    static const char *const files[] = {"report.json", "report.xml", "report.md", "report.html"};
    char *paths[4];
    for (int i = 0; i < 4; i++)
        paths[i] = xasprintf("%s/%s", dir, files[i]);
    char *err = NULL;
    const char *other = other_commit(report);
    if (bundle_get(b, "report.xml")) {
        if (report_write_junit(report, paths[1], &err))
            die(EXIT_HARNESS, "%s", err);
        compare(k, b, "report.xml", paths[1], "junit-mismatch", other);
    }
    int md = bundle_get(b, "report.md") != NULL, html = bundle_get(b, "report.html") != NULL;
    char *script = xasprintf("%s/reports/render.py", source_dir());
    const bundle_member *rj = bundle_get(b, "report.json");
    if ((md || html) && access(script, R_OK) != 0) {
        printf("note: no renderer at '%s': report.md and report.html not checked\n", script);
    } else if (md || html) {
        FILE *f = fopen(paths[0], "wb");
        if (!f || fwrite(rj->data, 1, rj->size, f) != rj->size || fclose(f) != 0)
            die(EXIT_HARNESS, "cannot write '%s'", paths[0]);
        if (render(script, dir)) {
            verify_problem(k, "render-failed", "reports/render.py cannot render report.json");
        } else {
            if (md)
                compare(k, b, "report.md", paths[2], "markdown-mismatch", other);
            if (html)
                compare(k, b, "report.html", paths[3], "html-mismatch", other);
        }
    }
    for (int i = 0; i < 4; i++) {
        remove(paths[i]);
        free(paths[i]);
    }
    if (rmdir(dir) != 0)
        warn("cannot remove '%s': %s", dir, strerror(errno));
    free(script);
    free(dir);
}
