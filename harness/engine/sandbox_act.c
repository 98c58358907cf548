/*
 * sandbox_act.c - what the observer makes of one observed call
 * (sandbox_int.h): the calls, their paths and addresses read from the
 * confined process (process_vm_readv, its /proc entries), and whether the
 * kernel's layers refuse it as the policy says, and how much that
 * matters.  The observer only judges what it reads; a process that
 * changes its arguments between the read and the kernel's own can hide an
 * act from the report, never get it through: the kernel decides on its
 * own copy (Landlock, the network namespace, the seccomp answer).
 * Depends on sandbox_int.h (the calls: sandbox_calls.c), util.h, POSIX.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/seccomp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/base.h"
#include "sandbox_int.h"

/* ------------------------------------------------------------ reading */

static int read_mem(pid_t tid, uint64_t addr, void *buf, size_t n)
{
    struct iovec local = {buf, n}, remote = {(void *)(uintptr_t)addr, n};
    return process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)n ? 0 : -1;
}

/* The NUL-terminated string at `addr`, page by page (the next page may
 * not be mapped); cut to `size` - 1 bytes.  0, or -1. */
static int read_str(pid_t tid, uint64_t addr, char *buf, size_t size)
{
    size_t got = 0;
    while (got + 1 < size) {
        size_t page_left = 4096 - (size_t)((addr + got) % 4096);
        size_t want = size - 1 - got < page_left ? size - 1 - got : page_left;
        struct iovec local = {buf + got, want}, remote = {(void *)(uintptr_t)(addr + got), want};
        ssize_t r = process_vm_readv(tid, &local, 1, &remote, 1, 0);
        if (r <= 0)
            return -1;
        if (memchr(buf + got, '\0', (size_t)r))
            return 0;
        got += (size_t)r;
    }
    buf[size - 1] = '\0';
    return 0;
}

/* The thread group of thread `tid` (its process), from /proc. */
static pid_t tgid_of(pid_t tid)
{
    pid_t tgid = sandbox_proc_field(tid, "Tgid:");
    return tgid > 0 ? tgid : tid;
}

/* For "/proc/NAME..." where /proc/NAME is a link into the caller's own
 * entries (/proc/mounts is "self/mounts", /proc/net "self/net"), which the
 * parent would follow into its own: the same path through /proc/TGID of
 * thread `tid`, into out.  1 when `path` was one, else 0 (out untouched). */
static int proc_self_link(pid_t tid, const char *path, char *out, size_t size)
{
    size_t len = strcspn(path + 6, "/");
    char link[64], target[128];
    if (strncmp(path, "/proc/", 6) || len == 0 || len > 32)
        return 0;
    snprintf(link, sizeof link, "%.*s", (int)(6 + len), path);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 5)
        return 0;
    target[n] = '\0';
    if (strncmp(target, "self/", 5))
        return 0;
    return snprintf(out, size, "/proc/%d/%s%s", (int)tgid_of(tid), target + 5,
                    path + 6 + len) < (int)size;
}

/*
 * The path of arguments (dirfd, path) of `req` as the process sees it,
 * absolute: a relative one from its working folder or the folder `dirfd`
 * holds (through /proc/TID/cwd and /proc/TID/fd/N), /proc/self, and the
 * links of /proc into it (proc_self_link), as its own; no path argument:
 * the file the fd holds.  0, or -1.
 */
static int full_path(const struct seccomp_notif *req, int dirfd_arg, int path_arg, char *out,
                     size_t size)
{
    char path[PATH_MAX] = "";
    pid_t tid = (pid_t)req->pid;
    /* a NULL path with a dirfd (utimensat) is the fd's own file */
    if (path_arg >= 0 && (req->data.args[path_arg] || dirfd_arg < 0) &&
        read_str(tid, req->data.args[path_arg], path, sizeof path) != 0)
        return -1;
    if (path[0] == '/') {
        const char *rest = NULL;
        char self[64];
        if (!strncmp(path, "/proc/self", 10) && (path[10] == '/' || !path[10])) {
            rest = path + 10;
            snprintf(self, sizeof self, "/proc/%d", (int)tgid_of(tid));
        } else if (!strncmp(path, "/proc/thread-self", 17) && (path[17] == '/' || !path[17])) {
            rest = path + 17;
            snprintf(self, sizeof self, "/proc/%d/task/%d", (int)tgid_of(tid), (int)tid);
        }
        if (rest)
            return snprintf(out, size, "%s%s", self, rest) < (int)size ? 0 : -1;
        if (proc_self_link(tid, path, out, size))
            return 0;
        return snprintf(out, size, "%s", path) < (int)size ? 0 : -1;
    }
    int dirfd = dirfd_arg >= 0 ? (int)req->data.args[dirfd_arg] : AT_FDCWD;
    char base[64];
    if (dirfd == AT_FDCWD)
        snprintf(base, sizeof base, "/proc/%d/cwd", (int)tid);
    else
        snprintf(base, sizeof base, "/proc/%d/fd/%d", (int)tid, dirfd);
    return snprintf(out, size, "%s%s%s", base, path[0] ? "/" : "", path) < (int)size ? 0 : -1;
}

