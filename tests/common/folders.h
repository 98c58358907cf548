/*
 * folders.h - what the test binaries ask of a folder and put in it
 * (tests/harness, tests/broken and tests/bench share it).  Depends on
 * Criterion and POSIX dirent.
 */
#ifndef TESTS_COMMON_FOLDERS_H
#define TESTS_COMMON_FOLDERS_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* 1 when folder `dir` holds nothing (fails the test when it cannot be
 * read). */
static inline int dir_is_empty(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot read the folder '%s'", dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n == 0;
}

/* Writes `text` to the file `dir`/`name` (fails the test when it cannot). */
static inline void put_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "cannot write %s", path);
}

#endif
