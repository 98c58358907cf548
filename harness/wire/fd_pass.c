/*
 * fd_pass.c - bytes with fds over a Unix socket (fd_pass.h).  Depends on
 * POSIX sockets.
 */
#include "fd_pass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Room for FD_PASS_MAX fds' control message, aligned as cmsghdr wants. */
typedef union fd_control {
    char buf[CMSG_SPACE(FD_PASS_MAX * sizeof(int))];
    struct cmsghdr align;
} fd_control;

int fd_send_n(int sock, const void *data, size_t n, const int *fds, int nfds)
{
    fd_control u;
    memset(&u, 0, sizeof u);
    struct iovec io = {(void *)data, n};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    if (nfds > 0) {
        size_t bytes = (size_t)nfds * sizeof(int);
        m.msg_control = u.buf;
        m.msg_controllen = CMSG_SPACE(bytes);
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(bytes);
        memcpy(CMSG_DATA(c), fds, bytes);
    }
    ssize_t sent;
    while ((sent = sendmsg(sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    if (sent >= 0 && (size_t)sent != n)
        errno = EIO;
    return sent >= 0 && (size_t)sent == n ? 0 : -1;
}

int fd_send(int sock, const void *data, size_t n, int fd)
{
    return fd_send_n(sock, data, n, &fd, fd >= 0);
}

ssize_t fd_recv_n(int sock, void *data, size_t n, int *fds, int max, int *nfds, int flags)
{
    fd_control u;
    struct iovec io = {data, n};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    ssize_t got;
    while ((got = recvmsg(sock, &m, flags | MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    *nfds = 0;
    for (struct cmsghdr *c = got >= 0 ? CMSG_FIRSTHDR(&m) : NULL; c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int j = 0; j < k; j++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + (size_t)j * sizeof(int), sizeof fd);
            if (*nfds < max)
                fds[(*nfds)++] = fd;
            else
                close(fd);
        }
    }
    return got;
}
