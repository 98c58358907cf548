/*
 * test_reaper.c - harness/proc/reaper.h on real processes: a process
 * killed below a worker that ends at that moment is counted once, not
 * once by reaper_kill_descendants and again by reaper_sweep (the killed
 * one, still dying, has gone to our subreaper by then).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc/reaper.h"

/* Memory the stray holds, so that its dying takes a while (some ms): a
 * process becomes a zombie once it has unmapped it all. */
#define STRAY_BYTES ((size_t)128 << 20)

/* PF_EXITING in /proc/PID/stat's flags: set as a process starts dying. */
#define PF_EXITING 0x4ul

/* 1 once `pid` has started dying (or cannot be read any more). */
static int exiting(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'), state;
    unsigned long flags = 0;
    int skip;
    if (!p || sscanf(p + 2, "%c %d %d %d %d %d %lu", &state, &skip, &skip, &skip, &skip,
                     &skip, &flags) != 7)
        return 1;
    return (flags & PF_EXITING) != 0;
}

/* The "worker": forks a stray holding STRAY_BYTES, tells `ready` once it
 * holds them, and ends the moment the stray starts dying. */
static void worker(int ready)
{
    int held[2];
    if (pipe(held) != 0)
        _exit(1);
    pid_t stray = fork();
    if (stray == 0) {
        if (mmap(NULL, STRAY_BYTES, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0) == MAP_FAILED)
            _exit(1);
        (void)!write(held[1], "h", 1);
        for (;;)
            pause();
    }
    char c;
    if (read(held[0], &c, 1) != 1)
        _exit(1);
    (void)!write(ready, "r", 1);
    while (!exiting(stray))
        ;
    _exit(0);
}

Test(reaper, a_stray_killed_as_its_worker_ends_counts_once)
{
    cr_assert_eq(reaper_become_subreaper(), 0);
    for (int round = 0; round < 5; round++) {
        int p[2];
        cr_assert_eq(pipe(p), 0);
        pid_t w = fork();
        cr_assert_geq(w, 0);
        if (w == 0) {
            close(p[0]);
            worker(p[1]);
        }
        close(p[1]);
        char c;
        cr_assert_eq(read(p[0], &c, 1), 1);
        close(p[0]);
        int left = reaper_kill_descendants(w);
        kill(w, SIGKILL);
        waitpid(w, NULL, 0);
        left += reaper_sweep(NULL, 0);
        cr_expect_eq(left, 1, "round %d: %d counted for the one stray", round, left);
    }
}
