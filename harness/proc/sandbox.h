/*
 * sandbox.h - confining the candidate (docs/harness/sandbox.md).
 *
 * Four layers, each the kernel's, none depending on another:
 *   - the confinement of the process that loads the candidate
 *     (sandbox_confine, sandbox_confine.c): a private scratch folder as
 *     TMPDIR, HOME and working folder, a size-limited tmpfs of a mount
 *     namespace of its own (sandbox_mount.c); a network namespace of its
 *     own (or no network sockets at all); root dropped to an unprivileged
 *     uid with no capability;
 *     Landlock (sandbox_fs.c): read only what a library needs, write only
 *     the scratch folder, no TCP, no abstract Unix socket or signal out of
 *     its domain; a seccomp filter that refuses attribute changes and
 *     other sockets and hands the calls that touch paths or addresses to
 *     the observer;
 *   - the observer (sandbox_watch.c, sandbox_act.c), in the parent: it
 *     reads each handed call, lets the kernel decide it, and stops the
 *     worker that made it (SIGKILL; not its zygote) when the call is
 *     refused (a change outside the scratch folder, a secret, the network,
 *     another process's /proc entries, a Unix socket not its own:
 *     sandbox_reach.c), recording what it tried;
 *   - the seccomp filter of the process that loads the candidate, which
 *     its workers inherit (sandbox_install, sandbox.c): no signal, trace
 *     or memory access to another process, no namespace, mount or change
 *     of the machine; a stopped call raises SIGSYS; every call of the kill
 *     family traps, as the filter is a zygote's and cannot name its
 *     forks' pids, and the SIGSYS handler carries out those aimed at the
 *     calling process (self_signal.h);
 *   - the parent's policy (sandbox_policy.c): which folders, built once
 *     per run, passed to workers as words of their command line.
 * Depends on libseccomp, libelf (a candidate's RUNPATH), Landlock's
 * system calls, exec.h, self_signal.h.
 */
#ifndef HARNESS_SANDBOX_H
#define HARNESS_SANDBOX_H

#include <stddef.h>
#include <sys/types.h>

/* ------------------------------------------------------------ policy */

/* A list of absolute, resolved paths. */
typedef struct sandbox_paths {
    char **v;
    int n;
} sandbox_paths;

/*
 * What a confined process may touch.  Every path is absolute and resolved
 * (realpath) where it exists.
 */
typedef struct sandbox_policy {
    char *candidate;        /* the candidate: readable whatever is denied */
    char *scratch;          /* the run's scratch folder: TMPDIR, HOME, cwd;
                               the one folder the candidate may change */
    sandbox_paths read;     /* folders and files it may read and execute */
    sandbox_paths write;    /* more it may change (--sandbox-allow-write) */
    sandbox_paths dev;      /* device files it may read, write and ioctl */
    sandbox_paths deny;     /* carved out of `read`: the harness's inputs and
                               outputs, keys, /etc/shadow, ... */
    sandbox_paths secret;   /* beside `deny`, where a refused read is a
                               secret's: the invoking user's home, /root */
    int drop;               /* the process, run as root, drops to uid, gid:
                               SANDBOX_DROP_* */
    uid_t uid;
    gid_t gid;
    char *drop_note;        /* SANDBOX_DROP_FD or none as root: why */
    unsigned long long scratch_bytes;   /* the scratch tmpfs's size in
                                           bytes; 0: the folder on the disk */
} sandbox_policy;

/* The scratch tmpfs's size when a run names none: 64 MiB. */
#define SANDBOX_SCRATCH_BYTES (64ull << 20)

enum {
    SANDBOX_DROP_NONE,      /* not root, or uid cannot be taken: none */
    SANDBOX_DROP_FULL,      /* to uid, gid, with no capability */
    SANDBOX_DROP_FD         /* to uid, gid, with no capability either; uid
                               cannot reach the candidate's files by their
                               paths (a folder on the way is root's alone):
                               the process opens the candidate before it
                               drops root and loads it through that
                               descriptor (sandbox_facts.candidate_fd) */
};

/* What a run adds to the policy (the options of "Sandbox"). */
typedef struct sandbox_spec {
    const char *const *allow;       /* --sandbox-allow: read */
    int nallow;
    const char *const *allow_write; /* --sandbox-allow-write: change */
    int nallow_write;
    const char *const *deny;        /* the run's inputs and outputs,
                                       --sandbox-deny */
    int ndeny;
    unsigned long long scratch_bytes;   /* the scratch tmpfs's size;
                                           0: SANDBOX_SCRATCH_BYTES */
} sandbox_spec;

