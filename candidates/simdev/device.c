/*
 * device.c - the simulated device's engine (simdev.h): one thread that
 * runs the queued kernels in order, each with the allocations it names
 * open, after the defect's launch latency unless someone is waiting.  The
 * thread starts with the first launch in a process; a forked child gets a
 * fresh queue and no allocations (pthread_atfork).  Depends on simdev.h
 * and POSIX threads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "simdev.h"

typedef struct launch {
    simdev_kernel kernel;
    void *arg;
    const void *a, *b;
    int64_t due_ns;             /* CLOCK_MONOTONIC: when it may start */
    struct launch *next;
} launch;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t work, idle;
    launch *head, *tail;
    int started, running, waiters;
} dev = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
         NULL, NULL, 0, 0, 0};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The device: takes the head of the queue once it is due (or someone
 * waits), runs it with its allocations open, and tells the waiters when
 * the queue is empty. */
static void *device_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&dev.lock);
    for (;;) {
        while (!dev.head)
            pthread_cond_wait(&dev.work, &dev.lock);
        launch *l = dev.head;
        int64_t left = l->due_ns - now_ns();
        if (left > 0 && !dev.waiters) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += (time_t)(left / 1000000000);
            until.tv_nsec += (long)(left % 1000000000);
            if (until.tv_nsec >= 1000000000) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000;
            }
            pthread_cond_timedwait(&dev.work, &dev.lock, &until);
            continue;
        }
        dev.head = l->next;
        if (!dev.head)
            dev.tail = NULL;
        dev.running = 1;
        pthread_mutex_unlock(&dev.lock);
        int oa = simdev_open(l->a), ob = simdev_open(l->b);
        l->kernel(l->arg);
        if (ob == 0)
            simdev_close(l->b);
        if (oa == 0)
            simdev_close(l->a);
        free(l->arg);
        free(l);
        pthread_mutex_lock(&dev.lock);
        dev.running = 0;
        if (!dev.head)
            pthread_cond_broadcast(&dev.idle);
    }
    return NULL;
}

reshape_status simdev_launch(simdev_kernel kernel, void *arg, const void *a, const void *b)
{
    launch *l = malloc(sizeof *l);
    if (!l) {
        free(arg);
        return simdev_fail(RESHAPE_E_INTERNAL, "out of host memory for a launch");
    }
    *l = (launch){kernel, arg, a, b, now_ns() + simdev_defect.latency_ns, NULL};
    pthread_mutex_lock(&dev.lock);
    if (!dev.started) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &attr, device_main, NULL);
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            pthread_mutex_unlock(&dev.lock);
            free(arg);
            free(l);
            return simdev_fail(RESHAPE_E_INTERNAL, "cannot start the device's thread (error %d)",
                               rc);
        }
        dev.started = 1;
    }
    if (dev.tail)
        dev.tail->next = l;
    else
        dev.head = l;
    dev.tail = l;
    pthread_cond_signal(&dev.work);
    pthread_mutex_unlock(&dev.lock);
    return RESHAPE_OK;
}

void simdev_drain(void)
{
    pthread_mutex_lock(&dev.lock);
    dev.waiters++;
    pthread_cond_signal(&dev.work);     /* no latency while someone waits */
    while (dev.head || dev.running)
        pthread_cond_wait(&dev.idle, &dev.lock);
    dev.waiters--;
    pthread_mutex_unlock(&dev.lock);
}

reshape_status simdev_synchronize(void)
{
    if (!simdev_defect.sync_returns_early)
        simdev_drain();
    return RESHAPE_OK;
}

/* In a forked child: the parent's thread and queue are not there. */
static void forked(void)
{
    pthread_mutex_init(&dev.lock, NULL);
    pthread_cond_init(&dev.work, NULL);
    pthread_cond_init(&dev.idle, NULL);
    dev.head = dev.tail = NULL;
    dev.started = dev.running = dev.waiters = 0;
    simdev_memory_forget();
}

__attribute__((constructor)) static void on_load(void)
{
    pthread_atfork(NULL, NULL, forked);
}
