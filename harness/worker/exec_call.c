/*
 * exec_call.c - the candidate's arguments for one call, built from a
 * request's wire records over the candidate's view of the arena, and the
 * monotonic clock the calls are timed with.  Depends on exec_int.h.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "exec_int.h"

#define SHAPE_POISON_BYTE 0xA5

static void make_tensor(reshape_tensor *t, const wire_tensor *w, uint8_t *view, int64_t *strides)
{
    t->dtype = (reshape_dtype)w->dtype;
    t->rank = w->rank;
    t->dims = w->dims;
    t->strides = NULL;
    if (w->strided && w->rank >= 0 && w->rank <= RESHAPE_MAX_RANK) {
        memcpy(strides, w->strides, (size_t)w->rank * sizeof *strides);
        strides[w->rank] = -1;
        t->strides = strides;
    } else if (w->strided) {
        t->strides = w->strides;
    }
    t->data = w->data_off < 0 ? NULL : view + w->data_off;
}

void exec_make_call(call_args *c, const wire_call *w, uint8_t *view)
{
    abuse_call *k = &c->k;
    make_tensor(&k->src, &w->src, view, c->strides[0]);
    make_tensor(&k->dst, &w->dst, view, c->strides[1]);
    make_tensor(&k->shape, &w->shape, view, c->strides[1]);
    size_t n = w->shape_nbytes >= 0 && w->shape_nbytes <= (int32_t)sizeof w->shape_data
                   ? (size_t)w->shape_nbytes : sizeof w->shape_data;
    memcpy(c->shape_data, w->shape_data, n);
    memset(c->shape_data + n, SHAPE_POISON_BYTE, sizeof c->shape_data - n);
    k->shape.data = c->shape_data;
    k->params.op = (reshape_op)w->op;
    k->params.special_zero = w->special_zero;
    k->params.shape = &k->shape;
    k->pparams = &k->params;
    k->psrc = &k->src;
    k->pdst = &k->dst;
    k->out_rank = NULL;
    k->out_dims = NULL;
}

int64_t exec_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
