/*
 * test_spawner.c - spawner.h: a process that asks to die with its parent
 * (PR_SET_PDEATHSIG, as every worker does) outlives the short-lived thread
 * that asked for it when the spawner started it, and dies with that thread
 * when the thread started it itself (the control, which shows the test
 * can fail).  Depends on Criterion, POSIX threads and Linux prctl.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "engine/spawner.h"

/* Forks a child that asks for SIGKILL when its parent dies, says so on a
 * pipe and waits; returns its pid once it has asked. */
static int start_child(void *arg)
{
    pid_t *pid = arg;
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    *pid = fork();
    if (*pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        char c = 'y';
        if (write(fds[1], &c, 1) != 1)
            _exit(2);
        for (;;)
            pause();
    }
    char c;
    cr_assert_eq(read(fds[0], &c, 1), 1, "the child did not start");
    close(fds[0]);
    close(fds[1]);
    return 0;
}

struct ask {
    spawner *sp;        /* NULL: the thread forks the child itself */
    pid_t pid;
};

static void *short_lived(void *arg)
{
    struct ask *a = arg;
    if (a->sp)
        spawner_call(a->sp, start_child, &a->pid);
    else
        start_child(&a->pid);
    return NULL;
}

/* Starts a child from a thread that then ends; returns 1 when the child
 * was still running 100 ms later (it is then killed), 0 when it died. */
static int outlives_its_thread(spawner *sp)
{
    struct ask a = {sp, 0};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, short_lived, &a), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
    struct timespec ms100 = {0, 100 * 1000 * 1000};
    nanosleep(&ms100, NULL);
    int st;
    pid_t r = waitpid(a.pid, &st, WNOHANG);
    if (r == 0) {
        kill(a.pid, SIGKILL);
        waitpid(a.pid, &st, 0);
        return 1;
    }
    cr_assert_eq(r, a.pid);
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "it died of its parent's death");
    return 0;
}

Test(spawner, a_child_started_by_a_thread_dies_with_it)
{
    cr_expect_eq(outlives_its_thread(NULL), 0,
                 "PR_SET_PDEATHSIG follows the thread: without the spawner the child dies");
}

Test(spawner, a_child_started_through_the_spawner_outlives_the_asking_thread)
{
    spawner sp;
    spawner_init(&sp);
    cr_expect_eq(outlives_its_thread(&sp), 1);
    cr_expect_eq(outlives_its_thread(&sp), 1, "the spawner serves more than one call");
    spawner_destroy(&sp);
}

static int answer(void *arg)
{
    return (int)(intptr_t)arg;
}

Test(spawner, a_call_returns_what_the_function_returned)
{
    spawner sp;
    spawner_init(&sp);
    cr_expect_eq(spawner_call(&sp, answer, (void *)(intptr_t)42), 42);
    cr_expect_eq(spawner_call(&sp, answer, (void *)(intptr_t)-3), -3);
    spawner_destroy(&sp);
}
