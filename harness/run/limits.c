/*
 * limits.c - skipping what a candidate's declared limits leave out
 * (limits.h).  Depends on job.h, case.h, util.h.
 */
#include "limits.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

unsigned limits_variant_layout(const rcase *c, variant v)
{
    /* the flags stage.c asks supports() with: from the tensors as laid out */
    if (v == V_INFER || v == V_THREADS || v == V_REPEAT)
        return 0;
    tlayout src, dst;
    job_layouts(c, v, &src, &dst);
    unsigned flags = layout_flags(&src, 1) | layout_flags(&dst, 0);
    return v == V_IN_PLACE || c->in_place ? flags | RESHAPE_LAYOUT_IN_PLACE : flags;
}

/* The names of the flags of `layout`, or "dense" for none, appended. */
static void add_layout(strbuf *b, unsigned layout)
{
    static const char *const names[] = {"strided_src", "strided_dst", "in_place",
                                        "broadcast_src", "size1_strides", "device"};
    if (!layout) {
        sb_addf(b, "dense");
        return;
    }
    const char *sep = "";
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
        if (layout & (1u << i)) {
            sb_addf(b, "%s%s", sep, names[i]);
            sep = "+";
        }
}

/* The names of the bits of `set` (1 << value), by `name`, appended. */
static void add_set(strbuf *b, uint32_t set, int count, const char *(*name)(int))
{
    const char *sep = "";
    for (int i = 1; i <= count; i++)
        if (set & (UINT32_C(1) << i)) {
            sb_addf(b, "%s%s", sep, name(i));
            sep = ", ";
        }
    if (!*sep)
        sb_addf(b, "none");
}

static const char *op_name(int op)
{
    return reshape_op_name((reshape_op)op);
}

static const char *dtype_name(int dt)
{
    return reshape_dtype_name((reshape_dtype)dt);
}

/* The product of dims[0..rank), UINT64_MAX when it does not fit. */
static uint64_t volume_of(int32_t rank, const int64_t *dims)
{
    uint64_t v = 1;
    for (int32_t i = 0; i < rank; i++) {
        uint64_t d = dims[i] < 0 ? 0 : (uint64_t)dims[i];
        if (d && v > UINT64_MAX / d)
            return UINT64_MAX;
        v *= d;
    }
    return v;
}

/* The first of rank, dim, volume of `what` ("" or "output ") above `l`. */
static char *shape_reason(const reshape_limits *l, const char *what, int32_t rank,
                          const int64_t *dims)
{
    if (l->max_rank >= 0 && rank > l->max_rank)
        return xasprintf("skipped: %srank %d above the candidate's declared max_rank %d", what,
                         rank, l->max_rank);
    for (int32_t i = 0; l->max_dim >= 0 && i < rank; i++)
        if (dims[i] > l->max_dim)
            return xasprintf("skipped: %sdim %lld above the candidate's declared max_dim %lld",
                             what, (long long)dims[i], (long long)l->max_dim);
    uint64_t n = volume_of(rank, dims);
    if (l->max_volume >= 0 && n > (uint64_t)l->max_volume)
        return n == UINT64_MAX
                   ? xasprintf("skipped: %svolume above 2^64, above the candidate's declared "
                               "max_volume %lld", what, (long long)l->max_volume)
                   : xasprintf("skipped: %svolume %llu above the candidate's declared "
                               "max_volume %lld", what, (unsigned long long)n,
                               (long long)l->max_volume);
    return NULL;
}

char *limits_reason(const reshape_limits *l, const rcase *c, variant v)
{
    strbuf b;
    if (l->ops && !(l->ops & (UINT32_C(1) << c->op))) {
        sb_init(&b);
        sb_addf(&b, "skipped: op %s is not among the candidate's declared ops (", op_name(c->op));
        add_set(&b, l->ops, RESHAPE_OP_COUNT, op_name);
        sb_addf(&b, ")");
        return sb_take(&b);
    }
    if (l->data_dtypes && !(l->data_dtypes & (UINT32_C(1) << c->dtype))) {
        sb_init(&b);
        sb_addf(&b, "skipped: dtype %s is not among the candidate's declared data_dtypes (",
                dtype_name(c->dtype));
        add_set(&b, l->data_dtypes, RESHAPE_DT_COUNT, dtype_name);
        sb_addf(&b, ")");
        return sb_take(&b);
    }
    unsigned layout = limits_variant_layout(c, v);
    if (l->layouts != ~0u && (layout & ~l->layouts)) {
        sb_init(&b);
        sb_addf(&b, "skipped: layout ");
        add_layout(&b, layout);
        sb_addf(&b, " is not among the candidate's declared layouts (dense");
        if (l->layouts) {
            sb_addf(&b, ", ");
            add_layout(&b, l->layouts);
        }
        sb_addf(&b, ")");
        return sb_take(&b);
    }
    char *why = shape_reason(l, "", c->rank, c->dims);
    int ok = case_first_success(c);
    if (!why && ok >= 0)
        why = shape_reason(l, "output ", c->outcomes[ok].rank, c->outcomes[ok].dims);
    return why;
}

static void skip(const job *j, int t, char *why, result_sink sink, void *ctx)
{
    result r = {j->cases[t], j->v, VD_NOT_SUPPORTED, why, xstrdup("not called"), -1};
    sink(ctx, &r);
}

job *limits_skip(const wire_probe *probe, const case_set *set, const job *jobs, int njobs,
                 int *nleft, result_sink sink, void *ctx)
{
    job *left = xmalloc((size_t)(njobs ? njobs : 1) * sizeof *left);
    int n = 0;
    for (int i = 0; i < njobs; i++) {
        const job *j = &jobs[i];
        job keep = *j;
        keep.ncases = 0;
        for (int t = 0; t < j->ncases; t++) {
            char *why = probe->has_limits
                            ? limits_reason(&probe->limits, &set->cases[j->cases[t]], j->v)
                            : NULL;
            if (!why) {
                keep.cases[keep.ncases++] = j->cases[t];
                continue;
            }
            /* a threads job may hold a case twice: one result each */
            int dup = 0;
            for (int u = 0; u < t; u++)
                dup |= j->cases[u] == j->cases[t];
            if (dup)
                free(why);
            else
                skip(j, t, why, sink, ctx);
        }
        if (keep.ncases)
            left[n++] = keep;
    }
    *nleft = n;
    return left;
}
