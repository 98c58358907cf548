/*
 * fuzz_shrink.c - the simpler neighbours of a request, for shrinking a
 * disagreement to a minimal case (fuzz.h).  Depends on case.h.
 */
#include "fuzz_case.h"

#include <string.h>

/* Appends `t` to out[] when it is a valid request and there is room. */
static void add(rcase *t, rcase *out, int max, int *n)
{
    if (*n < max && fuzz_finish(t) == 0)
        out[(*n)++] = *t;
}

/* A smaller value of the same meaning: 0 and -1 stay (they are rules of
 * their own), other values go to 1 or halve; values below -1 go to -2. */
static int smaller(int64_t v, int64_t *out)
{
    if (v == 0 || v == -1 || v == 1 || v == -2)
        return 0;
    *out = v < -1 ? -2 : v > 2 ? v / 2 : 1;
    return 1;
}

int fuzz_shrink_steps(const rcase *c, rcase *out, int max)
{
    int n = 0;
    rcase t;
    /* fewest dims: one input dim fewer, one shape value fewer */
    for (int i = 0; i < c->rank; i++) {
        t = *c;
        memmove(t.dims + i, t.dims + i + 1, (size_t)(t.rank - i - 1) * sizeof *t.dims);
        t.rank--;
        add(&t, out, max, &n);
    }
    for (int i = 0; i < c->nvalues; i++) {
        t = *c;
        memmove(t.values + i, t.values + i + 1, (size_t)(t.nvalues - i - 1) * sizeof *t.values);
        t.nvalues--;
        if (t.shape_rank == 0)
            t.shape_rank = 1;
        add(&t, out, max, &n);
    }
    /* smallest values: dims to 1 or halved, shape values likewise */
    for (int i = 0; i < c->rank; i++) {
        if (c->dims[i] <= 1)
            continue;
        t = *c;
        t.dims[i] = 1;
        add(&t, out, max, &n);
        if (c->dims[i] > 2) {
            t = *c;
            t.dims[i] = c->dims[i] / 2;
            add(&t, out, max, &n);
        }
    }
    for (int i = 0; i < c->nvalues; i++) {
        int64_t v;
        if (!smaller((int64_t)c->values[i], &v))
            continue;
        t = *c;
        t.values[i] = (uint64_t)v;
        add(&t, out, max, &n);
    }
    /* smallest tensor: a byte-sized dtype, an s64 shape, a 1-D shape */
    if (c->dtype != RESHAPE_DT_U8 && reshape_dtype_bits(c->dtype) > 8) {
        t = *c;
        t.dtype = RESHAPE_DT_U8;
        add(&t, out, max, &n);
    }
    if (c->shape_dtype != RESHAPE_DT_S64) {
        t = *c;
        t.shape_dtype = RESHAPE_DT_S64;
        add(&t, out, max, &n);
    }
    if (c->shape_rank == 0) {
        t = *c;
        t.shape_rank = 1;
        add(&t, out, max, &n);
    }
    return n;
}
