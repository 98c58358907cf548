/*
 * sandbox_proc.c - the observer's view of the processes it watches
 * (sandbox_int.h): a process's fields in /proc, and the owner of an fd's
 * signals.  The owner (fcntl F_SETOWN, F_SETOWN_EX; ioctl FIOSETOWN,
 * SIOCSPGRP) is the process the kernel signals when the fd is ready, with
 * the signal F_SETSIG names (SIGKILL as well): a way past the filter's
 * kill rules, since the kernel checks only that the uids match, and a
 * worker, its zygote and a harness run by a user all have that user's.  A
 * confined process may name itself or one of its threads; the observer
 * sets that owner itself, with what it read once, so that a thread which
 * changes the argument after the read changes nothing.  Depends on
 * sandbox_int.h, Linux pidfds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sandbox_int.h"

pid_t sandbox_proc_field(pid_t pid, const char *key)
{
    char path[64], line[128];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "re");
    long v = -1;
    size_t n = strlen(key);
    while (f && v < 0 && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n))
            v = strtol(line + n, NULL, 10);
    if (f)
        fclose(f);
    return (pid_t)v;
}

/* An owner as the call names it: `pid` a process (or with `thread` a
 * thread; below 0 a process group, 0 none). */
typedef struct owner {
    int thread;
    long pid;
} owner;

/* The owner notification `req` of call `c` sets: 0, or -1 when it cannot
 * be read (the call is then left to fail or succeed on its own: it sets
 * nothing the observer could judge). */
static int read_owner(const struct seccomp_notif *req, owner *o)
{
    unsigned cmd = (unsigned)req->data.args[1];
    uint64_t arg = req->data.args[2];
    memset(o, 0, sizeof *o);
    if (cmd == F_SETOWN) {
        o->pid = (int)arg;
        return 0;
    }
    struct iovec remote = {(void *)(uintptr_t)arg, 0}, local;
    struct f_owner_ex ex;
    int v;
    if (cmd == F_SETOWN_EX) {
        local = (struct iovec){&ex, sizeof ex};
    } else {
        local = (struct iovec){&v, sizeof v};   /* FIOSETOWN, SIOCSPGRP */
    }
    remote.iov_len = local.iov_len;
    if (process_vm_readv((pid_t)req->pid, &local, 1, &remote, 1, 0) != (ssize_t)local.iov_len)
        return -1;
    if (cmd != F_SETOWN_EX) {
        o->pid = v;
        return 0;
    }
    o->thread = ex.type == F_OWNER_TID;
    o->pid = ex.type == F_OWNER_PGRP ? -(long)ex.pid : ex.pid;
    return ex.type == F_OWNER_TID || ex.type == F_OWNER_PID || ex.type == F_OWNER_PGRP ? 0 : -1;
}

/* 1 when `o` names no one, the calling process of `req` or a thread of
 * it. */
static int own(const struct seccomp_notif *req, const owner *o)
{
    if (o->pid == 0)
        return 1;
    pid_t self = sandbox_proc_field((pid_t)req->pid, "Tgid:");
    return o->pid > 0 && self > 0 && sandbox_proc_field((pid_t)o->pid, "Tgid:") == self &&
           (o->thread || o->pid == self);
}

act_outcome sandbox_owner_judge(const struct seccomp_notif *req, char *what)
{
    owner o;
    if (read_owner(req, &o) != 0)
        return ACT_ALLOWED;
    if (own(req, &o))
        return ACT_OWN_OWNER;
    unsigned cmd = (unsigned)req->data.args[1];
    const char *how = cmd == F_SETOWN ? "fcntl F_SETOWN" : cmd == F_SETOWN_EX ? "fcntl F_SETOWN_EX"
                      : cmd == FIOSETOWN ? "ioctl FIOSETOWN" : "ioctl SIOCSPGRP";
    snprintf(what, SANDBOX_ACT_BYTES, "signal %s %ld (%s)",
             o.pid < 0 ? "process group" : o.thread ? "thread" : "process",
             o.pid < 0 ? -o.pid : o.pid, how);
    return ACT_STOP;
}

int sandbox_owner_set(int listener, const struct seccomp_notif *req)
{
    owner o;
    if (read_owner(req, &o) != 0 || !own(req, &o))
        return -EPERM;
    int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)req->pid, 0);
    if (pidfd < 0)
        return -ESRCH;
    /* the pidfd is the caller's while its call still waits */
    int fd = seccomp_notify_id_valid(listener, req->id) == 0
                 ? (int)syscall(SYS_pidfd_getfd, pidfd, (int)req->data.args[0], 0) : -1;
    int rc = fd < 0 ? -EBADF : 0;
    if (fd >= 0) {
        struct f_owner_ex ex = {o.thread ? F_OWNER_TID : F_OWNER_PID, (pid_t)o.pid};
        if (fcntl(fd, F_SETOWN_EX, &ex) != 0)
            rc = -errno;
        close(fd);
    }
    close(pidfd);
    return rc;
}
