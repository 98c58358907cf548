/*
 * late.h - for the candidates that write dst after execute returned
 * (issue 42): one call's copy kept with its own dims and strides, so that
 * a thread, a process sharing the worker's memory or a signal handler can
 * make it once the call is over.  Header-only, as hostile.h: each defect
 * that needs it includes it.  Depends on broken.h.
 */
#ifndef BROKEN_LATE_H
#define BROKEN_LATE_H

#include <stdint.h>
#include <string.h>

#include "broken.h"

/* One call's copy: the tensors (data pointers as the call had them), and
 * the dims and strides they point to, held here. */
struct late_copy {
    reshape_tensor src, dst;
    int64_t dims[2][RESHAPE_MAX_RANK], strides[2][RESHAPE_MAX_RANK];
    int has_strides[2];
    int64_t count;
    unsigned layout;
};

/* Copies tensor `t` (and `strides`, NULL for dense) into slot `i` of `c`
 * (0 src, 1 dst). */
static inline void late_keep_tensor(struct late_copy *c, int i, const reshape_tensor *t,
                                    const int64_t *strides)
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

/* Keeps the copy_elements call's arguments in `c`. */
static inline void late_keep(struct late_copy *c, const reshape_tensor *src,
                             const int64_t *src_strides, const reshape_tensor *dst,
                             const int64_t *dst_strides, int64_t count, unsigned layout)
{
    late_keep_tensor(c, 0, src, src_strides);
    late_keep_tensor(c, 1, dst, dst_strides);
    c->count = count;
    c->layout = layout;
}

/* Makes the kept copy: the right bytes into dst, from src as it is now
 * (the base kernel's copy, no system call: safe in a signal handler and
 * in a raw clone). */
static inline void late_copy_now(const struct late_copy *c)
{
    base_copy_elements(&c->src, c->has_strides[0] ? c->strides[0] : NULL, &c->dst,
                       c->has_strides[1] ? c->strides[1] : NULL, c->count, c->layout);
}

#endif
