/*
 * sandbox_reach.c - what the observer makes of a confined process reaching
 * past its own (sandbox_int.h): another process's /proc entries, a file
 * its uid may not open, a Unix socket that is not its own, an address of
 * a family no network has.  Each is refused by the kernel (the dropped
 * uid, Landlock, the empty network namespace, ptrace's access check) and
 * each is an act that stops the worker: the report names it.
 * Depends on sandbox_int.h, util.h, POSIX.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/base.h"
#include "sandbox_int.h"

/* The harness's child that process `pid` is or descends from (a worker,
 * a zygote), or -1 when the chain cannot be read or leads elsewhere. */
static pid_t top_of(pid_t pid)
{
    pid_t self = getpid(), p = pid;
    for (int depth = 0; depth < 64 && p > 1; depth++) {
        pid_t up = sandbox_proc_field(p, "PPid:");
        if (up == self)
            return p;
        p = up;
    }
    return -1;
}

/* The process /proc/N of `path` names: N, or 0 when `path` is no entry of
 * a process. */
static pid_t proc_entry(const char *path)
{
    if (strncmp(path, "/proc/", 6) || path[6] < '1' || path[6] > '9')
        return 0;
    char *end;
    long n = strtol(path + 6, &end, 10);
    return (*end == '/' || !*end) && n > 0 && n <= INT_MAX ? (pid_t)n : 0;
}

/* 1 when the caller's process is `pid`, or `pid` is one of its threads or
 * a process of the same worker (what the candidate started). */
static int own_process(pid_t caller_tid, pid_t pid)
{
    pid_t caller = sandbox_proc_field(caller_tid, "Tgid:");
    pid_t target = sandbox_proc_field(pid, "Tgid:");
    if (caller <= 0 || target <= 0)
        return 1;   /* gone: the kernel answers ENOENT */
    if (caller == target)
        return 1;
    pid_t top = top_of(caller);
    return top > 0 && top == top_of(target);
}

/* 1 when `uid`, `gid` (no other group) may open `path` for `acc`: every
 * folder on the way searchable, the file readable or writable by its mode
 * bits (access control lists aside). */
static int dac_allows(const char *path, uid_t uid, gid_t gid, int acc)
{
    char dir[PATH_MAX];
    struct stat st;
    snprintf(dir, sizeof dir, "%s", path);
    for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int ok = stat(dir, &st) != 0 ||
                 (st.st_mode & (st.st_uid == uid ? S_IXUSR : st.st_gid == gid ? S_IXGRP
                                                                              : S_IXOTH));
        *slash = '/';
        if (!ok)
            return 0;
    }
    if (stat(path, &st) != 0)
        return 1;
    mode_t r = st.st_uid == uid ? S_IRUSR : st.st_gid == gid ? S_IRGRP : S_IROTH;
    mode_t w = st.st_uid == uid ? S_IWUSR : st.st_gid == gid ? S_IWGRP : S_IWOTH;
    return (acc == O_WRONLY || (st.st_mode & r)) && (acc == O_RDONLY || (st.st_mode & w));
}

/* 1 when `path` lies in a folder of the policy that is closed to uid,
 * gid on the disk: the confined process sees a view of it that is open
 * (sandbox_open_views), so its mode bits there are not the disk's. */
static int in_view(const sandbox_policy *p, const char *path)
{
    for (int i = 0; i < p->read.n; i++)
        if (sandbox_path_under(path, p->read.v[i]) && strcmp(p->read.v[i], "/") &&
            !dac_allows(p->read.v[i], p->uid, p->gid, O_RDONLY))
            return 1;
    return 0;
}

static const char *how(int acc)
{
    return acc == O_RDONLY ? "read" : acc == O_WRONLY ? "write" : "read and write";
}

