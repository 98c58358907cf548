/*
 * fd_pass.h - a few bytes with fds attached (SCM_RIGHTS) over a Unix
 * socket, part of the wire door (wire.h): the parent binds a process to its arena's
 * memfd (pool.c, worker_proc.c) and hands a zygote a new worker's three
 * channels (spawn.c, zygote.c), a confined process hands the observer its
 * seccomp listener (sandbox_confine.c, sandbox_watch.c).  Depends on
 * POSIX sockets.
 */
#ifndef HARNESS_FD_PASS_H
#define HARNESS_FD_PASS_H

#include <stddef.h>
#include <sys/types.h>

/* The most fds one message carries. */
#define FD_PASS_MAX 4

/* Sends the `n` bytes at `data` over socket `sock` with fds[0..nfds)
 * attached (0 <= nfds <= FD_PASS_MAX), again on EINTR, never raising
 * SIGPIPE.  Returns 0 when all went, else -1 with errno set. */
int fd_send_n(int sock, const void *data, size_t n, const int *fds, int nfds);

/* fd_send_n with one fd, or none when `fd` < 0. */
int fd_send(int sock, const void *data, size_t n, int fd);

/*
 * Receives up to `n` bytes into `data` from socket `sock` (recvmsg
 * `flags`, MSG_CMSG_CLOEXEC added), again on EINTR; fds[0..*nfds) receive
 * the fds attached (close-on-exec), at most `max` (<= FD_PASS_MAX; any
 * more are closed).  Returns the bytes received, or -1 with errno set
 * (*nfds then 0).
 */
ssize_t fd_recv_n(int sock, void *data, size_t n, int *fds, int max, int *nfds, int flags);

#endif
