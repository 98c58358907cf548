/*
 * census.c - the parent's measurements of a worker, from /proc (census.h):
 * the repeat variant's memory samples, and what a batch left running.
 * The worker's own reports (its memory samples in the response, its
 * WORKER_STRAYS byte) are written by the candidate's process and are only
 * hints.  Depends on engine_int.h, reaper.h, sandbox.h, census_sleep.h and Linux /proc.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "proc/proc.h"
#include "census.h"
#include "census_sleep.h"

/* The most processes of a worker's group one look takes in. */
#define CENSUS_GROUP_MAX 256

/* "Anonymous:" of /proc/PID/smaps_rollup, in bytes, or -1 when it cannot
 * be read. */
static int64_t rollup_anonymous(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/smaps_rollup", (long)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    long long kb;
    int64_t v = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Anonymous: %lld kB", &kb) == 1) {
            v = (int64_t)kb * 1024;
            break;
        }
    fclose(f);
    return v;
}

/* From /proc/PID/statm, in bytes: the data size into *data and resident
 * less shared (an estimate of the anonymous memory) into *anon.  Returns 0,
 * or -1 when it cannot be read. */
static int statm_sizes(pid_t pid, int64_t *data, int64_t *anon)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    long long size, resident, shared, text, lib, dat;
    int ok = fscanf(f, "%lld %lld %lld %lld %lld %lld", &size, &resident, &shared, &text, &lib,
                    &dat) == 6;
    fclose(f);
    if (!ok)
        return -1;
    long page = sysconf(_SC_PAGESIZE);
    *data = (int64_t)dat * page;
    *anon = (int64_t)(resident - shared) * page;
    return 0;
}

void census_batch(slot *s, int i, const int *cells, int n)
{
    /* a fork of the slot's zygote is born in the slot's cgroup, while the
     * zygote is in it (pool.c, fork_in_room) */
    if (s->w.batches == 1 && s->w.pid > 0 && (!s->w.forked || s->zygote_out))
        bounds_slot_join(i, s->w.pid);
    if (!s->w.forked && s->w.threads == 0 && s->w.pid > 0)
        s->w.threads = reaper_threads(s->w.pid);    /* what loading started */
    memset(s->sampled, 0, sizeof s->sampled);
    int ends = 0;
    for (int k = 0; k < n; k++) {
        const wire_request *q = arena_request(&s->ar.cells[cells[k]], s->ar.pview);
        ends |= q->kind == REQ_THREADS || q->kind == REQ_REPEAT;
        if (q->kind != REQ_REPEAT)
            continue;
        if (!s->samples)
            s->samples = xcalloc(1, sizeof *s->samples);
        s->sampled[cells[k]] = 1;
        s->samples->n[cells[k]] = 0;
    }
    if (s->samples)
        s->samples->extra = 0;
    /* what its ended threads ran before the batch, against after it; not
     * for a batch where threads end for other reasons than the candidate's
     * last return: the worker's own of a threads request, and a repeat
     * request's calls before its last, whose threads may end in any (the
     * thread count at its last return judges it) */
    s->dead_ns = ends ? -1 : census_dead_ns(s->w.pid, 1);
}

void census_sample(slot *s, int at)
{
    if (!s->samples)
        s->samples = xcalloc(1, sizeof *s->samples);
    engine_samples *m = s->samples;
    int c = s->cells[at];
    if (!s->sampled[c] || m->n[c] >= WIRE_MEM_SAMPLES) {
        m->extra++;
    } else {
        int k = m->n[c]++;
        int64_t data = -1, anon = -1, rollup = rollup_anonymous(s->w.pid);
        statm_sizes(s->w.pid, &data, &anon);
        m->anon[c][k] = rollup >= 0 ? rollup : anon;
        m->data[c][k] = data;
    }
    char go = 'g';
    if (write(s->w.req_w, &go, 1) != 1) {
        /* it died meanwhile: the poll loop reports it */
    }
}

/* Kills and reaps the harness's children in the process group of slot
 * `s`'s worker (clone(CLONE_PARENT) made them the harness's), each with
 * what runs below it; the first sandbox stop filed under one of them goes
 * into out->sandbox_stop.  Returns how many there were. */
static int group_strays(engine *e, slot *s, completion *out)
{
    pid_t pg = getpgid(s->w.pid);
    if (pg <= 0)
        return 0;
    pid_t found[CENSUS_GROUP_MAX];
    int n = reaper_group_strays(pg, s->w.pid, &s->w.parent_tid, found, CENSUS_GROUP_MAX);
    int below = 0;
    for (int k = 0; k < n; k++) {
        below += reaper_kill_descendants(found[k]);
        kill(found[k], SIGKILL);
        while (waitpid(found[k], NULL, __WALL) < 0 && errno == EINTR)
            ;
        char stop[SANDBOX_ACT_BYTES];
        if (e->watch && sandbox_watch_take_stop(e->watch, found[k], stop, sizeof stop) &&
            !out->sandbox_stop[0])
            snprintf(out->sandbox_stop, sizeof out->sandbox_stop, "%s", stop);
    }
    return n + below;
}

/* How long the parent waits, at most, for a worker's threads to park
 * after a batch (a pool that spins before it sleeps, as OpenMP's does). */
