/* signals_done_then_ends.c - a correct candidate whose execute copies on a
 * detached thread it starts for each call, and waits for the thread's
 * "done" flag instead of joining it: the thread stores the flag after the
 * last byte and then ends, so it is still ending as the call returns, and
 * has ended when the harness looks (issue 42).  Its output is final at the
 * return: a run on one CPU proves it (worker/exec_window.h), where a count
 * of threads alone made it LEAK "not proven final" (tests/broken/late_test.c). */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include "reshape_candidate.h"
static void copy_on_thread(const reshape_tensor *src, const reshape_tensor *dst, int64_t n,
                           unsigned bits);
#define DEFECT_COPY(p, src, dst, n, bits) copy_on_thread(src, dst, n, bits)
#include "base.h"

struct copy_job {
    const reshape_tensor *src, *dst;
    int64_t n;
    unsigned bits;
    int done;
};

/* base.h's own copy, on the thread; then the flag, its last store to
 * anything the caller reads */
static void *copy_thread(void *arg)
{
    struct copy_job *j = arg;
    base_copy(j->src, j->dst, j->n, j->bits);
    __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void copy_on_thread(const reshape_tensor *src, const reshape_tensor *dst, int64_t n,
                           unsigned bits)
{
    struct copy_job j = {src, dst, n, bits, 0};
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, copy_thread, &j);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        copy_thread(&j);
        return;
    }
    while (!__atomic_load_n(&j.done, __ATOMIC_ACQUIRE))
        sched_yield();
}
