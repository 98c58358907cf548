/*
 * sandbox_int.h - what the observer's files share, private to engine/:
 * what the observer makes of one observed call (sandbox_act.c; what it
 * reaches: sandbox_reach.c; paths: sandbox_path.c; the processes and the
 * owners of fds' signals: sandbox_proc.c).  The observed calls themselves
 * are proc/sandbox.h's.  Depends on sandbox_watch.h, proc/proc.h and the
 * kernel's seccomp header.
 */
#ifndef HARNESS_SANDBOX_INT_H
#define HARNESS_SANDBOX_INT_H

#include <linux/seccomp.h>
#include <stdint.h>
#include <sys/types.h>

#include "proc/proc.h"
#include "sandbox_watch.h"
#include "wire/wire.h"

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
