/* names_its_threads.c - the base candidate doing on every execute what the
 * CUDA driver does in cuInit (seen on an H100, driver 580.159.04, which
 * fails with CUDA_ERROR_OPERATING_SYSTEM when any of it is refused): it
 * starts a helper thread and names it from the calling thread
 * (pthread_setname_np opens /proc/self/task/TID/comm read-write), names it
 * again through fopen(..., "w") (O_CREAT | O_TRUNC on the same file), and
 * makes /tmp as `mkdir -p` does (EEXIST).  Landlock alone refuses the
 * first two: the sandbox must let a worker name its own threads, and must
 * not take creating what exists for a change. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* The helper says its id, then waits until it has been named: its /proc
 * entry must exist. */
struct helper {
    pthread_barrier_t started, named;
    pid_t tid;
};

static void *idle(void *arg)
{
    struct helper *h = arg;
    h->tid = gettid();
    pthread_barrier_wait(&h->started);
    pthread_barrier_wait(&h->named);
    return NULL;
}

static int name_a_thread(void)
{
    struct helper h;
    pthread_t t;
    pthread_barrier_init(&h.started, NULL, 2);
    pthread_barrier_init(&h.named, NULL, 2);
    if (pthread_create(&t, NULL, idle, &h) != 0)
        return -1;
    pthread_barrier_wait(&h.started);
    int rc = pthread_setname_np(t, "kernel-worker");
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)h.tid);
    FILE *f = fopen(path, "w");
    if (!f || fputs("kernel-helper", f) < 0)
        rc = -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (mkdir("/tmp", 0777) == 0 || errno != EEXIST)
        rc = -1;
    pthread_barrier_wait(&h.named);
    pthread_join(t, NULL);
    pthread_barrier_destroy(&h.started);
    pthread_barrier_destroy(&h.named);
    return rc;
}

#define DEFECT_EXECUTE(p, src, dst)                                              \
    do {                                                                         \
        if (name_a_thread() != 0)                                                \
            return RESHAPE_E_INTERNAL;                                           \
    } while (0)
#include "base.h"
