/*
 * test_census_dead.c - engine/census_dead.c: what the ended threads of
 * another process ran, from its CPU clock and /proc.  A child that starts
 * threads and joins them is seen to have ended threads (the figure after
 * them is above the one before), and one whose only thread computes is
 * not, however long it computes while it is read: the figure may not grow
 * without a thread ending.  Depends on Criterion, pthreads and Linux /proc.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "engine/census_sleep.h"

/* Spins for `ms` of CPU time on the calling thread. */
static void spin_ms(long ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void *spin_thread(void *arg)
{
    spin_ms((long)(intptr_t)arg);
    return NULL;
}

/* A child that waits for a byte on `go`, then (`threads` > 0) starts and
 * joins that many threads that spin 2 ms each, or spins 200 ms itself,
 * then writes a byte on `done` and sleeps until killed. */
static pid_t child(int threads, int go, int done)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid > 0)
        return pid;
    char c;
    if (read(go, &c, 1) != 1)
        _exit(1);
    if (threads == 0)
        spin_ms(200);
    for (int k = 0; k < threads; k++) {
        pthread_t t;
        if (pthread_create(&t, NULL, spin_thread, (void *)(intptr_t)2) != 0)
            _exit(1);
        pthread_join(t, NULL);
    }
    if (write(done, "d", 1) != 1)
        _exit(1);
    for (;;)
        pause();
}

/* Runs child(threads) and returns its figures before and after. */
static void before_after(int threads, int64_t *before, int64_t *during, int64_t *after)
{
    int go[2], done[2];
    cr_assert_eq(pipe(go), 0);
    cr_assert_eq(pipe(done), 0);
    pid_t pid = child(threads, go[0], done[1]);
    *before = census_dead_ns(pid, 1);
    cr_assert_eq(write(go[1], "g", 1), 1);
    *during = census_dead_ns(pid, 0);
    char c;
    cr_assert_eq(read(done[0], &c, 1), 1);
    *after = census_dead_ns(pid, 0);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    cr_expect_eq(census_dead_ns(pid, 0), -1, "a process gone has no figure");
    close(go[0]);
    close(go[1]);
    close(done[0]);
    close(done[1]);
}

Test(census_dead, threads_started_and_joined_are_seen_to_have_ended)
{
    int64_t before, during, after;
    before_after(3, &before, &during, &after);
    cr_expect_geq(before, 0);
    cr_expect_gt(after, before, "3 threads of 2 ms ended, yet %lld after, %lld before",
                 (long long)after, (long long)before);
    cr_expect_geq(after - before, 5000000, "3 threads of 2 ms ran %lld ns in all",
                  (long long)(after - before));
}

Test(census_dead, a_thread_that_computes_alone_ends_nothing)
{
    for (int round = 0; round < 5; round++) {
        int64_t before, during, after;
        before_after(0, &before, &during, &after);
        cr_expect_geq(before, 0);
        cr_expect_leq(during, before, "round %d: %lld while it computed, %lld before", round,
                      (long long)during, (long long)before);
        cr_expect_leq(after, before, "round %d: %lld after, %lld before", round,
                      (long long)after, (long long)before);
    }
}
