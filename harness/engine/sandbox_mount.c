/*
 * sandbox_mount.c - what a confined process gets of the file system
 * besides Landlock (sandbox_int.h): its scratch folder as a size-limited
 * tmpfs of a mount namespace of its own, which goes with the last process
 * in it (a chain of folders too deep to remove by path, or a disk filled,
 * stays in memory the run bounds and frees); and the candidate opened
 * before root is dropped, loaded through that descriptor (sandbox.h,
 * sandbox_load_path), so that no capability is kept to reach it.
 * Depends on sandbox_int.h and Linux's mount calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

#include "sandbox_int.h"

int sandbox_scratch_mount(const sandbox_policy *p)
{
    if (!p->scratch_bytes)
        return 0;
    if (unshare(CLONE_NEWNS) != 0)
        return 0;
    /* nothing mounted here reaches the harness's namespace */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return -1;
    unsigned uid = p->drop ? (unsigned)p->uid : (unsigned)geteuid();
    unsigned gid = p->drop ? (unsigned)p->gid : (unsigned)getegid();
    char opts[160];
    snprintf(opts, sizeof opts, "size=%llu,nr_inodes=%u,mode=0700,uid=%u,gid=%u",
             (unsigned long long)p->scratch_bytes, SANDBOX_SCRATCH_INODES, uid, gid);
    if (mount("reshape-scratch", p->scratch, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
        return -1;
    return chdir(p->scratch) == 0 ? 1 : -1;
}

int sandbox_candidate_fd(const sandbox_policy *p)
{
    if (p->drop != SANDBOX_DROP_FD || !p->candidate)
        return -1;
    return open(p->candidate, O_RDONLY | O_CLOEXEC);
}

const char *sandbox_load_path(const sandbox_facts *facts, const char *candidate, char *buf,
                              size_t size)
{
    if (!facts || facts->candidate_fd < 0)
        return candidate;
    snprintf(buf, size, "/proc/self/fd/%d", facts->candidate_fd);
    return buf;
}
