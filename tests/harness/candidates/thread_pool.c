/* thread_pool.c - a correct candidate whose execute hands the copy to a
 * pool of 3 threads started on its first call (as oneDNN and libtorch do):
 * threads must keep working in the sandbox. */
#include <pthread.h>
#include <string.h>
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_work = PTHREAD_COND_INITIALIZER, pool_done = PTHREAD_COND_INITIALIZER;
static const void *pool_src;
static void *pool_dst;
static size_t pool_bytes;
static int pool_pending, pool_started;
static void *pool_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pool_lock);
    for (;;) {
        while (!pool_pending)
            pthread_cond_wait(&pool_work, &pool_lock);
        memmove(pool_dst, pool_src, pool_bytes);
        pool_pending = 0;
        pthread_cond_broadcast(&pool_done);
    }
    return NULL;
}
static void pool_copy(const void *src, void *dst, size_t bytes)
{
    pthread_mutex_lock(&pool_lock);
    if (!pool_started) {
        for (int i = 0; i < 3; i++) {
            pthread_t t;
            if (pthread_create(&t, NULL, pool_thread, NULL) == 0)
                pthread_detach(t);
        }
        pool_started = 1;
    }
    pool_src = src;
    pool_dst = dst;
    pool_bytes = bytes;
    pool_pending = 1;
    pthread_cond_signal(&pool_work);
    while (pool_pending)
        pthread_cond_wait(&pool_done, &pool_lock);
    pthread_mutex_unlock(&pool_lock);
}
#define DEFECT_COPY(p, src, dst, n, bits) pool_copy((src)->data, (dst)->data, ((size_t)(n) * (bits) + 7) / 8)
#include "base.h"
