/*
 * perf_plan.c - the points of a performance profile (perf.h), in a fixed
 * order: operation, element width, layout, size.  Both the parent and the
 * worker compute the plan from the same perf_config, so a point is named
 * by its index alone.  Depends on perf.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "perf.h"

static const reshape_dtype widths[] = {
    RESHAPE_DT_U1, RESHAPE_DT_U4, RESHAPE_DT_U8, RESHAPE_DT_F16, RESHAPE_DT_F32, RESHAPE_DT_F64,
};
#define NWIDTHS ((int)(sizeof widths / sizeof *widths))

static const uint64_t sizes[] = {
    (uint64_t)4 << 10, (uint64_t)64 << 10, (uint64_t)1 << 20,
    (uint64_t)16 << 20, (uint64_t)256 << 20, (uint64_t)1 << 30,
};
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))

static int nsizes(const perf_config *c)
{
    int n = 0;
    while (n < NSIZES && sizes[n] <= c->max_bytes)
        n++;
    return n;
}

static int nops(const perf_config *c)
{
    int n = 0;
    for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
        n += (c->ops >> op) & 1;
    return n;
}

int perf_plan_count(const perf_config *c)
{
    return nops(c) * NWIDTHS * PERF_LAYOUT_COUNT * nsizes(c);
}

void perf_plan_point(const perf_config *c, int i, perf_point *p)
{
    int ns = nsizes(c);
    p->bytes = sizes[i % ns];
    i /= ns;
    p->layout = (perf_layout)(i % PERF_LAYOUT_COUNT);
    i /= PERF_LAYOUT_COUNT;
    p->dtype = widths[i % NWIDTHS];
    i /= NWIDTHS;
    for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
        if (((c->ops >> op) & 1) && i-- == 0)
            p->op = (reshape_op)op;
}

const char *perf_layout_name(perf_layout l)
{
    static const char *const names[PERF_LAYOUT_COUNT] = {
        "dense", "in_place", "strided_src", "strided_dst",
    };
    return (unsigned)l < PERF_LAYOUT_COUNT ? names[l] : "?";
}

uint64_t perf_default_max_bytes(void)
{
    uint64_t cap = (uint64_t)1 << 30;
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (uint64_t)pages * (uint64_t)page / 4 < cap)
        cap = (uint64_t)pages * (uint64_t)page / 4;
    return cap;
}

int perf_parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *s == '-')
        return -1;
    int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if ((shift && end[1]) || (!shift && *end) || v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

