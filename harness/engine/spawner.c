/*
 * spawner.c - starting processes from one long-lived thread (spawner.h).
 * Depends on proc/cpus.h and POSIX threads.
 */
#include "spawner.h"

#include "proc/proc.h"

void spawner_init(spawner *s)
{
    pthread_mutex_init(&s->call, NULL);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->started = s->stop = s->pending = 0;
    s->fn = NULL;
    s->arg = NULL;
    s->rc = 0;
}

static void *serve(void *arg)
{
    spawner *s = arg;
    /* what it spawns inherits its CPUs: every CPU of the harness, even
     * when a slot's thread, pinned to its own (proc/cpus.h), started it */
    (void)cpus_release();
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->pending && !s->stop)
            pthread_cond_wait(&s->cv, &s->lock);
        if (!s->pending)
            break;
        s->rc = s->fn(s->arg);
        s->pending = 0;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

int spawner_call(spawner *s, int (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&s->call);
    pthread_mutex_lock(&s->lock);
    if (!s->started && pthread_create(&s->thread, NULL, serve, s) == 0)
        s->started = 1;
    if (!s->started) {
        pthread_mutex_unlock(&s->lock);
        pthread_mutex_unlock(&s->call);
        return fn(arg);
    }
    s->fn = fn;
    s->arg = arg;
    s->pending = 1;
    pthread_cond_broadcast(&s->cv);
    while (s->pending)
        pthread_cond_wait(&s->cv, &s->lock);
    int rc = s->rc;
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_unlock(&s->call);
    return rc;
}

void spawner_destroy(spawner *s)
{
    pthread_mutex_lock(&s->lock);
    s->stop = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->lock);
    if (s->started)
        pthread_join(s->thread, NULL);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->call);
}
