/*
 * sandbox_calls.c - the calls the observed filter hands to the observer or
 * refuses everywhere, and how the observer reads their arguments
 * (sandbox_int.h, sandbox_act_calls).  A call libseccomp does not know
 * (newer than it) is named by its number, the same on x86-64 and arm64.
 * Depends on libseccomp (names to numbers), pthreads.
 */
#include <pthread.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>

#include "sandbox.h"

#define NO (-1)
#define PATH_CALL(name, kind, dirfd, path) {name, kind, dirfd, path, NO, NO, NO, NULL, NO, NO}
#define ATTR_CALL(name, dirfd, path, verb, fallback) \
    {name, ACT_ATTR, dirfd, path, NO, NO, NO, verb, fallback, NO}

static act_call calls[] = {
    {"open", ACT_OPEN, NO, 0, NO, NO, 1, NULL, NO, NO},
    {"creat", ACT_OPEN, NO, 0, NO, NO, -2, NULL, NO, NO},
    {"openat", ACT_OPEN, 0, 1, NO, NO, 2, NULL, NO, NO},
    {"openat2", ACT_OPEN, 0, 1, NO, NO, -3, NULL, NO, NO},
    PATH_CALL("truncate", ACT_TRUNCATE, NO, 0),
    PATH_CALL("mkdir", ACT_CREATE, NO, 0),
    PATH_CALL("mkdirat", ACT_CREATE, 0, 1),
    PATH_CALL("mknod", ACT_CREATE, NO, 0),
    PATH_CALL("mknodat", ACT_CREATE, 0, 1),
    PATH_CALL("symlink", ACT_CREATE, NO, 1),
    PATH_CALL("symlinkat", ACT_CREATE, 1, 2),
    PATH_CALL("unlink", ACT_REMOVE, NO, 0),
    PATH_CALL("unlinkat", ACT_REMOVE, 0, 1),
    PATH_CALL("rmdir", ACT_REMOVE, NO, 0),
    {"rename", ACT_MOVE, NO, 0, NO, 1, NO, "rename", NO, NO},
    {"renameat", ACT_MOVE, 0, 1, 2, 3, NO, "rename", NO, NO},
    {"renameat2", ACT_MOVE, 0, 1, 2, 3, NO, "rename", NO, NO},
    {"link", ACT_MOVE, NO, 0, NO, 1, NO, "link", NO, NO},
    {"linkat", ACT_MOVE, 0, 1, 2, 3, NO, "link", NO, NO},
    ATTR_CALL("chmod", NO, 0, "change the mode of", NO),
    ATTR_CALL("fchmod", 0, NO, "change the mode of", NO),
    ATTR_CALL("fchmodat", 0, 1, "change the mode of", NO),
    ATTR_CALL("fchmodat2", 0, 1, "change the mode of", 452),
    ATTR_CALL("chown", NO, 0, "change the owner of", NO),
    ATTR_CALL("lchown", NO, 0, "change the owner of", NO),
    ATTR_CALL("fchown", 0, NO, "change the owner of", NO),
    ATTR_CALL("fchownat", 0, 1, "change the owner of", NO),
    ATTR_CALL("utime", NO, 0, "change the times of", NO),
    ATTR_CALL("utimes", NO, 0, "change the times of", NO),
    ATTR_CALL("futimesat", 0, 1, "change the times of", NO),
    ATTR_CALL("utimensat", 0, 1, "change the times of", NO),
    ATTR_CALL("setxattr", NO, 0, "set an extended attribute of", NO),
    ATTR_CALL("lsetxattr", NO, 0, "set an extended attribute of", NO),
    ATTR_CALL("fsetxattr", 0, NO, "set an extended attribute of", NO),
    ATTR_CALL("setxattrat", 0, 1, "set an extended attribute of", 463),
    ATTR_CALL("removexattr", NO, 0, "remove an extended attribute of", NO),
    ATTR_CALL("lremovexattr", NO, 0, "remove an extended attribute of", NO),
    ATTR_CALL("fremovexattr", 0, NO, "remove an extended attribute of", NO),
    ATTR_CALL("removexattrat", 0, 1, "remove an extended attribute of", 466),
    ATTR_CALL("file_setattr", 0, 1, "change the attributes of", 469),
    {"socket", ACT_SOCKET, NO, NO, NO, NO, NO, NULL, NO, NO},
    {"connect", ACT_SEND, NO, NO, NO, NO, NO, "connect to", NO, NO},
    {"sendto", ACT_SEND, NO, NO, NO, NO, NO, "send to", NO, NO},
    {"sendmsg", ACT_SEND, NO, NO, NO, NO, NO, "send to", NO, NO},
    {"sendmmsg", ACT_SEND, NO, NO, NO, NO, NO, "send to", NO, NO},
    {"fcntl", ACT_OWNER, NO, NO, NO, NO, NO, NULL, NO, NO},
    {"ioctl", ACT_OWNER, NO, NO, NO, NO, NO, NULL, NO, NO},
};
#define NCALLS ((int)(sizeof calls / sizeof *calls))

static pthread_once_t resolved = PTHREAD_ONCE_INIT;

static void resolve_numbers(void)
{
    for (int i = 0; i < NCALLS; i++) {
        int nr = seccomp_syscall_resolve_name(calls[i].name);
        calls[i].nr = nr != __NR_SCMP_ERROR ? nr : calls[i].fallback;
#if !defined(__x86_64__) && !defined(__aarch64__)
        if (nr == __NR_SCMP_ERROR)
            calls[i].nr = NO;   /* the fallbacks are the generic numbers */
#endif
    }
}

const act_call *sandbox_act_calls(int *n)
{
    pthread_once(&resolved, resolve_numbers);
    *n = NCALLS;
    return calls;
}

const char *sandbox_syscall_name(long nr, char *buf, size_t size)
{
    char *name = nr >= 0 && nr < 1 << 20
                     ? seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)nr) : NULL;
    if (name)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "syscall %ld", nr);
    free(name);
    return buf;
}
