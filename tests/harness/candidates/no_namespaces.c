/*
 * no_namespaces.c - no candidate: an LD_PRELOAD shim for
 * test_sandbox_layers.c that makes this machine look like one whose
 * kernel has no Landlock (landlock_create_ruleset fails with ENOSYS, as
 * before Linux 5.13) and refuses every namespace (unshare fails with
 * EPERM, as a container's seccomp profile does), for the harness and the
 * workers it spawns (they inherit its environment).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

#define VISIBLE __attribute__((visibility("default")))

VISIBLE int unshare(int flags)
{
    (void)flags;
    errno = EPERM;
    return -1;
}

/* syscall(2)'s wrapper: Landlock's refused, every other call passed on
 * with six arguments, as glibc's own wrapper reads them. */
VISIBLE long syscall(long nr, ...)
{
    if (nr == SYS_landlock_create_ruleset) {
        errno = ENOSYS;
        return -1;
    }
    va_list ap;
    va_start(ap, nr);
    long a[6];
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    static long (*real)(long, ...);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "syscall");
    return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
