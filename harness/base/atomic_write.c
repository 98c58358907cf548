/*
 * atomic_write.c - temporary file, fsync, rename, fsync of the directory
 * (atomic_write.h).  Depends on libc and util.h.
 */
#include "atomic_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* The directory part of `path` ("." when it has none).  New string. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xasprintf("%.*s", (int)(slash - path), path);
}

/* fsyncs directory `dir` so that a rename in it is on disk; a directory
 * that cannot be opened for that (some file systems) is not an error. */
static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    fsync(fd);
    close(fd);
}

/* Writes straight into `path`, which exists and is no regular file (a
 * link such as /dev/stdout, whose target may well be a regular file the
 * caller holds open; a terminal, a pipe): nothing to replace. */
static int open_in_place(atomic_file *af, const char *path, char **err)
{
    af->f = fopen(path, "wb");
    if (!af->f) {
        *err = xasprintf("cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    af->path = xstrdup(path);
    return 0;
}

int atomic_open(atomic_file *af, const char *path, char **err)
{
    memset(af, 0, sizeof *af);
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return open_in_place(af, path, err);
    const char *slash = strrchr(path, '/');
    char *dir = dir_of(path);
    af->tmp = xasprintf("%s/.%s.XXXXXX", dir, slash ? slash + 1 : path);
    free(dir);
    int fd = mkstemp(af->tmp);
    if (fd < 0) {
        *err = xasprintf("cannot write '%s': %s", path, strerror(errno));
        free(af->tmp);
        af->tmp = NULL;
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    af->f = fdopen(fd, "wb");
    if (!af->f) {
        *err = xasprintf("cannot write '%s': %s", path, strerror(errno));
        close(fd);
        unlink(af->tmp);
        free(af->tmp);
        af->tmp = NULL;
        return -1;
    }
    af->path = xstrdup(path);
    return 0;
}

int atomic_commit(atomic_file *af, char **err)
{
    if (!af->tmp) {             /* written in place (open_in_place) */
        int bad = ferror(af->f) != 0;
        bad |= fclose(af->f) != 0;
        if (bad)
            *err = xasprintf("cannot write '%s': %s", af->path, strerror(errno ? errno : EIO));
        free(af->path);
        memset(af, 0, sizeof *af);
        return bad ? -1 : 0;
    }
    int bad = ferror(af->f) || fflush(af->f) != 0 || fsync(fileno(af->f)) != 0;
    int saved = errno;
    if (fclose(af->f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    af->f = NULL;
    if (!bad && rename(af->tmp, af->path) != 0) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        *err = xasprintf("cannot write '%s': %s", af->path, strerror(saved ? saved : EIO));
        unlink(af->tmp);
    } else {
        char *dir = dir_of(af->path);
        sync_dir(dir);
        free(dir);
    }
    free(af->tmp);
    free(af->path);
    af->tmp = af->path = NULL;
    return bad ? -1 : 0;
}

void atomic_abort(atomic_file *af)
{
    if (af->f)
        fclose(af->f);
    if (af->tmp)
        unlink(af->tmp);
    free(af->tmp);
    free(af->path);
    memset(af, 0, sizeof *af);
}

int atomic_write_bytes(const char *path, const void *data, size_t len, char **err)
{
    atomic_file af;
    if (atomic_open(&af, path, err))
        return -1;
    if (len && fwrite(data, 1, len, af.f) != len) {
        *err = xasprintf("cannot write '%s': %s", path, strerror(errno));
        atomic_abort(&af);
        return -1;
    }
    return atomic_commit(&af, err);
}

int atomic_rename_synced(const char *path, const char *to)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    if (rc != 0) {
        errno = saved;
        return -1;
    }
    if (rename(path, to) != 0)
        return -1;
    char *dir = dir_of(to);
    sync_dir(dir);
    free(dir);
    return 0;
}
