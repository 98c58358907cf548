/*
 * self_signal.c - the kill family aimed at the calling process, carried
 * out for the sandbox's SIGSYS handler (self_signal.h).  Depends on Linux
 * fcntl and system call numbers.
 */
#define _GNU_SOURCE
#include "self_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 1 when `tid` is a thread of the calling process: the calling thread
 * (raise, abort), or one /proc/self/task lists.  Async-signal-safe. */
static int own_thread(long tid)
{
    if (tid <= 0)
        return 0;
    if (tid == (long)syscall(SYS_gettid))
        return 1;
    char path[48] = "/proc/self/task/", digits[24];
    int n = 0, at = 16;
    do
        digits[n++] = (char)('0' + tid % 10);
    while ((tid /= 10) > 0 && n < 23);
    while (n > 0)
        path[at++] = digits[--n];
    path[at] = '\0';
    return faccessat(AT_FDCWD, path, F_OK, 0) == 0;
}

/* Queues `sig` to process `pid` (`thread` 0) or to thread `pid` of the
 * calling process.  Returns 0 or minus errno. */
static long deliver(int thread, long pid, long sig)
{
    if (sig == 0)
        return 0;
    if (sig < 0 || sig > 64)
        return -EINVAL;
    int p[2];
    if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0)
        return -EAGAIN;
    struct f_owner_ex owner = {thread ? F_OWNER_TID : F_OWNER_PID, (pid_t)pid};
    long rc = 0;
    char byte = 0;
    if (fcntl(p[0], F_SETOWN_EX, &owner) != 0 || fcntl(p[0], F_SETSIG, (int)sig) != 0 ||
        fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK) != 0 || write(p[1], &byte, 1) != 1)
        rc = -EAGAIN;
    close(p[0]);
    close(p[1]);
    return rc;
}

int self_signal(long nr, const long a[3], long *ret)
{
    long self = (long)getpid();
    switch (nr) {
    case SYS_kill:
    case SYS_rt_sigqueueinfo:
        if (a[0] != self)
            return 0;
        *ret = deliver(0, self, a[1]);
        return 1;
    case SYS_tgkill:
    case SYS_rt_tgsigqueueinfo:
        if (a[0] != self)
            return 0;
        /* the kernel would look for the thread in this process only */
        *ret = own_thread(a[1]) ? deliver(1, a[1], a[2]) : -ESRCH;
        return 1;
    case SYS_tkill:
        if (!own_thread(a[0]))
            return 0;
        *ret = deliver(1, a[0], a[1]);
        return 1;
    default:
        return 0;
    }
}
