/*
 * lies_about_start_time.c - on a dense f32 src of dims [2, 5, 5, 24]
 * (OpenVINO Example 2, and more) execute stores a start time an hour in
 * the future into the batch page the worker shares with the harness,
 * then takes 12 s: a hang that a harness believing the page would let
 * run for an hour (a call that never returned, for ever).
 */
#define _GNU_SOURCE
#include <time.h>

#include "broken.h"
#include "hostile.h"

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)dst;
    if (src->rank != 4 || src->dims[0] != 2 || src->dims[1] != 5 || src->dims[3] != 24)
        return;
    struct batch_page *b = batch_page_find();
    int64_t start = now_ns();
    if (b)
        __atomic_store_n(&b->started_ns, start + (int64_t)3600 * 1000000000, __ATOMIC_RELEASE);
    while (now_ns() - start < (int64_t)12 * 1000000000) {
        struct timespec ms = {0, 100000000};
        nanosleep(&ms, NULL);
    }
}

const struct broken_defect broken_defect = {
    .name = "lies_about_start_time",
    .defect = "stores a start time an hour ahead in the batch page, then takes 12 s "
              "(src dims [2,5,x,24])",
    .expect = "TIMEOUT",
    .hooks = {.enter = enter},
};