#define CENSUS_SETTLE_MS 50

/* 1 when thread `tid` of process `pid` is parked: blocked in a futex wait
 * with no timeout (an idle pool thread: nothing but another thread of the
 * process wakes it, and the worker's own is back in the harness's code),
 * read from /proc/PID/task/TID/syscall. */
static int parked(pid_t pid, const char *tid)
{
    char path[320], buf[256];
    snprintf(path, sizeof path, "/proc/%ld/task/%s/syscall", (long)pid, tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT;     /* it ended meanwhile */
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    long long nr;
    unsigned long long uaddr, op, val, timeout;
    if (sscanf(buf, "%lld %llx %llx %llx %llx", &nr, &uaddr, &op, &val, &timeout) != 5)
        return 0;   /* "running", or not in a system call */
    unsigned cmd = (unsigned)(op & 127);   /* without FUTEX_PRIVATE_FLAG, the clock */
    return nr == SYS_futex && (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET) && timeout == 0;
}

/* Threads of process `pid` other than its first (the worker's own) that
 * are not parked; every thread into *total, and into *undecided those of
 * them that may still park by CLOCK_MONOTONIC `by` (not asleep past it
 * since `since`: census_sleep.h).  0 when it is gone. */
static int unparked(pid_t pid, int *total, int *undecided, int64_t since, int64_t by)
{
    char path[64], self[24];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    snprintf(self, sizeof self, "%ld", (long)pid);
    *total = 0;
    *undecided = 0;
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int busy = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        ++*total;
        if (strcmp(e->d_name, self) != 0 && !parked(pid, e->d_name)) {
            busy++;
            *undecided += !census_sleeps_past(pid, e->d_name, since, by);
        }
    }
    closedir(d);
    return busy;
}

/* Waits a millisecond for the threads of process `pid` to park, or less
 * when it ends meanwhile (a late write faulted, so nothing is left to
 * wait for), through a pidfd that *fd holds: -1, one is opened; once it
 * said the process ended, or none could be opened, the whole millisecond
 * each time (-2), as without one. */
static void settle_wait(pid_t pid, int *fd)
{
    if (*fd == -1 && (*fd = (int)syscall(SYS_pidfd_open, pid, 0)) < 0)
        *fd = -2;
    if (*fd >= 0) {
        struct pollfd f = {*fd, POLLIN, 0};
        int r = poll(&f, 1, 1);
        if (r == 0)
            return;
        close(*fd);
        *fd = -2;
        if (r > 0)
            return;
    }
    struct timespec t = {0, 1000000};
    nanosleep(&t, NULL);
}

/* Threads slot `s`'s worker left running after its batch: those still not
 * parked after at most CENSUS_SETTLE_MS, when it has more threads than
 * before its first batch; else 0.  A thread asleep past the end of that
 * wait cannot park within it: once every thread not parked is one, the
 * wait ends (a thread that sleeps or waits with a timeout is counted
 * anyway, so only the wait is saved); so does it when the worker ends. */
static int threads_left(slot *s)
{
    int64_t by = engine_mono_ns() + (int64_t)CENSUS_SETTLE_MS * 1000000;
    int total, undecided, busy = unparked(s->w.pid, &total, &undecided, s->submit_ns, by);
    int base = s->w.threads > 0 ? s->w.threads : 1, fd = -1;
    for (int ms = 0; busy > 0 && undecided > 0 && ms < CENSUS_SETTLE_MS; ms++) {
        settle_wait(s->w.pid, &fd);
        int was = busy, before = total;
        busy = unparked(s->w.pid, &total, &undecided, s->submit_ns, by);
        if (total == 0) {   /* it died meanwhile (a late write faulted):
                               they ran after the return all the same */
            if (fd >= 0)
                close(fd);
            return before > base ? was : 0;
        }
    }
    if (fd >= 0)
        close(fd);
    return busy > 0 && total > base ? busy : 0;
}

void census_after_batch(engine *e, slot *s, int said_strays, completion *out)
{
    pid_t w = s->w.pid;
    int strays = 0, listed = 0, children = census_final_children(s, &listed);
    if (said_strays || children > 0)
        strays += reaper_kill_descendants(w);
    strays += group_strays(e, s, out);
    int threads = e->hello.probe.device_type ? 0 : threads_left(s);
    if (threads > 0) {
        /* no thread of it may write dst while the batch is judged */
        strays += proc_kill(&s->w, NULL);
        out->threads = threads;
    } else {
        /* what ran past each return; a child killed above was not gone.
         * A thread that ended during the batch (the kernel's accounting of
         * its runtime) may have written dst between a return and the seal
         * and be gone before the worker counted its threads: a device's
         * threads come and go, and are not looked at */
        int64_t dead = s->dead_ns >= 0 && !e->hello.probe.device_type ? census_dead_ns(w, 0) : -1;
        int ended = dead > s->dead_ns;
        if (ended)
            __atomic_store_n(&e->threads_end, 1, __ATOMIC_RELAXED);
        census_final(s, listed, ended, out);
    }
    out->strays = strays;
    if (strays > 0 || threads > 0)
        __atomic_store_n(&e->forky, 1, __ATOMIC_RELAXED);
}
