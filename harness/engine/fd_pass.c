/*
 * fd_pass.c - bytes with an fd over a Unix socket (fd_pass.h).  Depends on
 * POSIX sockets.
 */
#include "fd_pass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Room for one fd's control message, aligned as cmsghdr wants. */
typedef union fd_control {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
} fd_control;

int fd_send(int sock, const void *data, size_t n, int fd)
{
    fd_control u;
    memset(&u, 0, sizeof u);
    struct iovec io = {(void *)data, n};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    if (fd >= 0) {
        m.msg_control = u.buf;
        m.msg_controllen = sizeof u.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    ssize_t sent;
    while ((sent = sendmsg(sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    if (sent >= 0 && (size_t)sent != n)
        errno = EIO;
    return sent >= 0 && (size_t)sent == n ? 0 : -1;
}

ssize_t fd_recv(int sock, void *data, size_t n, int *fd, int flags)
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
    *fd = -1;
    struct cmsghdr *c = got >= 0 ? CMSG_FIRSTHDR(&m) : NULL;
    if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
        c->cmsg_len == CMSG_LEN(sizeof(int)))
        memcpy(fd, CMSG_DATA(c), sizeof *fd);
    return got;
}