act_outcome sandbox_reach_proc(pid_t tid, const char *path, int acc, char *what)
{
    pid_t other = proc_entry(path);
    if (!other || own_process(tid, other))
        return ACT_ALLOWED;
    snprintf(what, SANDBOX_ACT_BYTES, "%s %.*s (another process's)", how(acc),
             SANDBOX_ACT_BYTES - 40, path);
    return ACT_STOP;
}

act_outcome sandbox_reach_closed(const sandbox_policy *p, const char *path, int acc,
                                 char *what)
{
    if (p->drop == SANDBOX_DROP_NONE || (p->candidate && !strcmp(path, p->candidate)) ||
        sandbox_path_under(path, "/proc") || sandbox_path_under(path, "/sys") ||
        sandbox_path_under(path, "/dev") || dac_allows(path, p->uid, p->gid, acc) ||
        in_view(p, path))
        return ACT_ALLOWED;
    char *shown = path_from_cwd(path);
    snprintf(what, SANDBOX_ACT_BYTES, "%s %.*s (closed to uid %u)", how(acc),
             SANDBOX_ACT_BYTES - 40, shown, (unsigned)p->uid);
    free(shown);
    return ACT_STOP;
}

/* `name` (n bytes, not terminated) as printable ASCII, into out[size]. */
static void printable(const char *name, size_t n, char *out, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < size; i++)
        out[k++] = name[i] > 0x20 && name[i] < 0x7f ? name[i] : '?';
    out[k] = '\0';
}

/* A Unix socket's address: its own in the scratch folder, one that is not
 * there (the kernel answers ENOENT: glibc asks for nscd that way) and an
 * unnamed one pass; an abstract name (Landlock ABI 6 scopes it, the
 * namespace of the socket's network has it) or another path stops. */
static act_outcome unix_address(const sandbox_policy *p, pid_t tid, const char *verb,
                                const struct sockaddr_un *un, socklen_t len, char *what)
{
    size_t off = offsetof(struct sockaddr_un, sun_path);
    if (len <= off)
        return ACT_ALLOWED;
    size_t n = (size_t)len - off;
    char name[120];
    if (un->sun_path[0] == '\0') {
        printable(un->sun_path + 1, n - 1, name, sizeof name);
        snprintf(what, SANDBOX_ACT_BYTES, "%s the abstract Unix socket @%s", verb, name);
        return ACT_STOP;
    }
    char raw[sizeof un->sun_path + 1], full[PATH_MAX + 64], real[PATH_MAX];
    snprintf(raw, sizeof raw, "%.*s", (int)(n < sizeof un->sun_path ? n : sizeof un->sun_path),
             un->sun_path);
    if (raw[0] == '/')
        snprintf(full, sizeof full, "%s", raw);
    else
        snprintf(full, sizeof full, "/proc/%d/cwd/%s", (int)tid, raw);
    if (!realpath(full, real) || sandbox_path_under(real, p->scratch))
        return ACT_ALLOWED;
    char *shown = path_from_cwd(real);
    snprintf(what, SANDBOX_ACT_BYTES, "%s the Unix socket %.*s", verb, SANDBOX_ACT_BYTES - 60,
             shown);
    free(shown);
    return ACT_STOP;
}

act_outcome sandbox_reach_send(const sandbox_policy *p, pid_t tid, const char *call,
                               const char *verb, const struct sockaddr_storage *sa, unsigned len,
                               char *what)
{
    if (sa->ss_family == AF_UNIX)
        return unix_address(p, tid, verb, (const struct sockaddr_un *)sa, len, what);
    /* netlink is local; connect(AF_UNSPEC) dissolves an association */
    if (sa->ss_family == AF_NETLINK || (sa->ss_family == AF_UNSPEC && !strcmp(call, "connect")))
        return ACT_ALLOWED;
    snprintf(what, SANDBOX_ACT_BYTES, "%s an address of family %s (%d)", verb,
             sa->ss_family == AF_UNSPEC ? "AF_UNSPEC" : "another", (int)sa->ss_family);
    return ACT_STOP;
}
