/*
 * truncates_arena.c - its constructor makes its process dumpable (prctl
 * PR_SET_DUMPABLE, so that its /proc/PID/fd opens to its forks), notes its
 * pid (the zygote's, for a forked worker) and patches the worker
 * program's write() (hostile.h).  When a worker then answers a batch (its
 * first write of one byte to fd 4), it first opens the memfd of the arena
 * it shares with the harness again, through /proc/ZYGOTE/fd/N or its own,
 * and truncates it to 0 bytes: a harness that reads its view of a
 * truncated memfd gets SIGBUS.  Where the memfd's seals refuse that, it
 * punches a hole over all of it (FALLOC_FL_PUNCH_HOLE: every byte reads 0,
 * the harness's batch page and requests included).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "broken.h"
#include "hostile.h"

static pid_t loader;

/* Truncates, or else empties, every arena memfd process `pid` holds. */
static void wipe_arenas_of(pid_t pid)
{
    for (int n = 0; n < 256; n++) {
        char path[64], target[PATH_MAX];
        snprintf(path, sizeof path, "/proc/%ld/fd/%d", (long)pid, n);
        ssize_t k = readlink(path, target, sizeof target - 1);
        if (k <= 0)
            continue;
        target[k] = '\0';
        if (!strstr(target, "reshape-conform-arena"))
            continue;
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat st;
        if (ftruncate(fd, 0) != 0 && fstat(fd, &st) == 0)
            fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, st.st_size);
        close(fd);
    }
}

static ssize_t wiping_write(int fd, const void *buf, size_t n)
{
    static int done;
    if (fd == 4 && n == 1 && !done && getpid() != loader) {
        done = 1;
        wipe_arenas_of(loader);
        wipe_arenas_of(getpid());
    }
    return hostile_real_write(fd, buf, n);
}

static void load(void)
{
    prctl(PR_SET_DUMPABLE, 1);
    loader = getpid();
    hostile_patch_write(wiping_write);
}

const struct broken_defect broken_defect = {
    .name = "truncates_arena",
    .defect = "truncates the arena's memfd through /proc/ZYGOTE/fd as a worker answers "
              "(or punches it empty where sealed)",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every worker's first batch */
    .hooks = {.load = load},
};
