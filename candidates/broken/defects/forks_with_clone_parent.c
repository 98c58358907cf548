/*
 * forks_with_clone_parent.c - on its first execute the kernel starts a
 * process with clone(CLONE_PARENT), so that it is the child of the
 * worker's parent (the harness), not of the worker, then gives it a
 * moment: the process tries to connect to 203.0.113.1:443 (TEST-NET-3,
 * RFC 5737) and then sleeps for ten minutes, named "broken-stray".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "broken.h"

/* The process: a TCP connect, then sleep.  Raw system calls only: the
 * raw clone leaves the C library's view of the thread stale. */
static void stray(void)
{
    prctl(PR_SET_NAME, "broken-stray");
    int fd = (int)syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
    if (fd >= 0) {
        struct sockaddr_in to;
        memset(&to, 0, sizeof to);
        to.sin_family = AF_INET;
        to.sin_port = htons(443);
        to.sin_addr.s_addr = htonl(0xCB007101);     /* 203.0.113.1 */
        syscall(SYS_connect, fd, (const struct sockaddr *)&to, sizeof to);
    }
    struct timespec t = {600, 0};
    syscall(SYS_nanosleep, &t, NULL);
    syscall(SYS_exit, 0);
}

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int started;
    (void)src;
    (void)dst;
    if (started++)
        return;
    long pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0)
        stray();
    struct timespec t = {0, 200 * 1000000};
    nanosleep(&t, NULL);
}

const struct broken_defect broken_defect = {
    .name = "forks_with_clone_parent",
    .defect = "clone(CLONE_PARENT) on its first execute: a process that connects, then sleeps",
    .expect = "LEAK",
    .hooks = {.enter = enter},
};
