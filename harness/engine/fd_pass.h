/*
 * fd_pass.h - a few bytes with an fd attached (SCM_RIGHTS) over a Unix
 * socket, private to engine/: the parent binds a worker to its arena's
 * memfd (pool.c, worker_proc.c), a confined process hands the observer its
 * seccomp listener (sandbox_confine.c, sandbox_watch.c).  Depends on
 * POSIX sockets.
 */
#ifndef HARNESS_FD_PASS_H
#define HARNESS_FD_PASS_H

#include <stddef.h>
#include <sys/types.h>

/* Sends the `n` bytes at `data` over socket `sock` with `fd` attached
 * (nothing attached when `fd` < 0), again on EINTR, never raising
 * SIGPIPE.  Returns 0 when all went, else -1 with errno set. */
int fd_send(int sock, const void *data, size_t n, int fd);

/*
 * Receives up to `n` bytes into `data` from socket `sock` (recvmsg
 * `flags`, MSG_CMSG_CLOEXEC added), again on EINTR; *fd receives the fd
 * attached (close-on-exec), or -1 when none came.  Returns the bytes
 * received, or -1 with errno set.
 */
ssize_t fd_recv(int sock, void *data, size_t n, int *fd, int flags);

#endif