/* ------------------------------------------------------------ judging */

static int under_any(const char *path, const sandbox_paths *l)
{
    for (int i = 0; i < l->n; i++)
        if (sandbox_path_under(path, l->v[i]))
            return 1;
    return 0;
}

static int may_change(const sandbox_policy *p, const char *path)
{
    return sandbox_path_under(path, p->scratch) || under_any(path, &p->write) ||
           under_any(path, &p->dev);
}

static int may_read(const sandbox_policy *p, const char *path)
{
    return may_change(p, path) || (p->candidate && !strcmp(path, p->candidate)) ||
           (under_any(path, &p->read) && !under_any(path, &p->deny));
}

/* /proc, /sys, /dev: no file on a disk. */
static int pseudo(const char *path)
{
    return sandbox_path_under(path, "/proc") || sandbox_path_under(path, "/sys") ||
           sandbox_path_under(path, "/dev");
}

/* Named like a key or a credential. */
static int key_like(const char *path)
{
    static const char *const suffixes[] = {".pem", ".key", ".p12", ".pfx", ".jks", ".gpg"};
    static const char *const prefixes[] = {"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519",
                                           ".netrc", ".pgpass", "credentials"};
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && !strcmp(name + n - k, suffixes[i]))
            return 1;
    }
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
            return 1;
    return 0;
}

static int secret(const sandbox_policy *p, const char *path)
{
    return under_any(path, &p->deny) || under_any(path, &p->secret) || key_like(path);
}

/* `path` as a report shows it: from the working folder when below it. */
static void put_path(char *what, const char *fmt, const char *path, const char *path2)
{
    char *a = path_from_cwd(path), *b = path2 ? path_from_cwd(path2) : NULL;
    snprintf(what, SANDBOX_ACT_BYTES, fmt, a, b);
    free(a);
    free(b);
}

/* A refused change of `path`: the worker stops unless it is no file. */
static act_outcome changed(const char *path)
{
    return pseudo(path) ? ACT_NOTE : ACT_STOP;
}

/*
 * Nonzero when `path` is the name file of a thread of process `tgid`:
 * "/proc/TGID/comm" or "/proc/TGID/task/TID/comm".  Runtimes name their
 * threads (pthread_setname_np: the CUDA driver fails cuInit when it
 * cannot), and Landlock cannot grant a forked worker its own /proc entry.
 */
static int own_name_file(const char *path, pid_t tgid)
{
    char head[32];
    int n = snprintf(head, sizeof head, "/proc/%d/", (int)tgid);
    if (strncmp(path, head, (size_t)n))
        return 0;
    const char *rest = path + n;
    if (!strcmp(rest, "comm"))
        return 1;
    if (strncmp(rest, "task/", 5))
        return 0;
    rest += 5;
    if (*rest < '0' || *rest > '9')
        return 0;
    while (*rest >= '0' && *rest <= '9')
        rest++;
    return !strcmp(rest, "/comm");
}

int sandbox_act_open_own_name(int listener, const struct seccomp_notif *req, const char *what)
{
    /* `what` is "name PATH": the path judge_open resolved */
    const char *path = what + 5;
    if (strncmp(what, "name ", 5) || !own_name_file(path, tgid_of((pid_t)req->pid)))
        return -1;
    /* read and write, as glibc's pthread_setname_np opens it */
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -1;
    struct seccomp_notif_addfd add = {
        .id = req->id, .flags = SECCOMP_ADDFD_FLAG_SEND, .srcfd = (uint32_t)fd,
        .newfd = 0, .newfd_flags = O_CLOEXEC};
    int rc = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add) >= 0 ? 0 : -1;
    close(fd);
    return rc;
}

