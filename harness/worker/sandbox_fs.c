/*
 * sandbox_fs.c - the Landlock ruleset of a confined process
 * (sandbox_int.h), through Landlock's system calls (no Debian package
 * wraps them).  Landlock only allows: a path no rule covers cannot be
 * read, written, created, renamed, linked or removed.  Depends on
 * sandbox.h and the kernel's Landlock ABI (the constants of ABI 3 to 6
 * are defined here when the system's header predates them).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine_int.h"

#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

/* struct landlock_ruleset_attr as of ABI 6; older kernels take a prefix. */
struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

#define FS_READ (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | \
                 LANDLOCK_ACCESS_FS_READ_DIR)
#define FS_DEV (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
                LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_TRUNCATE | \
                LANDLOCK_ACCESS_FS_IOCTL_DEV)
/* The rights a rule on a file (not a folder) may hold. */
#define FS_FILE (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
                 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
                 LANDLOCK_ACCESS_FS_IOCTL_DEV)

int sandbox_landlock_abi(void)
{
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return v < 0 ? 0 : (int)v;
}

/* Every file access of ABI `abi`. */
static uint64_t fs_handled(int abi)
{
    uint64_t m = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;   /* ABI 1 */
    if (abi >= 2)
        m |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        m |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5)
        m |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return m;
}

typedef struct rules {
    int fd;
    uint64_t handled;
    const sandbox_paths *deny;
} rules;

/* A rule granting `access` on `path` (masked to what a file may hold when
 * it is no folder).  A path that cannot be opened is left out: nothing
 * is granted there. */
static int add_rule(const rules *r, const char *path, uint64_t access)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
        access &= FS_FILE;
    struct landlock_path_beneath_attr a = {.allowed_access = access & r->handled,
                                           .parent_fd = fd};
    int rc = a.allowed_access ? (int)syscall(SYS_landlock_add_rule, r->fd,
                                             LANDLOCK_RULE_PATH_BENEATH, &a, 0) : 0;
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

/* 0: no deny path touches `path`; 1: `path` is one or lies below one; 2:
 * one lies strictly below `path`. */
static int denied(const rules *r, const char *path)
{
    int below = 0;
    for (int i = 0; i < r->deny->n; i++) {
        if (sandbox_path_under(path, r->deny->v[i]))
            return 1;
        below |= sandbox_path_under(r->deny->v[i], path);
    }
    return below ? 2 : 0;
}

/*
 * Grants `access` on `path` less the deny paths: the whole of it when none
 * lies below, else each entry of it but those, recursively (no rule for
 * the folder itself, so it cannot be listed).  Symbolic links in a carved
 * folder get no rule: what they point to is judged by its own.
 */
static int grant(const rules *r, const char *path, uint64_t access)
{
    int d = denied(r, path);
    if (d == 0)
        return add_rule(r, path, access);
    if (d == 1)
        return 0;
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char child[4096];
        struct stat st;
        if (snprintf(child, sizeof child, "%s%s%s", path, strcmp(path, "/") ? "/" : "",
                     e->d_name) >= (int)sizeof child ||
            lstat(child, &st) != 0 || S_ISLNK(st.st_mode))
            continue;
        rc = grant(r, child, access);
    }
    closedir(dir);
    return rc;
}

int sandbox_fs_ruleset(const sandbox_policy *p, int abi)
{
    struct ruleset_attr attr = {.handled_access_fs = fs_handled(abi)};
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
        size += sizeof attr.handled_access_net;
    }
    if (abi >= 6) {
        attr.scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL;
        size += sizeof attr.scoped;
    }
    int fd = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (fd < 0)
        return -1;
    rules r = {fd, attr.handled_access_fs, &p->deny};
    const sandbox_paths none = {NULL, 0};
    rules open_rules = {fd, attr.handled_access_fs, &none};
    int rc = p->candidate ? add_rule(&open_rules, p->candidate, FS_READ) : 0;
    for (int i = 0; rc == 0 && i < p->read.n; i++)
        rc = grant(&r, p->read.v[i], FS_READ);
    /* what the candidate may change is granted whole, deny paths or not:
     * the user named it (or it is the scratch folder); no device node can
     * be made there (a root that kept its uid could reach a disk) */
    uint64_t change = attr.handled_access_fs &
                      ~(uint64_t)(LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK);
    rc = rc ? rc : add_rule(&open_rules, p->scratch, change);
    for (int i = 0; rc == 0 && i < p->write.n; i++)
        rc = add_rule(&open_rules, p->write.v[i], change);
    for (int i = 0; rc == 0 && i < p->dev.n; i++)
        rc = add_rule(&open_rules, p->dev.v[i], FS_DEV);
    if (rc != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int sandbox_fs_restrict(int fd)
{
    int rc = (int)syscall(SYS_landlock_restrict_self, fd, 0);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}
