/*
 * sandbox_confine.c - confining the process that loads the candidate
 * (sandbox.h, sandbox_confine): the scratch folder, a network namespace,
 * root dropped and capabilities given up, Landlock (sandbox_fs.c), the
 * observed seccomp filter whose listener goes to the parent's observer
 * (sandbox_watch.c).  Depends on libseccomp, sandbox_int.h, POSIX and
 * Linux process calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

#include "confine_int.h"

static int failed(char *err, size_t size, const char *what, int e)
{
    snprintf(err, size, "cannot confine the worker: %s: %s", what, strerror(e));
    return -1;
}

/* TMPDIR, HOME and the XDG folders in the scratch folder, its working
 * folder there; the agents of the invoking user's session out of its
 * environment. */
static int enter_scratch(const char *scratch)
{
    static const char *const to_scratch[] = {"TMPDIR", "TMP", "TEMP", "TEMPDIR", "HOME"};
    static const char *const xdg[][2] = {
        {"XDG_CACHE_HOME", ".cache"}, {"XDG_CONFIG_HOME", ".config"},
        {"XDG_DATA_HOME", ".local/share"}, {"XDG_STATE_HOME", ".local/state"},
    };
    static const char *const agents[] = {"SSH_AUTH_SOCK", "GPG_AGENT_INFO",
                                         "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"};
    for (size_t i = 0; i < sizeof to_scratch / sizeof *to_scratch; i++)
        setenv(to_scratch[i], scratch, 1);
    for (size_t i = 0; i < sizeof xdg / sizeof *xdg; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", scratch, xdg[i][1]);
        setenv(xdg[i][0], path, 1);
    }
    for (size_t i = 0; i < sizeof agents / sizeof *agents; i++)
        unsetenv(agents[i]);
    return chdir(scratch);
}

/* A network namespace of its own, with no interface but a loopback that
 * is down: 1 (root), 2 (inside a user namespace that maps only the
 * invoking uid and gid), or 0 when the kernel refuses both. */
static int own_netns(void)
{
    if (geteuid() == 0)
        return unshare(CLONE_NEWNET) == 0;
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
        return 0;
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    int bad = write_text("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    bad |= write_text("/proc/self/setgroups", "deny") |
           write_text("/proc/self/gid_map", map);
    return bad ? -1 : 2;
}

/* None to regain by exec: an empty bounding set (while CAP_SETPCAP is
 * still there). */
static void empty_bounding_set(void)
{
    for (int cap = 0; cap <= 63; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno == EINVAL)
            break;
}

/* No capability left: a root that kept its uid, or the user namespace's
 * (dropping root clears them by itself). */
static void clear_capabilities(void)
{
    struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct d[2];
    memset(d, 0, sizeof d);
    syscall(SYS_capset, &h, d);
}

/* To the policy's uid and gid, keeping no capability (a change of uid
 * clears them; the bounding set is empty already: no exec regains any). */
static int drop_root(const sandbox_policy *p)
{
    if (setgroups(0, NULL) != 0 || setresgid(p->gid, p->gid, p->gid) != 0 ||
        setresuid(p->uid, p->uid, p->uid) != 0)
        return -1;
    return getuid() == p->uid && geteuid() == p->uid ? 0 : -1;
}

/* The families a socket may have: local ones, and TCP/IP inside a
 * network namespace of its own (no interface but a loopback that is down:
 * the observer then hears where it tried to go). */
static int family_allowed(int family, int netns)
{
    return family == AF_UNIX || family == AF_NETLINK ||
           (netns && (family == AF_INET || family == AF_INET6));
}

static struct scmp_arg_cmp arg0(enum scmp_compare op, scmp_datum_t a)
{
    struct scmp_arg_cmp c = {.arg = 0, .op = op, .datum_a = a, .datum_b = 0};
    return c;
}

/* The commands of fcntl and ioctl that set an fd's owner go to the
 * observer (sandbox_proc.c); the kernel reads the command as an unsigned
 * int, so only its low 32 bits are compared. */
static int add_owner_rules(scmp_filter_ctx ctx, const act_call *c)
{
    static const unsigned fcntl_cmds[] = {F_SETOWN, F_SETOWN_EX};
    static const unsigned ioctl_cmds[] = {FIOSETOWN, SIOCSPGRP};
    int is_fcntl = !strcmp(c->name, "fcntl"), rc = 0;
    const unsigned *cmds = is_fcntl ? fcntl_cmds : ioctl_cmds;
    for (int k = 0; rc == 0 && k < 2; k++) {
        struct scmp_arg_cmp cmd = {.arg = 1, .op = SCMP_CMP_MASKED_EQ, .datum_a = 0xffffffffu,
                                   .datum_b = cmds[k]};
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, c->nr, 1, cmd);
    }
    return rc;
}

/*
 * The observed filter: with `notify`, the calls of sandbox_act_calls go
 * to the observer; without, only the always-refused ones are there,
 * failing with EPERM.  Returns the loaded filter's listener (notify) or 0,
 * or -1.
 */
