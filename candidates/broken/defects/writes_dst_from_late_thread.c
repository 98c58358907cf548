/*
 * writes_dst_from_late_thread.c - execute returns OK at once, dst
 * unwritten; a thread it leaves running copies the elements a millisecond
 * later and then sleeps for ten minutes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "broken.h"

/* One call's copy, with its own copies of the dims and strides. */
struct late_copy {
    reshape_tensor src, dst;
    int64_t dims[2][RESHAPE_MAX_RANK], strides[2][RESHAPE_MAX_RANK];
    int has_strides[2];
    int64_t count;
    unsigned layout;
};

static void *late(void *arg)
{
    struct late_copy *c = arg;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
    base_copy_elements(&c->src, c->has_strides[0] ? c->strides[0] : NULL, &c->dst,
                       c->has_strides[1] ? c->strides[1] : NULL, c->count, c->layout);
    free(c);
    struct timespec t = {600, 0};
    nanosleep(&t, NULL);
    return NULL;
}

/* Copies tensor `t` (and `strides`) into slot `i` of `c`. */
static void keep(struct late_copy *c, int i, const reshape_tensor *t, const int64_t *strides)
{
    reshape_tensor *to = i ? &c->dst : &c->src;
    *to = *t;
    int r = t->rank < 0 ? 0 : t->rank > RESHAPE_MAX_RANK ? RESHAPE_MAX_RANK : t->rank;
    if (t->dims)
        memcpy(c->dims[i], t->dims, (size_t)r * sizeof *t->dims);
    to->dims = c->dims[i];
    to->strides = NULL;
    c->has_strides[i] = strides != NULL;
    if (strides)
        memcpy(c->strides[i], strides, (size_t)r * sizeof *strides);
}

static void copy_late(const reshape_tensor *src, const int64_t *src_strides,
                      const reshape_tensor *dst, const int64_t *dst_strides, int64_t count,
                      unsigned layout)
{
    struct late_copy *c = calloc(1, sizeof *c);
    if (c == NULL)
        return;
    keep(c, 0, src, src_strides);
    keep(c, 1, dst, dst_strides);
    c->count = count;
    c->layout = layout;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, late, c) != 0)
        free(c);
    pthread_attr_destroy(&attr);
}

const struct broken_defect broken_defect = {
    .name = "writes_dst_from_late_thread",
    .defect = "returns OK at once; a thread left running writes dst a millisecond later",
    .expect = "LEAK",
    /* every copying call costs its worker (killed before dst is judged), a
     * spawn each: 261 s over the whole suite, so the hand-written files */
    .faults_on_most_cases = 1,
    .hooks = {.copy_elements = copy_late},
};
