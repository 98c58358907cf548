/*
 * confine_int.h - what the confinement's files share, private to worker/:
 * Landlock's ruleset (sandbox_fs.c) and the scratch tmpfs, the views of
 * closed folders and the candidate's descriptor (sandbox_mount.c), for
 * sandbox_confine.c.  Depends on confine.h.
 */
#ifndef HARNESS_CONFINE_INT_H
#define HARNESS_CONFINE_INT_H

#include "confine.h"

/* Landlock's ABI version on this kernel, 0 when it has none (too old, or
 * not in the LSM list). */
int sandbox_landlock_abi(void);

/*
 * The Landlock ruleset of `p` for ABI `abi`: every file access, TCP bind
 * and connect (ABI 4) and, scoped (ABI 6), abstract Unix sockets and
 * signals are handled; `read` may be read and executed, less the `deny`
 * paths below it (carved: every other entry of the folders on the way
 * gets its own rule, the folders themselves cannot be listed); the
 * scratch folder and `write` may be changed; `dev` read, written and
 * ioctl'd.  Returns the ruleset's fd, or -1 with errno set.
 */
int sandbox_fs_ruleset(const sandbox_policy *p, int abi);

/* The inodes a scratch tmpfs may hold (files and folders). */
#define SANDBOX_SCRATCH_INODES 65536u

/*
 * With p->scratch_bytes set: a mount namespace of the calling process's
 * own (nothing propagates back), and a tmpfs of that size (and
 * SANDBOX_SCRATCH_INODES) on p->scratch, owned by the uid the process
 * drops to, its working folder.  Returns 1 when mounted, 0 when
 * scratch_bytes is 0 or the kernel refuses a mount namespace (the folder
 * on the disk is used then), -1 with errno set when the namespace is
 * there but the mount fails.  In sandbox_mount.c.
 */
int sandbox_scratch_mount(const sandbox_policy *p);

/*
 * With SANDBOX_DROP_FD, in the mount namespace sandbox_scratch_mount made:
 * each folder of p->read the dropped uid cannot reach (the candidate's, in
 * a `mktemp -d` folder or below /root; its RUNPATH's) made reachable in
 * that namespace alone, with no capability: a tmpfs on the first folder on
 * its way that is closed to the uid, the way down made in it, the folder
 * bound there (or, itself closed, a view of its entries: files and folders
 * bound, symbolic links made again).  What else the closed folder holds is
 * hidden.  Returns 0, or -1 with errno set.  In sandbox_mount.c.
 */
int sandbox_open_views(const sandbox_policy *p);

/* With SANDBOX_DROP_FD: the candidate opened for reading (before the
 * drop); else -1.  In sandbox_mount.c. */
int sandbox_candidate_fd(const sandbox_policy *p);

/* Restricts the calling process (and what it starts) to ruleset `fd`,
 * and closes it.  Returns 0, or -1 with errno set. */
int sandbox_fs_restrict(int fd);

#endif
