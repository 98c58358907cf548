/* names_its_threads.c - the base candidate starting a helper thread on
 * every execute and naming it from the calling thread, as runtimes do
 * (the CUDA driver names its threads and fails cuInit when it cannot).
 * Naming another thread writes /proc/self/task/TID/comm, which Landlock
 * alone would refuse: the sandbox must let a worker name its own threads. */
#define _GNU_SOURCE
#include <pthread.h>

/* The helper waits until it has been named: its /proc entry must exist. */
static void *idle(void *arg)
{
    pthread_barrier_wait(arg);
    return NULL;
}

static int name_a_thread(void)
{
    pthread_barrier_t named;
    pthread_t t;
    pthread_barrier_init(&named, NULL, 2);
    if (pthread_create(&t, NULL, idle, &named) != 0)
        return -1;
    int rc = pthread_setname_np(t, "kernel-worker");
    pthread_barrier_wait(&named);
    pthread_join(t, NULL);
    pthread_barrier_destroy(&named);
    return rc;
}

#define DEFECT_EXECUTE(p, src, dst)                                              \
    do {                                                                         \
        if (name_a_thread() != 0)                                                \
            return RESHAPE_E_INTERNAL;                                           \
    } while (0)
#include "base.h"
