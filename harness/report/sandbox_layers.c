/*
 * sandbox_layers.c - probing the sandbox's layers on this machine
 * (sandbox_layers.h): what worker/sandbox_confine.c, worker/sandbox.c and
 * proc/bounds.c would get, asked without confining this process.
 * Depends on Linux's system calls, /proc, /sys, libseccomp.
 */
#define _GNU_SOURCE
#include "sandbox_layers.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <pwd.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"

#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#define CGROUP2_MAGIC 0x63677270
#define PIDS_ROOT "/sys/fs/cgroup/pids"     /* proc/bounds.c's */

static int done;
static sandbox_layer probed[SANDBOX_LAYERS];

/* The first line of `path` into buf[size] without its newline; "" when
 * it cannot be read. */
static const char *first_line(const char *path, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "re");
    if (f) {
        if (!fgets(buf, (int)size, f))
            buf[0] = '\0';
        fclose(f);
    }
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

static void set(sandbox_layer *l, int present, int used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void set(sandbox_layer *l, int present, int used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->detail, sizeof l->detail, fmt, ap);
    va_end(ap);
    l->present = present;
    l->used = used;
}

/* --------------------------------------------------- tried in a child */

enum { TRY_USERNS, TRY_NETNS, TRY_MOUNTNS, TRY_TMPFS, TRY_UID };

static uid_t nobody_uid = 65534;
static gid_t nobody_gid = 65534;

/* In the child: what `what` asks, as engine/ does it; 0 or -1 (errno). */
static int attempt(int what, const char *dir)
{
    int user = geteuid() != 0 ? CLONE_NEWUSER : 0;
    switch (what) {
    case TRY_USERNS:
        return unshare(CLONE_NEWUSER);
    case TRY_NETNS:
        return unshare(user | CLONE_NEWNET);
    case TRY_MOUNTNS:
        return unshare(user | CLONE_NEWNS);
    case TRY_TMPFS:
        if (unshare(user | CLONE_NEWNS) != 0 ||
            mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
            return -1;
        return mount("reshape-probe", dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k");
    default:
        if (setgroups(0, NULL) != 0 || setresgid(nobody_gid, nobody_gid, nobody_gid) != 0)
            return -1;
        return setresuid(nobody_uid, nobody_uid, nobody_uid);
    }
}

/* Runs attempt(what, dir) in a child: 0 when it succeeded, else its errno
 * (ECHILD: no child could be made, or it died). */
static int in_child(int what, const char *dir)
{
    pid_t pid = fork();
    if (pid < 0)
        return errno;
    if (pid == 0) {
        int e = attempt(what, dir) == 0 ? 0 : errno;
        _exit(e > 0 && e < 256 ? e : e ? 255 : 0);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return ECHILD;
    return WIFEXITED(st) ? WEXITSTATUS(st) : ECHILD;
}

/* 1 when this process has CAP_SYS_ADMIN in its effective set. */
static int has_sys_admin(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[256];
    unsigned long long eff = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &eff) == 1)
            break;
    if (f)
        fclose(f);
    return (eff >> 21) & 1;
}

/* Why unshare(2) of a namespace failed with `e`, into why[size]. */
static void ns_why(int e, char *why, size_t size)
{
    char v[64];
    if (e == ENOSPC && !strcmp(first_line("/proc/sys/user/max_user_namespaces", v, sizeof v), "0"))
        snprintf(why, size, "unshare: %s (user.max_user_namespaces is 0)", strerror(e));
    else if (e == EPERM && geteuid() != 0 &&
             !strcmp(first_line("/proc/sys/kernel/unprivileged_userns_clone", v, sizeof v), "0"))
        snprintf(why, size, "unshare: %s (kernel.unprivileged_userns_clone is 0)", strerror(e));
    else if (e == EPERM && geteuid() != 0 &&
             !strcmp(first_line("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", v,
                                sizeof v), "1"))
        snprintf(why, size, "unshare: %s (AppArmor's restrict_unprivileged_userns is 1)",
                 strerror(e));
    else if (e == EPERM && geteuid() == 0 && !has_sys_admin())
        snprintf(why, size, "unshare: %s (root without CAP_SYS_ADMIN, as in a container)",
                 strerror(e));
    else if (e == EPERM)
        snprintf(why, size, "unshare: %s (refused by a container's seccomp profile or an LSM)",
                 strerror(e));
    else if (e == EINVAL)
        snprintf(why, size, "unshare: %s (the kernel was built without the namespace)",
                 strerror(e));
    else
        snprintf(why, size, "unshare: %s", strerror(e));
}

/* ------------------------------------------------------------ layers */

static void probe_landlock(sandbox_layer *l)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    char lsm[256];
    if (abi < 0 && errno == EOPNOTSUPP)
        set(l, 0, 1, "Landlock is built in but not enabled (not in the kernel's LSM list: %s): "
            "the workers can read and change every file their uid can",
            first_line("/sys/kernel/security/lsm", lsm, sizeof lsm)[0] ? lsm : "unreadable");
    else if (abi < 0)
        set(l, 0, 1, "landlock_create_ruleset: %s (before Linux 5.13, or built without "
            "Landlock): the workers can read and change every file their uid can",
            strerror(errno));
    else
        set(l, 1, 1, "ABI %ld%s%s%s", abi,
            abi < 3 ? "; truncate(2) is not confined (ABI 3, Linux 6.2)" : "",
            abi < 4 ? "; TCP is not confined by it (ABI 4, Linux 6.7; the network "
                      "namespace is)" : "",
            abi < 6 ? "; abstract Unix sockets and signals out of the domain are not "
                      "(ABI 6, Linux 6.12)" : "");
}

