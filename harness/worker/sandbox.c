/*
 * sandbox.c - the worker's seccomp filter (sandbox.h).  Depends on
 * libseccomp and exec.h.
 *
 * Everything is allowed but what the tables below stop; a stopped call
 * traps (SIGSYS), except clone3, which fails with ENOSYS: its flags are in
 * memory a filter cannot read, and glibc then falls back to clone, whose
 * flags are checked.
 */
#define _GNU_SOURCE
#include "confine.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "exec.h"
#include "self_signal.h"

/* Stopped whatever their arguments: other processes' memory and tracing,
 * the machine's state (mounts, namespaces, modules, clocks, keys, kernel
 * programs). */
static const char *const always[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp",
    "pidfd_send_signal", "pidfd_getfd",
    "mount", "umount2", "pivot_root", "chroot", "setns", "unshare", "move_mount",
    "open_tree", "fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr",
    "reboot", "kexec_load", "kexec_file_load", "init_module", "finit_module",
    "delete_module", "swapon", "swapoff", "acct", "syslog", "settimeofday",
    "clock_settime", "clock_adjtime", "adjtimex", "sethostname", "setdomainname",
    "iopl", "ioperm", "quotactl", "vhangup", "keyctl", "add_key", "request_key", "bpf",
    "perf_event_open", "userfaultfd", "fanotify_init", "open_by_handle_at",
    "io_uring_setup",
};

/* Signals: every call traps, and the handler carries out those aimed at
 * the calling process (self_signal.h; a worker is a fork of its zygote,
 * so no pid written into the filter could be its own).  kill(0), kill(-1),
 * kill(-PGID) and kill(getppid()) are stopped. */
static const char *const signal_calls[] = {
    "kill", "tgkill", "tkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
};

/* clone flags that make a namespace. */
static const unsigned long ns_flags[] = {
    CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
    CLONE_NEWCGROUP,
};

#define NAMES (sizeof always / sizeof *always + sizeof signal_calls / sizeof *signal_calls + 3)

/* Numbers and names of the calls the filter may stop, for the handler
 * (libseccomp's lookups allocate: not for a signal handler). */
typedef struct named_call {
    int nr;
    const char *name;
} named_call;
static named_call names[NAMES];
static int nnames;
/* si_code of a signal a seccomp filter raised (linux/signal.h's) */
#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

/* This machine's audit architecture (the si_arch of a native call). */
static unsigned native_arch;

static void note_name(const char *name)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr != __NR_SCMP_ERROR && nnames < (int)NAMES)
        names[nnames++] = (named_call){nr, name};
}

/* Appends `s` to buf[*n..size), async-signal-safe. */
static void put(char *buf, size_t *n, size_t size, const char *s)
{
    while (*s && *n + 1 < size)
        buf[(*n)++] = *s++;
}

static void put_num(char *buf, size_t *n, size_t size, long long v)
{
    char tmp[24];
    int k = 0;
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
    do
        tmp[k++] = (char)('0' + u % 10);
    while ((u /= 10) && k < 23);
    if (v < 0 && *n + 1 < size)
        buf[(*n)++] = '-';
    while (k > 0 && *n + 1 < size)
        buf[(*n)++] = tmp[--k];
}

/* The trapped call's first three arguments into a[], and where its result
 * goes; NULL where this file does not know the machine's registers. */
static long *call_registers(void *uctx, long a[3])
{
#if defined(__x86_64__)
    greg_t *g = ((ucontext_t *)uctx)->uc_mcontext.gregs;
    a[0] = (long)g[REG_RDI];
    a[1] = (long)g[REG_RSI];
    a[2] = (long)g[REG_RDX];
    return (long *)&g[REG_RAX];
#elif defined(__aarch64__)
    unsigned long long *x = ((ucontext_t *)uctx)->uc_mcontext.regs;
    for (int k = 0; k < 3; k++)
        a[k] = (long)x[k];
    return (long *)&x[0];
#else
    (void)uctx;
    (void)a;
    return NULL;
#endif
}

/* A trapped call: a signal the process sends itself is carried out
 * (self_signal.h); any other is stopped: say which, record it, die of
 * SIGSYS.  Every signal is blocked while this runs. */