static act_outcome judge_open(const sandbox_policy *p, const struct seccomp_notif *req,
                              const act_call *c, const char *full, char *what)
{
    pid_t tid = (pid_t)req->pid;
    uint64_t flags = c->flags >= 0 ? req->data.args[c->flags]
                     : c->flags == -2 ? (uint64_t)(O_CREAT | O_WRONLY | O_TRUNC) : 0;
    if (c->flags == -3 && read_mem((pid_t)req->pid, req->data.args[2], &flags, sizeof flags))
        return ACT_ALLOWED;
    if (flags & O_PATH)
        return ACT_ALLOWED;
    int acc = (int)(flags & O_ACCMODE);
    char path[PATH_MAX];
    if (sandbox_resolve(tid, full, !(flags & O_NOFOLLOW), path) != 0) {
        if (!(flags & O_CREAT) || sandbox_resolve(tid, full, 0, path) != 0 || may_change(p, path))
            return ACT_ALLOWED;
        put_path(what, "create %s", path, NULL);
        return changed(path);
    }
    act_outcome reach = sandbox_reach_proc(tid, path, acc, what);
    if (reach != ACT_ALLOWED)
        return reach;
    if (acc != O_RDONLY &&
        own_name_file(path, tgid_of((pid_t)req->pid))) {
        snprintf(what, SANDBOX_ACT_BYTES, "name %.*s", SANDBOX_ACT_BYTES - 6, path);
        return ACT_OWN_NAME;
    }
    if ((acc != O_RDONLY || (flags & O_TRUNC)) && !may_change(p, path)) {
        put_path(what, "open %s for writing", path, NULL);
        return changed(path);
    }
    if (acc != O_WRONLY && !may_read(p, path)) {
        put_path(what, "read %s", path, NULL);
        return secret(p, path) ? ACT_STOP : ACT_NOTE;
    }
    return sandbox_reach_closed(p, path, acc, what);
}

/* The address of a connect, sendto, sendmsg or sendmmsg: 0 and its bytes
 * in *sa (*len of them), or -1 when it has none. */
static int send_address(const struct seccomp_notif *req, const char *name,
                        struct sockaddr_storage *sa, socklen_t *len)
{
    pid_t tid = (pid_t)req->pid;
    uint64_t addr = 0, n = 0;
    if (!strcmp(name, "connect")) {
        addr = req->data.args[1];
        n = req->data.args[2];
    } else if (!strcmp(name, "sendto")) {
        addr = req->data.args[4];
        n = req->data.args[5];
    } else {
        struct msghdr m;    /* sendmmsg: the first message's */
        if (read_mem(tid, req->data.args[1], &m, sizeof m) != 0)
            return -1;
        addr = (uint64_t)(uintptr_t)m.msg_name;
        n = m.msg_namelen;
    }
    memset(sa, 0, sizeof *sa);
    if (!addr || n < sizeof(sa_family_t))
        return -1;
    *len = (socklen_t)(n < sizeof *sa ? n : sizeof *sa);
    return read_mem(tid, addr, sa, *len);
}

static act_outcome judge_send(const sandbox_policy *p, const struct seccomp_notif *req,
                              const act_call *c, char *what)
{
    struct sockaddr_storage sa;
    socklen_t len;
    char host[INET6_ADDRSTRLEN] = "?";
    if (send_address(req, c->name, &sa, &len) != 0)
        return ACT_ALLOWED;
    if (sa.ss_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&sa;
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
        snprintf(what, SANDBOX_ACT_BYTES, "%s %s:%u", c->verb, host, ntohs(in->sin_port));
    } else if (sa.ss_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in = (const struct sockaddr_in6 *)&sa;
        inet_ntop(AF_INET6, &in->sin6_addr, host, sizeof host);
        snprintf(what, SANDBOX_ACT_BYTES, "%s [%s]:%u", c->verb, host, ntohs(in->sin6_port));
    } else {
        return sandbox_reach_send(p, (pid_t)req->pid, c->name, c->verb, &sa, len, what);
    }
    return ACT_STOP;
}

