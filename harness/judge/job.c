/*
 * job.c - variants and the plan of jobs; see job.h and
 * docs/harness/verdicts.md.
 * Depends on case.h, layout.h and fill.h.
 */
#include "job.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "suite/suite.h"
#include "layout.h"

static const char *const variant_names[V_COUNT] = {
    "dense", "in_place", "strided_src_padded", "strided_src_permuted", "strided_dst",
    "broadcast_src", "size1_strides", "misaligned", "dst_too_small", "infer", "threads",
    "repeat"};

static const char *const verdict_names[VD_COUNT] = {
    "PASS", "FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT", "MEMORY_VIOLATION",
    "LEAK", "FLOOD", "NOT_SUPPORTED", "WAIVED", "UNEXPECTED_PASS"};

const char *variant_name(variant v)
{
    return v < V_COUNT ? variant_names[v] : "?";
}

int variant_parse(const char *name)
{
    for (int v = 0; v < V_COUNT; v++)
        if (!strcmp(name, variant_names[v]))
            return v;
    return -1;
}

const char *verdict_name(verdict v)
{
    return v < VD_COUNT ? verdict_names[v] : "?";
}

int verdict_counts_against(verdict v)
{
    return v != VD_PASS && v != VD_NOT_SUPPORTED && v != VD_WAIVED;
}

int run_conformant(long passed, long against)
{
    return against == 0 && passed > 0;
}

int case_runs_execute(const rcase *c, uint64_t max_bytes)
{
    return !c->infer_only && c->payload_bytes <= max_bytes && c->layout_bytes <= max_bytes;
}

/* Exactly one expected outcome, a success: the subsets run these. */
static int plain_success(const rcase *c)
{
    return c->noutcomes == 1 && !c->outcomes[0].is_error && !c->abuse && !case_has_layout(c);
}

static int applies(variant v, const rcase *c, uint64_t max_bytes)
{
    if (c->abuse) {
        /* a contract case: the calls its abuse is made on, dense alone */
        unsigned f = abuse_flags(c->abuse);
        if (v == V_INFER)
            return (f & ABUSE_ON_INFER) != 0;
        return v == V_DENSE && (f & ABUSE_ON_EXECUTE) && case_runs_execute(c, max_bytes);
    }
    if (case_has_layout(c))
        return v == V_DENSE && case_runs_execute(c, max_bytes);   /* as it states */
    if (v == V_INFER)
        return 1;
    if (!case_runs_execute(c, max_bytes))
        return 0;
    if (v == V_DENSE)
        return 1;
    int ok = case_first_success(c);
    if (ok < 0)
        return 0;   /* error cases: dense and infer only */
    const outcome *o = &c->outcomes[ok];
    switch (v) {
    case V_IN_PLACE: case V_MISALIGNED: return 1;
    case V_STRIDED_SRC_PADDED: return c->rank >= 1;
    case V_STRIDED_SRC_PERMUTED: return c->rank >= 2;
    case V_STRIDED_DST: return o->rank >= 1;
    case V_BROADCAST_SRC: return layout_broadcast_dim(c->rank, c->dims) >= 0;
    case V_SIZE1_STRIDES:
        return layout_has_size1(c->rank, c->dims) || layout_has_size1(o->rank, o->dims);
    case V_DST_TOO_SMALL: return c->volume >= 1;
    default: return 0;
    }
}

void job_layouts(const rcase *c, variant v, tlayout *src, tlayout *dst)
{
    unsigned bits = reshape_dtype_bits(c->dtype);
    const case_layout *sl = &c->src_layout, *dl = &c->dst_layout;
    int ok = case_first_success(c);
    if (sl->strided)
        layout_strided(src, c->rank, c->dims, sl->strides, (uint64_t)sl->offset, bits);
    else if (v == V_STRIDED_SRC_PADDED)
        layout_padded(src, c->rank, c->dims, bits);
    else if (v == V_STRIDED_SRC_PERMUTED)
        layout_permuted(src, c->rank, c->dims, bits);
    else if (v == V_BROADCAST_SRC)
        layout_broadcast(src, c->rank, c->dims, bits);
    else if (v == V_SIZE1_STRIDES && layout_has_size1(c->rank, c->dims))
        layout_size1(src, c->rank, c->dims, bits);
    else
        layout_dense(src, c->rank, c->dims, bits);

    int32_t rank = c->rank;
    const int64_t *dims = c->dims;
    if (c->dst_has_dims || dl->strided) {
        rank = c->dst_rank;
        dims = c->dst_dims;
    } else if (ok >= 0) {
        rank = c->outcomes[ok].rank;
        dims = c->outcomes[ok].dims;
    }
    if (v == V_DST_TOO_SMALL) {
        int64_t short_dims[1] = {(int64_t)c->volume - 1};
        layout_dense(dst, 1, short_dims, bits);
    } else if (dl->strided) {
        layout_strided(dst, rank, dims, dl->strides, 0, bits);
    } else if (ok >= 0 && v == V_STRIDED_DST) {
        layout_padded(dst, rank, dims, bits);
    } else if (ok >= 0 && v == V_SIZE1_STRIDES && layout_has_size1(rank, dims)) {
        layout_size1(dst, rank, dims, bits);
    } else {
        layout_dense(dst, rank, dims, bits);
    }
}

typedef struct sized {
    uint64_t bytes;
    int index;
} sized;

static const case_set *sort_set;

static int cmp_sized(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? -1 : 1;
    return strcmp(sort_set->cases[x->index].id, sort_set->cases[y->index].id);
}

static void push(job **jobs, int *n, int *cap, job j)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        *jobs = xrealloc(*jobs, (size_t)*cap * sizeof **jobs);
    }
    (*jobs)[(*n)++] = j;
}

