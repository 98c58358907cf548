/*
 * atomic_write.h - files replaced whole or not at all: written to a
 * temporary file in the same directory, flushed to disk (fsync), then
 * renamed over the target, and the directory synced.  A reader (or a
 * crash, or a kill) sees the old file or the new one, never a part.
 * Every report file goes through this.  Depends on libc only.
 */
#ifndef HARNESS_ATOMIC_WRITE_H
#define HARNESS_ATOMIC_WRITE_H

#include <stdio.h>

typedef struct atomic_file {
    FILE *f;        /* write here between atomic_open and atomic_commit */
    char *path;     /* the target */
    char *tmp;      /* DIR/.NAME.XXXXXX, removed unless committed */
} atomic_file;

/*
 * Opens a temporary file beside `path` (same directory, so that rename is
 * atomic), with the mode a plain fopen would give (0666 less the umask).
 * A target that exists and is no regular file itself (a symbolic link
 * such as /dev/stdout, a terminal, a pipe) is written in place instead:
 * renaming over it would replace the link or the device.  Returns 0, or -1 with *err set
 * ("cannot write 'PATH': REASON", new string) when the directory cannot
 * take a file.
 */
int atomic_open(atomic_file *af, const char *path, char **err);

/*
 * Flushes, fsyncs and closes the temporary file, renames it over the
 * target and fsyncs the directory.  Returns 0, or -1 with *err set (new
 * string) after removing the temporary file: the target is then as it was.
 * Frees what atomic_open allocated either way.
 */
int atomic_commit(atomic_file *af, char **err);

/* Closes and removes the temporary file; the target is untouched. */
void atomic_abort(atomic_file *af);

/* Writes `len` bytes of `data` to `path` atomically; 0, or -1 with *err
 * set (new string). */
int atomic_write_bytes(const char *path, const void *data, size_t len, char **err);

/* fsyncs the file at `path`, then renames it to `to` and fsyncs the
 * directory of `to` (for files written by a library that names its own
 * output, such as libarchive).  0, or -1 with errno set. */
int atomic_rename_synced(const char *path, const char *to);

#endif
