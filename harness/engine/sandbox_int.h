/*
 * sandbox_int.h - what the sandbox's files share, private to engine/:
 * Landlock's ruleset (sandbox_fs.c), the observed filter's calls
 * (sandbox_calls.c) and what the observer makes of one (sandbox_act.c;
 * the processes and the owners of fds' signals: sandbox_proc.c).  Depends on sandbox.h and
 * the kernel's seccomp header.
 */
#ifndef HARNESS_SANDBOX_INT_H
#define HARNESS_SANDBOX_INT_H

#include <linux/seccomp.h>
#include <stdint.h>
#include <sys/types.h>

#include "proc/sandbox.h"

/* Landlock's ABI version on this kernel, 0 when it has none (too old, or
 * not in the LSM list). */
int sandbox_landlock_abi(void);

/*
 * The Landlock ruleset of `p` for ABI `abi`: every file access, TCP bind
 * and connect (ABI 4) and, scoped (ABI 6), abstract Unix sockets and
 * signals are handled; `read` may be read and executed, less the `deny`
 * paths below it (carved: every other entry of the folders on the way
 * gets its own rule, the folders themselves cannot be listed); the
 * scratch folder and `write` may be changed; `dev` read, written and
 * ioctl'd.  Returns the ruleset's fd, or -1 with errno set.
 */
int sandbox_fs_ruleset(const sandbox_policy *p, int abi);

/*
 * As root: sets p->uid, p->gid to "nobody", "nogroup" (65534 where they
 * are missing) and p->drop: SANDBOX_DROP_FULL, or SANDBOX_DROP_FD when
 * that uid cannot read `candidate` or the folders of p->read from index
 * `first_own` on (the scratch folder is moved to /tmp first when it is
 * the one it cannot reach), SANDBOX_DROP_NONE when it cannot be taken
 * (p->drop_note says why); gives it the scratch folder.  Not root: does
 * nothing.  In sandbox_uid.c.
 */
void sandbox_choose_uid(sandbox_policy *p, const char *candidate, int first_own);

/* The inodes a scratch tmpfs may hold (files and folders). */
#define SANDBOX_SCRATCH_INODES 65536u

/*
 * With p->scratch_bytes set: a mount namespace of the calling process's
 * own (nothing propagates back), and a tmpfs of that size (and
 * SANDBOX_SCRATCH_INODES) on p->scratch, owned by the uid the process
 * drops to, its working folder.  Returns 1 when mounted, 0 when
 * scratch_bytes is 0 or the kernel refuses a mount namespace (the folder
 * on the disk is used then), -1 with errno set when the namespace is
 * there but the mount fails.  In sandbox_mount.c.
 */
int sandbox_scratch_mount(const sandbox_policy *p);

/*
 * With SANDBOX_DROP_FD, in the mount namespace sandbox_scratch_mount made:
 * each folder of p->read the dropped uid cannot reach (the candidate's, in
 * a `mktemp -d` folder or below /root; its RUNPATH's) made reachable in
 * that namespace alone, with no capability: a tmpfs on the first folder on
 * its way that is closed to the uid, the way down made in it, the folder
 * bound there (or, itself closed, a view of its entries: files and folders
 * bound, symbolic links made again).  What else the closed folder holds is
 * hidden.  Returns 0, or -1 with errno set.  In sandbox_mount.c.
 */
int sandbox_open_views(const sandbox_policy *p);

/* With SANDBOX_DROP_FD: the candidate opened for reading (before the
 * drop); else -1.  In sandbox_mount.c. */
int sandbox_candidate_fd(const sandbox_policy *p);

/* Restricts the calling process (and what it starts) to ruleset `fd`,
 * and closes it.  Returns 0, or -1 with errno set. */
int sandbox_fs_restrict(int fd);

/* What a confined process writes the observer: fd `fd` of process `pid`
 * to take (its listener; -1: none), or with `probe` only to try whether
 * it can.  The observer answers with a signal (sandbox_confine.c). */
typedef struct sandbox_hello {
    int32_t pid;
    int32_t fd;
    int32_t probe;
    sandbox_facts facts;
} sandbox_hello;

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

/* What the observer makes of a call. */
typedef enum act_outcome {
    ACT_ALLOWED,    /* nothing to say: the kernel decides (it allows) */
    ACT_NOTE,       /* refused, the call fails: a note for the report */
    ACT_STOP,       /* refused, and the worker is stopped for it */
    ACT_OWN_NAME,   /* its own thread's name (/proc/PID/task/TID/comm):
                       the observer opens it and hands the fd over */
    ACT_OWN_OWNER   /* an fd's signals to itself: the observer sets the
                       owner (sandbox_owner_set) */
} act_outcome;

