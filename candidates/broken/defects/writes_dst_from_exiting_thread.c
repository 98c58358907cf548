/*
 * writes_dst_from_exiting_thread.c - execute leaves dst as the harness
 * staged it and returns OK; a detached thread it started waits for the
 * call to return (the caller's broken_in_execute goes back to 0 just
 * before it does), copies the right elements into dst at once and ends
 * (issue 42): the right bytes arrive within a microsecond of the return,
 * and nothing of the candidate is left running when the harness looks.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "late.h"

/* One late copy and the caller's flag to wait on. */
struct late_job {
    struct late_copy copy;
    const int *in_execute;
};

static void *late(void *arg)
{
    struct late_job *j = arg;
    /* at most about a second: a caller that never returns is the
     * harness's TIMEOUT, not this thread's */
    for (long spins = 0; __atomic_load_n(j->in_execute, __ATOMIC_ACQUIRE) && spins < 100000000;
         spins++)
        if (spins % 1024 == 1023)
            sched_yield();
    late_copy_now(&j->copy);
    free(j);
    return NULL;
}

static void copy_late(const reshape_tensor *src, const int64_t *src_strides,
                      const reshape_tensor *dst, const int64_t *dst_strides, int64_t count,
                      unsigned layout)
{
    struct late_job *c = calloc(1, sizeof *c);
    if (c == NULL)
        return;
    late_keep(&c->copy, src, src_strides, dst, dst_strides, count, layout);
    c->in_execute = &broken_in_execute;     /* the caller's own */
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, late, c) != 0)
        free(c);
    pthread_attr_destroy(&attr);
}

const struct broken_defect broken_defect = {
    .name = "writes_dst_from_exiting_thread",
    .defect = "returns OK with dst as staged; a detached thread writes the right bytes as it returns, and ends",
    .expect = "MEMORY_VIOLATION",
    .faults_on_most_cases = 1,
    .hooks = {.copy_elements = copy_late},
};
