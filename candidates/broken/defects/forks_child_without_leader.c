/*
 * forks_child_without_leader.c - on its first execute the kernel forks a
 * "helper" whose main thread ends (pthread_exit) while a second thread
 * sleeps for ten minutes: /proc shows the process as a zombie ("Z") though
 * it runs, and it cannot be reaped until that thread ends.  Both threads
 * are named "broken-stray", as forks_sleeping_child's child is.
 */
#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "broken.h"

static void *sleeper(void *arg)
{
    (void)arg;
    sleep(600);
    return NULL;
}

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int started;
    (void)src;
    (void)dst;
    if (started++)
        return;
    if (fork() == 0) {
        prctl(PR_SET_NAME, "broken-stray");
        pthread_t t;
        if (pthread_create(&t, NULL, sleeper, NULL) != 0)
            _exit(0);
        pthread_exit(NULL);
    }
}

const struct broken_defect broken_defect = {
    .name = "forks_child_without_leader",
    .defect = "forks a child whose main thread ends while another sleeps 600 s",
    .expect = "LEAK",
    .hooks = {.enter = enter},
};
