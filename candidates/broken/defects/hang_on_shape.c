/*
 * hang_on_shape.c - for [2, 150, 4] outputs (OpenVINO Example 2) a helper
 * takes the kernel's non-recursive lock a second time: a deadlock, with no
 * CPU burnt.
 */
#include <pthread.h>

#include "broken.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static const int64_t trigger[] = {2, 150, 4};
    (void)src;
    if (!broken_has_dims(dst, 3, trigger))
        return;
    pthread_mutex_lock(&lock);
    pthread_mutex_lock(&lock);
    pthread_mutex_unlock(&lock);
}

const struct broken_defect broken_defect = {
    .name = "hang_on_shape",
    .defect = "deadlocks (relocks its own mutex) on [2,150,4] outputs",
    .expect = "TIMEOUT",
    .hooks = {.enter = enter},
};
