/*
 * writes_dst_from_pool_thread.c - execute leaves dst as the harness staged
 * it and returns OK; a thread it started on its first call and keeps (as a
 * pool would) is handed each call's copy, waits for the call to return
 * (the caller's broken_in_execute goes back to 0 just before it does),
 * copies the right elements into dst at once and goes back to sleep on a
 * condition variable (issue 42): the right bytes arrive within a
 * microsecond of the return, and the thread is asleep, as a pool's is,
 * when the harness looks.
 */
#include <pthread.h>
#include <sched.h>

#include "late.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static struct late_copy job;
static const int *in_execute;
static int pending, started;

static void *pool(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!pending)
            pthread_cond_wait(&work, &lock);
        pthread_mutex_unlock(&lock);
        /* at most about a second: a caller that never returns is the
         * harness's TIMEOUT, not this thread's */
        for (long spins = 0; __atomic_load_n(in_execute, __ATOMIC_ACQUIRE) && spins < 100000000;
             spins++)
            if (spins % 1024 == 1023)
                sched_yield();
        late_copy_now(&job);
        pthread_mutex_lock(&lock);
        pending = 0;
    }
    return NULL;
}

static void copy_late(const reshape_tensor *src, const int64_t *src_strides,
                      const reshape_tensor *dst, const int64_t *dst_strides, int64_t count,
                      unsigned layout)
{
    pthread_mutex_lock(&lock);
    if (!started) {
        pthread_t t;
        started = pthread_create(&t, NULL, pool, NULL) == 0;
        if (started)
            pthread_detach(t);
    }
    if (started && !pending) {
        late_keep(&job, src, src_strides, dst, dst_strides, count, layout);
        in_execute = &broken_in_execute;    /* the caller's own */
        pending = 1;
        pthread_cond_signal(&work);
    }
    pthread_mutex_unlock(&lock);
}

const struct broken_defect broken_defect = {
    .name = "writes_dst_from_pool_thread",
    .defect = "returns OK with dst as staged; a thread it keeps writes the right bytes as it "
              "returns, then sleeps",
    .expect = "MEMORY_VIOLATION",
    .faults_on_most_cases = 1,
    .hooks = {.copy_elements = copy_late},
};
