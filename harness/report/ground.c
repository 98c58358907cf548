/*
 * ground.c - the files a run stands on, hashed before and after (ground.h).
 * Depends on report.h (sha256_file), util.h, POSIX.
 */
#include "ground.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"
#include "report.h"

void ground_add(ground *g, const char *path)
{
    for (int i = 0; i < g->nfiles; i++)
        if (!strcmp(g->files[i].path, path))
            return;
    g->files = xrealloc(g->files, (size_t)(g->nfiles + 1) * sizeof *g->files);
    ground_file *f = &g->files[g->nfiles++];
    f->path = xstrdup(path);
    if (sha256_file(path, f->sha256) != 0)
        f->sha256[0] = '\0';
}

void ground_add_dir(ground *g, const char *dir)
{
    g->dirs = xrealloc(g->dirs, (size_t)(g->ndirs + 1) * sizeof *g->dirs);
    g->dirs[g->ndirs++] = xstrdup(dir);
}

static int known(const ground *g, const char *path)
{
    for (int i = 0; i < g->nfiles; i++)
        if (!strcmp(g->files[i].path, path))
            return 1;
    return 0;
}

/* The first *.yaml below `dir` that `g` does not know (new string), or
 * NULL. */
static char *stranger(const ground *g, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *path = path_join(dir, e->d_name);
        struct stat st;
        size_t n = strlen(e->d_name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            found = stranger(g, path);
        else if (n > 5 && !strcmp(e->d_name + n - 5, ".yaml") && !known(g, path))
            found = xstrdup(path);
        free(path);
    }
    closedir(d);
    return found;
}

char *ground_changed(const ground *g)
{
    for (int i = 0; i < g->nfiles; i++) {
        const ground_file *f = &g->files[i];
        char now[65];
        if (sha256_file(f->path, now) != 0)
            now[0] = '\0';
        if (!strcmp(now, f->sha256))
            continue;
        if (!f->sha256[0])
            return xasprintf("the file '%s' appeared during the run", f->path);
        if (!now[0])
            return xasprintf("the file '%s' went or became unreadable during the run", f->path);
        return xasprintf("the file '%s' changed during the run (sha256 %.12s... before, "
                         "%.12s... after)", f->path, f->sha256, now);
    }
    for (int i = 0; i < g->ndirs; i++) {
        char *path = stranger(g, g->dirs[i]);
        if (path) {
            char *m = xasprintf("the case file '%s' appeared during the run", path);
            free(path);
            return m;
        }
    }
    return NULL;
}

void ground_free(ground *g)
{
    for (int i = 0; i < g->nfiles; i++)
        free(g->files[i].path);
    for (int i = 0; i < g->ndirs; i++)
        free(g->dirs[i]);
    free(g->files);
    free(g->dirs);
    g->files = NULL;
    g->dirs = NULL;
    g->nfiles = g->ndirs = 0;
}
