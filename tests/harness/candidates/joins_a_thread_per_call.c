/* joins_a_thread_per_call.c - a correct candidate whose execute starts a
 * thread for the copy and joins it before it returns, on every call (as a
 * kernel that parallelizes without a pool does): the joined thread may
 * still be ending, in the kernel, as the call returns, and that must never
 * make its output "not proven final" (issue 42, tests/broken/late_test.c). */
#include <pthread.h>
#include "reshape_candidate.h"
static void copy_on_thread(const reshape_tensor *src, const reshape_tensor *dst, int64_t n,
                           unsigned bits);
#define DEFECT_COPY(p, src, dst, n, bits) copy_on_thread(src, dst, n, bits)
#include "base.h"

struct copy_job {
    const reshape_tensor *src, *dst;
    int64_t n;
    unsigned bits;
};

/* base.h's own copy, on the thread */
static void *copy_thread(void *arg)
{
    const struct copy_job *j = arg;
    base_copy(j->src, j->dst, j->n, j->bits);
    return NULL;
}

static void copy_on_thread(const reshape_tensor *src, const reshape_tensor *dst, int64_t n,
                           unsigned bits)
{
    struct copy_job j = {src, dst, n, bits};
    pthread_t t;
    if (pthread_create(&t, NULL, copy_thread, &j) != 0) {
        copy_thread(&j);
        return;
    }
    pthread_join(t, NULL);
}