static void on_sigsys(int sig, siginfo_t *info, void *uctx)
{
    int nr = info->si_syscall;
    long a[3] = {0, 0, 0}, *ret = call_registers(uctx, a);
    if (info->si_code == SYS_SECCOMP && info->si_arch == native_arch && ret &&
        self_signal(nr, a, ret))
        return;
    const char *name = NULL;
    for (int k = 0; k < nnames; k++)
        if (names[k].nr == nr)
            name = names[k].name;
    char line[256];
    size_t n = 0;
    put(line, &n, sizeof line, "reshape-conform: sandbox: the candidate called ");
    if (name) {
        put(line, &n, sizeof line, name);
    } else {
        put(line, &n, sizeof line, "system call ");
        put_num(line, &n, sizeof line, nr);
    }
#if defined(__x86_64__)
    const greg_t *g = ((ucontext_t *)uctx)->uc_mcontext.gregs;
    put(line, &n, sizeof line, "(");
    put_num(line, &n, sizeof line, (long long)g[REG_RDI]);
    put(line, &n, sizeof line, ", ");
    put_num(line, &n, sizeof line, (long long)g[REG_RSI]);
    put(line, &n, sizeof line, ", ...)");
#else
    (void)uctx;
#endif
    put(line, &n, sizeof line, ": not allowed (worker pid ");
    put_num(line, &n, sizeof line, getpid());
    put(line, &n, sizeof line, ")\n");
    if (write(2, line, n) < 0) {
        /* the candidate closed stderr: the response still says it */
    }
    exec_record_death(sig, (uint64_t)(unsigned)nr);
    /* changing SIGSYS's action is itself stopped, and with SIGSYS blocked
     * (here) the kernel then resets it to the default and delivers it; a
     * kernel sigaction of SIG_DFL (all zero) is a change, which traps */
    static const long dfl[4];
    syscall(SYS_rt_sigaction, SIGSYS, dfl, NULL, 8);
    _exit(128 + sig);
}

static int fail(char *err, size_t size, const char *what, int rc)
{
    snprintf(err, size, "cannot set up the sandbox: %s: %s", what, strerror(rc < 0 ? -rc : rc));
    return -1;
}

/* A rule on the first argument: `op` against `a` (and `b`, for
 * SCMP_CMP_MASKED_EQ).  libseccomp's SCMP_A0 with every field named, which
 * clang's -Wmissing-field-initializers asks for (make fuzz builds this file
 * with clang). */
static struct scmp_arg_cmp arg0(enum scmp_compare op, scmp_datum_t a, scmp_datum_t b)
{
    struct scmp_arg_cmp c = {.arg = 0, .op = op, .datum_a = a, .datum_b = b};
    return c;
}

int sandbox_install(char *err, size_t size)
{
    native_arch = seccomp_arch_native();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask);
    if (sigaction(SIGSYS, &sa, NULL) != 0)
        return fail(err, size, "sigaction(SIGSYS)", errno);
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return fail(err, size, "seccomp_init", ENOMEM);
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRAP);
    nnames = 0;
    for (size_t k = 0; rc == 0 && k < sizeof always / sizeof *always; k++) {
        int nr = seccomp_syscall_resolve_name(always[k]);
        if (nr == __NR_SCMP_ERROR)
            continue;   /* not a call of this machine */
        note_name(always[k]);
        rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 0);
    }
    for (size_t k = 0; rc == 0 && k < sizeof signal_calls / sizeof *signal_calls; k++) {
        note_name(signal_calls[k]);
        rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, seccomp_syscall_resolve_name(signal_calls[k]), 0);
    }
    /* the handler stays ours, and so does the worker's children's reaper;
     * asking what SIGSYS's action is (act NULL) is allowed: CPython's
     * signal module, at import, asks it of every signal */
    note_name("rt_sigaction");
    note_name("prctl");
    note_name("clone");
    struct scmp_arg_cmp act = {.arg = 1, .op = SCMP_CMP_NE, .datum_a = 0, .datum_b = 0};
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(rt_sigaction), 2,
                              arg0(SCMP_CMP_EQ, SIGSYS, 0), act);
    /* giving the hold up; a worker forked from the zygote takes it */
    struct scmp_arg_cmp unset = {.arg = 1, .op = SCMP_CMP_EQ, .datum_a = 0, .datum_b = 0};
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(prctl), 2,
                              arg0(SCMP_CMP_EQ, PR_SET_CHILD_SUBREAPER, 0), unset);
    for (size_t k = 0; rc == 0 && k < sizeof ns_flags / sizeof *ns_flags; k++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(clone), 1,
                              arg0(SCMP_CMP_MASKED_EQ, ns_flags[k], ns_flags[k]));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc != 0) {
        seccomp_release(ctx);
        return fail(err, size, "seccomp_rule_add", rc);
    }
    rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0)
        return fail(err, size, "seccomp_load", rc);
    return 0;
}