/*
 * threads: groups of cases with the same payload size (each thread its own
 * case and payload), the PLAN_THREAD_GROUPS largest sizes up to
 * PLAN_THREAD_MAX_BYTES (longer copies overlap more, so races show).  A
 * group with fewer than four cases reuses them.
 */
static void plan_threads(const case_set *set, const int *sel, int nsel, uint64_t max_bytes,
                         job **jobs, int *n, int *cap)
{
    sized *el = xmalloc((size_t)(nsel ? nsel : 1) * sizeof *el);
    int ne = 0;
    for (int k = 0; k < nsel; k++) {
        const rcase *c = &set->cases[sel[k]];
        if (plain_success(c) && case_runs_execute(c, max_bytes) &&
            c->payload_bytes >= PLAN_THREAD_MIN_BYTES && c->payload_bytes <= PLAN_THREAD_MAX_BYTES)
            el[ne++] = (sized){c->payload_bytes, sel[k]};
    }
    sort_set = set;
    qsort(el, (size_t)ne, sizeof *el, cmp_sized);
    int made = 0;
    for (int to = ne; to > 0 && made < PLAN_THREAD_GROUPS; made++) {
        int from = to - 1;
        while (from > 0 && el[from - 1].bytes == el[to - 1].bytes)
            from--;
        job j = {V_THREADS, WIRE_THREADS, {0}, 0};
        for (int t = 0; t < WIRE_THREADS; t++)
            j.cases[t] = el[from + t % (to - from)].index;
        push(jobs, n, cap, j);
        to = from;
    }
    free(el);
}

/* repeat: the first PLAN_REPEAT_PER_OP small success cases of each op. */
static void plan_repeat(const case_set *set, const int *sel, int nsel, uint64_t max_bytes,
                        job **jobs, int *n, int *cap)
{
    sized *el = xmalloc((size_t)(nsel ? nsel : 1) * sizeof *el);
    int ne = 0;
    for (int k = 0; k < nsel; k++) {
        const rcase *c = &set->cases[sel[k]];
        if (plain_success(c) && case_runs_execute(c, max_bytes) && c->payload_bytes >= 1 &&
            c->payload_bytes <= PLAN_REPEAT_MAX_BYTES)
            el[ne++] = (sized){0, sel[k]};   /* sorted by id alone */
    }
    sort_set = set;
    qsort(el, (size_t)ne, sizeof *el, cmp_sized);
    int per_op[RESHAPE_OP_COUNT + 1] = {0};
    for (int i = 0; i < ne; i++) {
        const rcase *c = &set->cases[el[i].index];
        if (per_op[c->op]++ < PLAN_REPEAT_PER_OP)
            push(jobs, n, cap, (job){V_REPEAT, 1, {el[i].index}, 0});
    }
    free(el);
}

job *plan_jobs(const case_set *set, const int *sel, int nsel, unsigned mask,
               uint64_t max_bytes, int *njobs)
{
    job *jobs = NULL;
    int n = 0, cap = 0;
    for (int k = 0; k < nsel; k++)
        for (int v = 0; v < V_THREADS; v++)
            if ((mask & (1u << v)) && applies((variant)v, &set->cases[sel[k]], max_bytes))
                push(&jobs, &n, &cap, (job){(variant)v, 1, {sel[k]}, 0});
    if (mask & (1u << V_THREADS))
        plan_threads(set, sel, nsel, max_bytes, &jobs, &n, &cap);
    if (mask & (1u << V_REPEAT))
        plan_repeat(set, sel, nsel, max_bytes, &jobs, &n, &cap);
    for (int i = 0; i < n; i++)
        jobs[i].seq = (uint32_t)i + 1;
    *njobs = n;
    return jobs;
}

char *job_expected_describe(const rcase *c, variant v)
{
    if (v != V_DST_TOO_SMALL)
        return case_expected_describe(c);
    strbuf b;
    sb_init(&b);
    int listed = 0;
    for (int i = 0; i < c->noutcomes; i++)
        listed |= c->outcomes[i].is_error && c->outcomes[i].error != RESHAPE_E_INVALID_ARGUMENT;
    sb_addf(&b, "%serror INVALID_ARGUMENT (dst one element short)", listed ? "any of: " : "");
    for (int i = 0; i < c->noutcomes; i++)
        if (c->outcomes[i].is_error && c->outcomes[i].error != RESHAPE_E_INVALID_ARGUMENT)
            sb_addf(&b, ", error %s", reshape_status_name(c->outcomes[i].error));
    return sb_take(&b);
}

void job_needs(const job *j, const case_set *set, size_t *src_bytes, size_t *dst_bytes)
{
    const rcase *c = &set->cases[j->cases[0]];
    *src_bytes = *dst_bytes = 0;
    if (j->v == V_INFER)
        return;
    if (j->v == V_THREADS) {
        uint64_t most = 0;
        for (int t = 0; t < j->ncases; t++) {
            uint64_t b = set->cases[j->cases[t]].payload_bytes;
            most = b > most ? b : most;
        }
        size_t slot = (size_t)(most + 63) / 64 * 64;
        *src_bytes = WIRE_THREADS * slot;
        *dst_bytes = (size_t)WIRE_THREADS * PLAN_THREAD_ITERS * slot;
        return;
    }
    /* 64 bytes for alignment, 64 for a misaligned start */
    tlayout src, dst;
    job_layouts(c, j->v, &src, &dst);
    *src_bytes = (size_t)src.span_bytes + 128;
    *dst_bytes = (size_t)(dst.span_bytes > src.span_bytes ? dst.span_bytes : src.span_bytes) + 128;
}