static int load_observed(int notify, int netns)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return -1;
    const uint32_t refuse = notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EPERM);
    int n, rc = 0;
    const act_call *calls = sandbox_act_calls(&n);
    for (int i = 0; rc == 0 && i < n; i++) {
        const act_call *c = &calls[i];
        if (c->nr < 0 || c->kind == ACT_SOCKET)
            continue;
        if (c->kind == ACT_ATTR)
            rc = seccomp_rule_add(ctx, refuse, c->nr, 0);
        else if (notify && c->kind == ACT_OWNER)
            rc = add_owner_rules(ctx, c);
        else if (notify)    /* sends too: a Unix socket's address is judged */
            rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, c->nr, 0);
    }
    /* a socket of a family not allowed; a domain with high bits set is
     * above AF_MAX, so the kernel's truncation to int cannot slip by */
    for (int family = 0; rc == 0 && family < AF_MAX; family++)
        if (!family_allowed(family, netns))
            rc = seccomp_rule_add(ctx, refuse, SCMP_SYS(socket), 1, arg0(SCMP_CMP_EQ, family));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, refuse, SCMP_SYS(socket), 1, arg0(SCMP_CMP_GE, AF_MAX));
    if (rc == 0)
        rc = seccomp_load(ctx);
    int fd = rc == 0 && notify ? seccomp_notify_fd(ctx) : 0;
    seccomp_release(ctx);
    return rc == 0 ? fd : -1;
}

/*
 * Tells the observer, over SANDBOX_FD_WATCH (a plain write: no send call,
 * which the observed filter hands over), to take fd `fd` of this process
 * (pidfd_getfd; -1: none) with `facts`, or with `probe` only to try
 * whether it can; then waits for its answer, a signal aimed at this
 * process alone (the socket is every confined process's): SIGURG it took
 * the fd (or there was none), SIGWINCH it could not.  Both are ignored by
 * default, so one that comes late does nothing.  Returns 1 when it took
 * it, 0 when it could not or did not answer within 30 s.
 */
static int observer_takes(int fd, const sandbox_facts *facts, int probe)
{
    sigset_t answers, old;
    sigemptyset(&answers);
    sigaddset(&answers, SIGURG);
    sigaddset(&answers, SIGWINCH);
    sigprocmask(SIG_BLOCK, &answers, &old);
    sandbox_hello h = {fd, probe, *facts};
    int sig = -1;
    if (write(SANDBOX_FD_WATCH, &h, sizeof h) == (ssize_t)sizeof h) {
        struct timespec wait = {30, 0};
        while ((sig = sigtimedwait(&answers, NULL, &wait)) < 0 && errno == EINTR)
            ;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return sig == SIGURG;
}

int sandbox_confine(const sandbox_policy *p, sandbox_facts *f, char *err, size_t size)
{
    memset(f, 0, sizeof *f);
    f->candidate_fd = -1;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return failed(err, size, "no_new_privs", errno);
    /* the candidate by its path as given (a relative one too), before the
     * working folder changes */
    if (p->drop == SANDBOX_DROP_FD && (f->candidate_fd = sandbox_candidate_fd(p)) < 0)
        return failed(err, size, p->candidate, errno);
    if (enter_scratch(p->scratch) != 0)
        return failed(err, size, p->scratch, errno);
    f->netns = own_netns();
    if (f->netns < 0)
        return failed(err, size, "the user namespace's id maps", errno);
    f->scratch_tmpfs = sandbox_scratch_mount(p);
    if (f->scratch_tmpfs < 0)
        return failed(err, size, "the scratch folder's tmpfs", errno);
    if (f->scratch_tmpfs == 1 && sandbox_open_views(p) != 0)
        return failed(err, size, "a view of the candidate's folders", errno);
    f->landlock_abi = sandbox_landlock_abi();
    int ruleset = -1;
    if (f->landlock_abi > 0 && (ruleset = sandbox_fs_ruleset(p, f->landlock_abi)) < 0)
        return failed(err, size, "landlock rules", errno);
    if (geteuid() == 0 || f->netns == 2)
        empty_bounding_set();
    int deathsig = 0;
    prctl(PR_GET_PDEATHSIG, &deathsig, 0, 0, 0);
    if (p->drop && drop_root(p) != 0)
        return failed(err, size, "dropping root", errno);
    /* a change of uid clears the parent-death signal */
    if (deathsig)
        prctl(PR_SET_PDEATHSIG, deathsig, 0, 0, 0);
    if (geteuid() == 0 || f->netns == 2)
        clear_capabilities();   /* a root that kept its uid, a user namespace's */
    f->dropped = p->drop;
    f->uid = (unsigned)geteuid();
    if (ruleset >= 0 && sandbox_fs_restrict(ruleset) != 0)
        return failed(err, size, "landlock_restrict_self", errno);
    /* the observer takes the listener from this process (a send would be
     * handed to it before it has it): only where it can, tried first */
    int listener = seccomp_api_get() >= 5 && observer_takes(SANDBOX_FD_WATCH, f, 1)
                       ? load_observed(1, f->netns) : -1;
    f->observed = listener > 0;
    if (listener < 0 && load_observed(0, f->netns) < 0)
        return failed(err, size, "the observed seccomp filter", EINVAL);
    int taken = observer_takes(f->observed ? listener : -1, f, 0);
    if (f->observed)
        close(listener);
    close(SANDBOX_FD_WATCH);
    /* without its listener every handed call would fail (ENOSYS) */
    if (f->observed && !taken)
        return failed(err, size, "the observer did not take its listener", ETIMEDOUT);
    return 0;
}