static void probe_seccomp(sandbox_layer *l, sandbox_layer *obs)
{
    unsigned act = SECCOMP_RET_KILL_PROCESS;
    int api = (int)seccomp_api_get();
    if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0)
        set(l, 0, 1, "prctl PR_GET_SECCOMP: %s (a kernel without seccomp): a run with the "
            "sandbox on cannot start its workers; --sandbox off runs without it",
            strerror(errno));
    else if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act) != 0)
        set(l, 0, 1, "seccomp SECCOMP_GET_ACTION_AVAIL: %s (no filter mode): a run with the "
            "sandbox on cannot start its workers; --sandbox off runs without it",
            strerror(errno));
    else
        set(l, 1, 1, "filters, libseccomp API level %d", api);
    const char *no = "refused acts are not reported (the always-refused calls still fail "
                     "with EPERM), and an fd's owner is not checked";
    act = SECCOMP_RET_USER_NOTIF;
    char v[32];
    int scope = atoi(first_line("/proc/sys/kernel/yama/ptrace_scope", v, sizeof v));
    if (!l->present) {
        set(obs, 0, 1, "no seccomp: %s", no);
    } else if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act) != 0) {
        set(obs, 0, 1, "no seccomp user notification (%s; Linux 5.5): %s", strerror(errno), no);
    } else if (api < 5) {
        set(obs, 0, 1, "libseccomp API level %d, below 5: %s", api, no);
    } else if (scope >= 3 || (scope == 2 && geteuid() != 0)) {
        set(obs, 0, 1, "Yama's ptrace_scope is %d, so the harness cannot read a worker's "
            "calls: %s", scope, no);
    } else {
        int pfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
        int fd = pfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pfd, pfd, 0);
        int e = errno;
        if (fd >= 0)
            close(fd);
        if (pfd >= 0)
            close(pfd);
        if (fd < 0)
            set(obs, 0, 1, "%s: %s (Linux 5.6): %s", pfd < 0 ? "pidfd_open" : "pidfd_getfd",
                strerror(e), no);
        else
            set(obs, 1, 1, "seccomp user notification and pidfd_getfd: the harness sees "
                "the workers' calls");
    }
}

static void probe_namespaces(sandbox_layer *user, sandbox_layer *net, sandbox_layer *mnt)
{
    int root = geteuid() == 0;
    char why[200];
    int e = in_child(TRY_USERNS, NULL);
    ns_why(e, why, sizeof why);
    if (e)
        set(user, 0, !root, "%s%s", why, root ? "; a root run does not use it"
            : ": a run as this user gets no network namespace and no scratch tmpfs");
    else
        set(user, 1, !root, "%s", root ? "a root run does not use it"
            : "a run as this user makes its network and mount namespaces in one");
    e = in_child(TRY_NETNS, NULL);
    ns_why(e, why, sizeof why);
    if (e)
        set(net, 0, 1, "%s: socket() of every family but AF_UNIX and AF_NETLINK is "
            "refused instead", why);
    else
        set(net, 1, 1, "%s", root ? "a network namespace of the workers' own"
            : "a user and network namespace of the workers' own");
    const char *instead = "the scratch folder is the one on the disk, its size unbounded";
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/reshape-probe-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
    if ((e = in_child(TRY_MOUNTNS, NULL)) != 0) {
        ns_why(e, why, sizeof why);
        set(mnt, 0, 1, "%s: %s", why, instead);
    } else if (!mkdtemp(dir)) {
        set(mnt, 0, 1, "mkdtemp %s: %s, so a tmpfs mount was not tried: %s", dir,
            strerror(errno), instead);
    } else {
        e = in_child(TRY_TMPFS, dir);
        rmdir(dir);
        if (e)
            set(mnt, 0, 1, "mount of a tmpfs in it: %s: %s", strerror(e), instead);
        else
            set(mnt, 1, 1, "a mount namespace of the workers' own, a tmpfs on their "
                "scratch folder");
    }
}