static const char *family_name(int family)
{
    switch (family) {
    case AF_INET: return "AF_INET";
    case AF_INET6: return "AF_INET6";
    case AF_PACKET: return "AF_PACKET";
    case AF_BLUETOOTH: return "AF_BLUETOOTH";
    case AF_VSOCK: return "AF_VSOCK";
    case AF_CAN: return "AF_CAN";
    case AF_ALG: return "AF_ALG";
    default: return NULL;
    }
}

static act_outcome judge_socket(const struct seccomp_notif *req, char *what)
{
    int family = (int)req->data.args[0], type = (int)req->data.args[1] & 0xf;
    const char *name = family_name(family);
    const char *kind = type == SOCK_STREAM ? "SOCK_STREAM" : type == SOCK_DGRAM ? "SOCK_DGRAM"
                       : type == SOCK_RAW ? "SOCK_RAW" : "another type";
    if (name)
        snprintf(what, SANDBOX_ACT_BYTES, "open a network socket (%s, %s)", name, kind);
    else
        snprintf(what, SANDBOX_ACT_BYTES, "open a socket of family %d (%s)", family, kind);
    return ACT_STOP;
}

act_outcome sandbox_act_judge(const sandbox_policy *p, const struct seccomp_notif *req,
                              char *what, int *refuse)
{
    int n;
    const act_call *all = sandbox_act_calls(&n), *c = NULL;
    for (int i = 0; i < n && !c; i++)
        if (all[i].nr == req->data.nr)
            c = &all[i];
    *refuse = c && (c->kind == ACT_ATTR || c->kind == ACT_SOCKET) ? EPERM : 0;
    what[0] = '\0';
    if (!c)
        return ACT_ALLOWED;
    if (c->kind == ACT_SOCKET)
        return judge_socket(req, what);
    if (c->kind == ACT_SEND)
        return judge_send(p, req, c, what);
    if (c->kind == ACT_OWNER)
        return sandbox_owner_judge(req, what);
    char full[PATH_MAX], path[PATH_MAX], full2[PATH_MAX], path2[PATH_MAX];
    if (full_path(req, c->dirfd, c->path, full, sizeof full) != 0)
        return c->kind == ACT_ATTR ? ACT_NOTE : ACT_ALLOWED;
    pid_t tid = (pid_t)req->pid;
    switch (c->kind) {
    case ACT_OPEN:
        return judge_open(p, req, c, full, what);
    case ACT_TRUNCATE:
        if (sandbox_resolve(tid, full, 1, path) != 0 || may_change(p, path))
            return ACT_ALLOWED;
        put_path(what, "truncate %s", path, NULL);
        return changed(path);
    case ACT_CREATE:
    case ACT_REMOVE:
        /* removing what is not there, or creating what is (mkdir -p of
         * /tmp), changes nothing: the kernel answers ENOENT or EEXIST */
        if (sandbox_resolve(tid, full, 0, path) != 0 || may_change(p, path) ||
            (c->kind == ACT_REMOVE) == !sandbox_exists(tid, path))
            return ACT_ALLOWED;
        put_path(what, c->kind == ACT_CREATE ? "create %s" : "remove %s", path, NULL);
        return changed(path);
    case ACT_MOVE:
        if (full_path(req, c->dirfd2, c->path2, full2, sizeof full2) != 0 ||
            sandbox_resolve(tid, full, 0, path) != 0 || !sandbox_exists(tid, path) ||
            sandbox_resolve(tid, full2, 0, path2) != 0 ||
            (may_change(p, path) && may_change(p, path2)))
            return ACT_ALLOWED;
        snprintf(full, sizeof full, "%s %%s to %%s", c->verb);
        put_path(what, full, path, path2);
        return pseudo(path) && pseudo(path2) ? ACT_NOTE : ACT_STOP;
    default:    /* ACT_ATTR: refused wherever it is */
        if (sandbox_resolve(tid, full, 1, path) != 0)
            snprintf(path, sizeof path, "%s", full);
        snprintf(full, sizeof full, "%s %%s", c->verb);
        put_path(what, full, path, NULL);
        return may_change(p, path) ? ACT_NOTE : changed(path);
    }
}