/*
 * Builds the policy for running the candidate at `candidate` (a resolved
 * path) as `spec` adds to it: the system's library and data folders, /proc
 * and /sys to read; the candidate's folder and the folders its RUNPATH or
 * RPATH names (libelf), LD_LIBRARY_PATH's; the device files of
 * /dev that exist (null, zero, full, random, urandom, nvidia*, dri, kfd);
 * the secrets; a scratch folder made now below $TMPDIR (or /tmp).  As root,
 * the process is to drop to "nobody" with no capability: loading the
 * candidate through a descriptor opened before the drop (SANDBOX_DROP_FD)
 * when that uid cannot read it, its folders or the scratch folder by
 * path, not at all when the uid cannot be taken (`drop_note` says why).  Returns 0,
 * or -1 with *err set (the scratch folder cannot be made).
 */
int sandbox_policy_make(sandbox_policy *p, const char *candidate, const sandbox_spec *spec,
                        char **err);

/* Removes the scratch folder and everything in it, and frees `p`.  Says
 * on stderr what it could not remove. */
void sandbox_policy_free(sandbox_policy *p);

/* Removes the scratch folder and everything in it, and keeps `p` whole:
 * for a process that exits while the observer's thread may still judge a
 * worker's call against `p` (the harness's atexit handler).  Says on
 * stderr what it could not remove; a second call, or sandbox_policy_free
 * after it, removes nothing more. */
void sandbox_policy_clean(sandbox_policy *p);

/* The policy as command-line words ("s:/tmp/reshape-scratch-x", "r:/usr",
 * ...), NULL-terminated, *n of them (the secrets are the observer's: not
 * among them).  Free with sandbox_words_free. */
char **sandbox_policy_words(const sandbox_policy *p, int *n);
void sandbox_words_free(char **words);

/* Reads words of sandbox_policy_words back into `p` (paths copied; free
 * with sandbox_policy_free, which then removes the scratch folder: only
 * the parent's copy is freed).  Returns 0, or -1 for a word it does not
 * know or no scratch folder. */
int sandbox_policy_parse(sandbox_policy *p, int n, char *const *words);

/* 1 when `path` is `root` or lies below it (both absolute, resolved). */
int sandbox_path_under(const char *path, const char *root);

/* ------------------------------------------------------------ calls */

/* The observed calls and how the observer reads their arguments. */
typedef enum act_kind {
    ACT_OPEN,       /* open, openat, openat2, creat: by the flags */
    ACT_CREATE,     /* mkdir, mknod, symlink: a new entry */
    ACT_REMOVE,     /* unlink, rmdir */
    ACT_MOVE,       /* rename, link: from, to */
    ACT_TRUNCATE,
    ACT_ATTR,       /* chmod, chown, utimes, xattrs: always refused */
    ACT_SOCKET,     /* a socket of a family not allowed: always refused */
    ACT_SEND,       /* connect, sendto, sendmsg, sendmmsg: by the address */
    ACT_OWNER       /* fcntl F_SETOWN(_EX), ioctl FIOSETOWN, SIOCSPGRP: by
                       the process it names (sandbox_proc.c) */
} act_kind;

typedef struct act_call {
    const char *name;
    act_kind kind;
    signed char dirfd, path, dirfd2, path2;  /* argument indices, -1: none
                                                (dirfd: the working folder) */
    signed char flags;      /* ACT_OPEN: the flags' argument (-2: creat,
                               -3: openat2's struct open_how) */
    const char *verb;       /* "change the mode of", ... (ACT_ATTR) */
    int fallback;           /* the number where libseccomp does not know the
                               name (calls newer than it), -1: none */
    int nr;                 /* this machine's number, -1 when unknown */
} act_call;

/* The observed calls, with their numbers resolved (once, by the first
 * caller); *n of them. */
const act_call *sandbox_act_calls(int *n);

/*
 * Writes the name of system call `nr` of this machine's native ABI
 * ("kill") into `buf` (room for `size` bytes), or "syscall NR" when
 * libseccomp does not know it.  Returns `buf`.  For the parent, to name a
 * violation from the number a worker recorded.
 */
const char *sandbox_syscall_name(long nr, char *buf, size_t size);

#endif