static void probe_uid(sandbox_layer *l)
{
    if (geteuid() != 0) {
        set(l, 1, 0, "the harness is not root: the workers keep uid %u, without any "
            "capability", (unsigned)geteuid());
        return;
    }
    struct passwd *pw = getpwnam("nobody");
    struct group *gr = getgrnam("nogroup");
    nobody_uid = pw ? pw->pw_uid : 65534;
    nobody_gid = gr ? gr->gr_gid : pw ? pw->pw_gid : 65534;
    int e = in_child(TRY_UID, NULL);
    if (e)
        set(l, 0, 1, "setresuid %u: %s (a container that does not map it): the workers "
            "stay uid 0 without any capability", (unsigned)nobody_uid, strerror(e));
    else
        set(l, 1, 1, "root drops to uid %u, gid %u, no capability", (unsigned)nobody_uid,
            (unsigned)nobody_gid);
}

static void probe_pids(sandbox_layer *l)
{
    char instead[160];
    if (geteuid() == 0)
        snprintf(instead, sizeof instead, "the workers' processes are bounded by "
                 "RLIMIT_NPROC 8192 of the uid they drop to instead");
    else
        snprintf(instead, sizeof instead, "the workers' processes are bounded only by uid "
                 "%u's own RLIMIT_NPROC", (unsigned)geteuid());
    FILE *f = fopen("/proc/self/cgroup", "re");
    char line[1024], at[512] = "";
    while (f && fgets(line, sizeof line, f)) {
        char *c = strstr(line, ":pids:");
        if (c) {
            snprintf(at, sizeof at, "%s", c + 6);
            at[strcspn(at, "\n")] = '\0';
            break;
        }
    }
    if (f)
        fclose(f);
    struct statfs fs;
    char dir[600];
    snprintf(dir, sizeof dir, "%s%s", PIDS_ROOT, strcmp(at, "/") ? at : "");
    if (!at[0] && statfs("/sys/fs/cgroup", &fs) == 0 && fs.f_type == CGROUP2_MAGIC)
        set(l, 0, 1, "this machine has cgroup v2 alone (/sys/fs/cgroup), and the harness "
            "uses v1's pids controller: %s", instead);
    else if (!at[0])
        set(l, 0, 1, "no pids controller in /proc/self/cgroup: %s", instead);
    else if (access(dir, W_OK) != 0)
        set(l, 0, 1, "%s: %s (not delegated to uid %u): %s", dir, strerror(errno),
            (unsigned)geteuid(), instead);
    else
        set(l, 1, 1, "a cgroup v1 pids cgroup of the run's below %s: 4096 tasks a run, 1024 a "
            "slot", dir);
}

void sandbox_layers_probe(sandbox_layer out[SANDBOX_LAYERS])
{
    if (!done) {
        static const char *const names[SANDBOX_LAYERS] = {
            "landlock", "seccomp", "observer", "user-namespace", "network-namespace",
            "mount-namespace", "uid-drop", "pids-cgroup"};
        for (int i = 0; i < SANDBOX_LAYERS; i++)
            probed[i].name = names[i];
        probe_landlock(&probed[SANDBOX_LAYER_LANDLOCK]);
        probe_seccomp(&probed[SANDBOX_LAYER_SECCOMP], &probed[SANDBOX_LAYER_OBSERVER]);
        probe_namespaces(&probed[SANDBOX_LAYER_USERNS], &probed[SANDBOX_LAYER_NETNS],
                         &probed[SANDBOX_LAYER_MOUNTNS]);
        probe_uid(&probed[SANDBOX_LAYER_UID]);
        probe_pids(&probed[SANDBOX_LAYER_PIDS]);
        done = 1;
    }
    memcpy(out, probed, sizeof probed);
}

/* Appends `s` to `b`, wrapped at 79 columns, continuation lines indented
 * by `indent`, the current column in *col. */
static void wrapped(strbuf *b, int *col, int indent, const char *s)
{
    while (*s) {
        int w = (int)strcspn(s, " ");
        if (*col > indent && *col + 1 + w > 79) {
            sb_addf(b, "\n%*s", indent, "");
            *col = indent;
        } else if (*col > indent) {
            sb_addf(b, " ");
            (*col)++;
        }
        sb_addf(b, "%.*s", w, s);
        *col += w;
        s += w;
        while (*s == ' ')
            s++;
    }
}

char *sandbox_layers_text(const sandbox_layer layers[SANDBOX_LAYERS], int indent)
{
    strbuf b;
    sb_init(&b);
    for (int i = 0; i < SANDBOX_LAYERS; i++) {
        const sandbox_layer *l = &layers[i];
        char *head = l->present ? xasprintf("%s: present%s (%s)", l->name,
                                            l->used ? "" : ", not used", l->detail)
                                : xasprintf("%s: missing%s: %s", l->name,
                                            l->used ? "" : ", not used", l->detail);
        sb_addf(&b, "%*s", indent, "");
        int col = indent;
        wrapped(&b, &col, indent + 2, head);
        sb_addf(&b, "\n");
        free(head);
    }
    return sb_take(&b);
}
