/*
 * sandbox_path.c - a confined process's paths as it sees them
 * (sandbox_int.h): resolved in its own mount namespace (its scratch tmpfs,
 * the views of its folders), through its root directory
 * (/proc/TID/root) and openat2's RESOLVE_IN_ROOT, named as the kernel
 * names the file found.  Depends on sandbox_int.h and Linux's openat2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox_int.h"

/* The length of the magic link `path` starts with, "/proc/N/cwd" or
 * "/proc/N/fd/K" (a process's working folder, a folder it holds), or 0. */
static size_t magic_base(const char *path)
{
    const char *s = path + 6;
    if (strncmp(path, "/proc/", 6) || *s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9')
        s++;
    if (!strncmp(s, "/cwd", 4) && (s[4] == '/' || !s[4]))
        return (size_t)(s + 4 - path);
    if (strncmp(s, "/fd/", 4) || s[4] < '0' || s[4] > '9')
        return 0;
    for (s += 4; *s >= '0' && *s <= '9'; s++)
        ;
    return *s == '/' || !*s ? (size_t)(s - path) : 0;
}

/* `path` opened O_PATH in the mount namespace of thread `tid` (its last
 * link followed unless `nofollow`); -1 with errno set.  A path from a
 * process's working folder or a folder it holds is walked from there
 * (the magic link opened, then the rest); another one below /proc, shared
 * with the parent, as the parent sees it; any other from the process's
 * root (openat2 refuses magic links under RESOLVE_IN_ROOT). */
static int open_in(pid_t tid, const char *path, int nofollow)
{
    int flags = O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0);
    size_t base = magic_base(path);
    if (base) {
        char link[64];
        snprintf(link, sizeof link, "%.*s", (int)base, path);
        const char *rest = path[base] ? path + base + 1 : ".";
        int dfd = open(link, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
            return -1;
        int fd = openat(dfd, *rest ? rest : ".", flags);
        int e = errno;
        close(dfd);
        errno = e;
        return fd;
    }
    if (!strncmp(path, "/proc/", 6) || !strcmp(path, "/proc"))
        return open(path, flags);
    char root[64];
    snprintf(root, sizeof root, "/proc/%d/root", (int)tid);
    int rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (rfd < 0)
        return -1;
    struct open_how how = {.flags = (uint64_t)flags, .resolve = RESOLVE_IN_ROOT};
    int fd = (int)syscall(SYS_openat2, rfd, path, &how, sizeof how);
    int e = errno;
    close(rfd);
    errno = e;
    return fd;
}

/* The name of the file `fd` holds, into out[PATH_MAX]. */
static int name_of(int fd, char *out)
{
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, PATH_MAX - 1);
    if (n <= 0)
        return -1;
    out[n] = '\0';
    return out[0] == '/' ? 0 : -1;
}

/* realpath of `path` as thread `tid` sees it, into out[PATH_MAX]; the
 * parent's own view where the kernel has no openat2 (before 5.6). */
static int real_in(pid_t tid, const char *path, char *out)
{
    int fd = open_in(tid, path, 0);
    if (fd < 0)
        return errno == ENOSYS && realpath(path, out) ? 0 : -1;
    int rc = name_of(fd, out);
    close(fd);
    return rc;
}

int sandbox_resolve(pid_t tid, const char *full, int follow, char *out)
{
    if (follow)
        return real_in(tid, full, out);
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", full);
    char *slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : dir;
    if (!slash || !*name || !strcmp(name, ".") || !strcmp(name, ".."))
        return real_in(tid, full, out);
    *slash = '\0';
    if (real_in(tid, *dir ? dir : "/", real) != 0)
        return -1;
    return snprintf(out, PATH_MAX, "%s/%s", strcmp(real, "/") ? real : "", name) < PATH_MAX
               ? 0 : -1;
}

int sandbox_exists(pid_t tid, const char *path)
{
    int fd = open_in(tid, path, 1);
    if (fd < 0)
        return errno == ENOSYS && access(path, F_OK) == 0;
    close(fd);
    return 1;
}