/*
 * Judges notification `req` (of a process confined under `p`): reads its
 * paths and addresses from the process (process_vm_readv, /proc), says in
 * `what` (room for SANDBOX_ACT_BYTES) what it tried ("open cases/x.yaml
 * for writing"), and sets *refuse to the errno to answer with when the
 * call must fail whatever the outcome (ACT_ATTR, ACT_SOCKET), else 0 (the
 * kernel's layers decide).
 */
act_outcome sandbox_act_judge(const sandbox_policy *p, const struct seccomp_notif *req,
                              char *what, int *refuse);

/*
 * For ACT_OWN_NAME: opens the resolved path sandbox_act_judge left in
 * `what` for the caller of `req` (its own name file, checked again here)
 * with the caller's access mode, and passes the fd to it as the call's
 * result through listener `listener` (SECCOMP_IOCTL_NOTIF_ADDFD).
 * Returns 0, or -1 (the call is then refused).
 */
int sandbox_act_open_own_name(int listener, const struct seccomp_notif *req,
                              const char *what);

/*
 * `full` (an absolute path, or one from "/proc/TID/cwd" or
 * "/proc/TID/fd/N") resolved as thread `tid` sees it, in its own mount
 * namespace, into `out` (PATH_MAX): its last link followed (`follow`,
 * then it must exist), or its folder resolved and its last name kept.
 * Returns 0, or -1 (missing).  In sandbox_path.c.
 */
int sandbox_resolve(pid_t tid, const char *full, int follow, char *out);

/* 1 when resolved `path` names an entry (a link not followed) in the
 * mount namespace of thread `tid`.  In sandbox_path.c. */
int sandbox_exists(pid_t tid, const char *path);

/*
 * For an open of resolved `path` for access mode `acc` (O_RDONLY, ...) by
 * thread `tid`: ACT_STOP with `what` ("read /proc/4321/cmdline (another
 * process's)") when it names an entry of a process that is not the
 * caller's or one its worker started; else ACT_ALLOWED.  In
 * sandbox_reach.c.
 */
act_outcome sandbox_reach_proc(pid_t tid, const char *path, int acc, char *what);

/*
 * For an open the policy allows, with root dropped: ACT_STOP with `what`
 * ("read /etc/app.conf (closed to uid 65534)") when the dropped uid may
 * not open `path` by the mode bits of the file and the folders on its way
 * (the candidate itself, loaded through a descriptor; /proc, /sys, /dev;
 * the views of sandbox_open_views aside); else ACT_ALLOWED.  In
 * sandbox_reach.c.
 */
act_outcome sandbox_reach_closed(const sandbox_policy *p, const char *path, int acc,
                                 char *what);

/*
 * For a connect or send (`call`, described by `verb`) of thread `tid` to
 * an address of a family other than AF_INET and AF_INET6, `len` bytes of
 * it in `sa`: ACT_STOP with `what` for an abstract Unix socket, a
 * pathname one that exists outside the scratch folder, or a send to an
 * address of a family no network has here (AF_UNSPEC); else ACT_ALLOWED
 * (AF_NETLINK, an unnamed or missing Unix socket, connect(AF_UNSPEC)).
 * In sandbox_reach.c.
 */
struct sockaddr_storage;
act_outcome sandbox_reach_send(const sandbox_policy *p, pid_t tid, const char *call,
                               const char *verb, const struct sockaddr_storage *sa,
                               unsigned len, char *what);

/* The number after `key` ("Tgid:", "PPid:") in /proc/PID/status, or -1
 * (sandbox_proc.c). */
pid_t sandbox_proc_field(pid_t pid, const char *key);

/* For an ACT_OWNER call: ACT_OWN_OWNER when the owner it sets is none,
 * the caller's process or one of its threads; else ACT_STOP with `what`
 * ("signal process 4321 (fcntl F_SETOWN)"); ACT_ALLOWED when the owner
 * cannot be read (it sets none then).  In sandbox_proc.c. */
act_outcome sandbox_owner_judge(const struct seccomp_notif *req, char *what);

/* For ACT_OWN_OWNER: reads the owner again, and when it is still the
 * caller's own, sets it on the caller's fd (pidfd_getfd) with what it
 * read.  Returns the call's result: 0, or minus an errno.  In
 * sandbox_proc.c. */
int sandbox_owner_set(int listener, const struct seccomp_notif *req);

#endif
