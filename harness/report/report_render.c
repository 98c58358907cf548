/*
 * report_render.c - the report directory and the Python renderers of
 * reports/ (report.h).  Depends on util.h and POSIX.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "report.h"

extern char **environ;

int report_make_dirs(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        mkdir(p, 0777);
        *s = '/';
    }
    int rc = mkdir(p, 0777) == 0 || errno == EEXIST ? 0 : -1;
    free(p);
    return rc;
}

void report_render(const char *script, const char *json_path, const char *dir)
{
    char *path = xasprintf("%s/reports/%s", source_dir(), script);
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "reshape-conform: no renderer at '%s': wrote the JSON and XML only\n",
                path);
        free(path);
        return;
    }
    char *argv[] = {"/usr/bin/python3", path, (char *)json_path, "--out", (char *)dir, NULL};
    pid_t pid;
    fflush(stdout);
    int rc = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);
    int st = 0;
    if (rc == 0)
        waitpid(pid, &st, 0);
    if (rc != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        warn("rendering '%s' with '%s' failed", json_path, path);
    free(path);
}
