/*
 * sandbox_mount.c - what a confined process gets of the file system
 * besides Landlock (sandbox_int.h): its scratch folder as a size-limited
 * tmpfs of a mount namespace of its own, which goes with the last process
 * in it (a chain of folders too deep to remove by path, or a disk filled,
 * stays in memory the run bounds and frees); and the candidate opened
 * before root is dropped, loaded through that descriptor (sandbox.h,
 * sandbox_load_path), so that no capability is kept to reach it.
 * Depends on sandbox_int.h and Linux's mount calls.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confine_int.h"

int sandbox_scratch_mount(const sandbox_policy *p)
{
    if (!p->scratch_bytes)
        return 0;
    if (unshare(CLONE_NEWNS) != 0)
        return 0;
    /* nothing mounted here reaches the harness's namespace */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return -1;
    unsigned uid = p->drop ? (unsigned)p->uid : (unsigned)geteuid();
    unsigned gid = p->drop ? (unsigned)p->gid : (unsigned)getegid();
    char opts[160];
    snprintf(opts, sizeof opts, "size=%llu,nr_inodes=%u,mode=0700,uid=%u,gid=%u",
             (unsigned long long)p->scratch_bytes, SANDBOX_SCRATCH_INODES, uid, gid);
    if (mount("reshape-scratch", p->scratch, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
        return -1;
    return chdir(p->scratch) == 0 ? 1 : -1;
}

/* 1 when `uid`, `gid` (no other group) may search every folder from the
 * root to `dir`, `dir` included, by their mode bits. */
static int reachable(const char *dir, uid_t uid, gid_t gid)
{
    char part[PATH_MAX];
    struct stat st;
    snprintf(part, sizeof part, "%s", dir);
    size_t n = strlen(part);
    for (size_t i = 1; i <= n; i++) {
        if (part[i] != '/' && part[i] != '\0')
            continue;
        char kept = part[i];
        part[i] = '\0';
        int ok = stat(part, &st) == 0 &&
                 (st.st_mode & (st.st_uid == uid ? S_IXUSR : st.st_gid == gid ? S_IXGRP
                                                                              : S_IXOTH));
        part[i] = kept;
        if (!ok)
            return 0;
    }
    return 1;
}

/* The first folder from the root on the way to `dir` (itself at the
 * latest) that uid, gid cannot search, into top[PATH_MAX]. */
static void first_closed(const char *dir, uid_t uid, gid_t gid, char *top)
{
    snprintf(top, PATH_MAX, "%s", dir);
    for (char *slash = strchr(top + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (!reachable(top, uid, gid))
            return;
        *slash = '/';
    }
}

/* Mounts what `fd` (an O_PATH descriptor) holds on `target` (an empty
 * file or folder made for it). */
static int bind_fd(int fd, const char *target)
{
    char from[64];
    snprintf(from, sizeof from, "/proc/self/fd/%d", fd);
    return mount(from, target, NULL, MS_BIND | MS_REC, NULL);
}

/* A tmpfs, searchable by all, on `where`. */
static int open_tmpfs(const char *where)
{
    return mount("reshape-view", where, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755");
}

/* `dir`'s entries, through its descriptor `dfd`, into the tmpfs now on
 * `dir`: files and folders bound in place, symbolic links made again. */
static int fill_view(int dfd, const char *dir)
{
    int again = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = again >= 0 ? fdopendir(again) : NULL;
    if (!d) {
        if (again >= 0)
            close(again);
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        char target[PATH_MAX], link[PATH_MAX];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            snprintf(target, sizeof target, "%s/%s", dir, e->d_name) >= (int)sizeof target)
            continue;
        if (S_ISLNK(st.st_mode)) {
            ssize_t n = readlinkat(dfd, e->d_name, link, sizeof link - 1);
            if (n > 0) {
                link[n] = '\0';
                rc = symlink(link, target);
            }
            continue;
        }
        if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            continue;
        int fd = openat(dfd, e->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        int made = S_ISDIR(st.st_mode) ? mkdir(target, 0755)
                                       : close(open(target, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
        rc = fd < 0 || made != 0 ? -1 : bind_fd(fd, target);
        if (fd >= 0)
            close(fd);
    }
    closedir(d);
    return rc;
}

/* mkdir -p of `dir` (absolute), each new folder 0755. */
static int make_path(const char *dir)
{
    char part[PATH_MAX];
    snprintf(part, sizeof part, "%s", dir);
    for (char *slash = strchr(part + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(part, 0755) != 0 && errno != EEXIST)
            return -1;
        *slash = '/';
    }
    return mkdir(part, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/*
 * Makes folder `dir` of the policy reachable for uid, gid in this mount
 * namespace: a tmpfs on the first folder on its way they cannot search
 * (what else is there is hidden: a view, not a change of the disk), the
 * way down to `dir` made in it, `dir` bound there when they may search
 * it, else a view of its entries.  0, or -1 with errno set.
 */
static int open_view(const char *dir, uid_t uid, gid_t gid)
{
    char top[PATH_MAX];
    first_closed(dir, uid, gid, top);
    int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return 0;   /* no such folder: nothing to show */
    struct stat st;
    int own = fstat(dfd, &st) == 0 &&
              (st.st_mode & (st.st_uid == uid ? S_IXUSR : st.st_gid == gid ? S_IXGRP : S_IXOTH));
    /* a folder closed at the same place as one before shares its tmpfs */
    static char tops[16][PATH_MAX];
    static int ntops;
    int seen = 0;
    for (int i = 0; i < ntops && !seen; i++)
        seen = !strcmp(tops[i], top);
    int rc = seen ? 0 : open_tmpfs(top);
    if (rc == 0 && !seen && ntops < 16)
        snprintf(tops[ntops++], PATH_MAX, "%s", top);
    if (rc == 0 && strcmp(top, dir))
        rc = make_path(dir);
    if (rc == 0) {
        if (!strcmp(top, dir))      /* the folder itself is closed: the tmpfs on it */
            rc = fill_view(dfd, dir);
        else if (own)
            rc = bind_fd(dfd, dir);
        else
            rc = open_tmpfs(dir) == 0 ? fill_view(dfd, dir) : -1;
    }
    int e = errno;
    close(dfd);
    errno = e;
    return rc;
}

int sandbox_open_views(const sandbox_policy *p)
{
    if (p->drop != SANDBOX_DROP_FD)
        return 0;
    for (int i = 0; i < p->read.n; i++) {
        struct stat st;
        const char *dir = p->read.v[i];
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || reachable(dir, p->uid, p->gid))
            continue;
        if (open_view(dir, p->uid, p->gid) != 0)
            return -1;
    }
    return 0;
}

int sandbox_candidate_fd(const sandbox_policy *p)
{
    if (p->drop != SANDBOX_DROP_FD || !p->candidate)
        return -1;
    return open(p->candidate, O_RDONLY | O_CLOEXEC);
}

const char *sandbox_load_path(const sandbox_facts *facts, const char *candidate, char *buf,
                              size_t size)
{
    if (!facts || facts->candidate_fd < 0)
        return candidate;
    snprintf(buf, size, "/proc/self/fd/%d", facts->candidate_fd);
    return buf;
}
