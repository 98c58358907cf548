/*
 * stage.c - staging a job into a cell of an arena (stage.h).  Inputs go
 * where a stray write faults: src and dst end at their area's end, next to
 * a guard page; every byte around and between elements holds a canary;
 * dst's elements start as the bitwise complement of what a success must
 * write.  Large payloads are written once, straight into the shared
 * memory.  Depends on fill.h, layout.h and wire.h.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "suite/suite.h"
#include "stage.h"

static void need(bytes *b, size_t n)
{
    if (n > b->cap) {
        b->cap = n < 4096 ? 4096 : n;
        free(b->p);
        b->p = xmalloc(b->cap);
    }
    b->len = n;
}

void stage_free(stage *s)
{
    free(s->payload.p);
    free(s->scratch.p);
    free(s->scratch2.p);
    memset(s, 0, sizeof *s);
}

void stage_build_payload(stage *s, const rcase *c)
{
    need(&s->payload, (size_t)c->payload_bytes);
    fill_payload(&c->data, c->volume, reshape_dtype_bits(c->dtype), s->payload.p);
    s->have_payload = 1;
}

static void set_tensor(wire_tensor *w, reshape_dtype dtype, const tlayout *l, int64_t data_off)
{
    w->dtype = (int32_t)dtype;
    w->rank = l->rank;
    w->strided = l->strided;
    w->data_off = data_off;
    memcpy(w->dims, l->dims, sizeof w->dims);
    memcpy(w->strides, l->strides, sizeof w->strides);
}

static void set_shape(wire_call *w, const rcase *c)
{
    w->op = (int32_t)c->op;
    w->special_zero = c->special_zero;
    w->abuse = (int32_t)c->abuse;
    w->shape.dtype = (int32_t)c->shape_dtype;
    w->shape.rank = c->shape_rank;
    w->shape.strided = 0;
    w->shape.data_off = -1;
    memcpy(w->shape.dims, c->shape_dims, sizeof w->shape.dims);
    memcpy(w->shape_data, c->shape_bytes, sizeof w->shape_data);
    w->shape_nbytes = (int32_t)(c->shape_nbytes < sizeof w->shape_data ? c->shape_nbytes
                                                                       : sizeof w->shape_data);
}

typedef struct copy_ctx {
    uint8_t *to;
    const uint8_t *from;
} copy_ctx;

static void copy_part(void *ctx, size_t off, size_t len)
{
    copy_ctx *k = ctx;
    memcpy(k->to + off, k->from + off, len);
}

/*
 * Where data of `span` bytes goes in an area [area, area + size): its end
 * within 64 bytes of the area's end (the guard page), its start aligned to
 * 64, or for `misaligned` at an address that is 1 mod 16.
 */
static size_t place(size_t area, size_t size, uint64_t span, int misaligned)
{
    size_t end = area + size;
    size_t off = (end - (size_t)span) / 64 * 64;
    if (misaligned) {
        off = (end - (size_t)span - 1) / 16 * 16 + 1;
        if (off + span > end)
            off -= 16;
    }
    return off;
}

uint64_t stage_canary_seed(const stage *s, uint32_t seq, uint64_t salt)
{
    return s->seed * 0x9E3779B97F4A7C15ull ^ ((uint64_t)seq << 20) ^ salt;
}

/* Writes canary stream `seed` (stream offset 0 at `lo`) into arena
 * [off, off + len). */
static void canaries(arena *a, size_t lo, size_t off, size_t len, uint64_t seed)
{
    fill_random_at(a->pview + off, len, seed, off - lo);
}

int64_t stage_canary_diff(stage *s, const arena *a, size_t lo, size_t off, size_t len,
                          uint64_t seed)
{
    (void)s;
    uint8_t want[4096];
    for (size_t done = 0; done < len;) {
        size_t k = len - done < sizeof want ? len - done : sizeof want;
        fill_random_at(want, k, seed, off + done - lo);
        const uint8_t *got = a->pview + off + done;
        if (memcmp(want, got, k))
            for (size_t i = 0; i < k; i++)
                if (want[i] != got[i])
                    return (int64_t)(done + i);
        done += k;
    }
    return -1;
}

/* dst[k] = ~src[k] for k < n, eight bytes at a time. */
static void complement(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t v;
        memcpy(&v, src + k, 8);
        v = ~v;
        memcpy(dst + k, &v, 8);
    }
    for (; k < n; k++)
        dst[k] = (uint8_t)~src[k];
}

static void stage_infer(stage *s, arena *a, const rcase *c, wire_request *q)
{
    wire_call *w = &q->call[0];
    layout_dense(&s->src_l, c->rank, c->dims, reshape_dtype_bits(c->dtype));
    memset(&s->dst_l, 0, sizeof s->dst_l);
    set_tensor(&w->src, c->dtype, &s->src_l, -1);   /* infer_shape reads dims alone */
    w->dst = w->src;
    w->layout = 0;
    q->kind = REQ_INFER;
    /* out_rank and out_dims start as poison the candidate must overwrite */
    memset(a->pview + s->cl->out_off, 0xA5, a->page);
}

/*
 * dst's surroundings: canaries in the CANARY_NEAR bytes before dst and
 * from its end to the area's end, the moat byte from `moat_lo` up to them
 * (cheap to write and check, where a stray write is as visible).
 */
#define CANARY_NEAR 64
static void dst_surroundings(stage *s, arena *a, size_t moat_lo, size_t known, size_t end)
{
    size_t span = (size_t)s->dst_l.span_bytes;
    if (s->moat_lo != moat_lo || known < moat_lo)
        known = moat_lo;
    s->moat_lo = moat_lo;
    s->canary_lo = s->dst_data >= s->dst_lo + CANARY_NEAR ? s->dst_data - CANARY_NEAR : s->dst_lo;
    if (s->canary_lo > known)
        memset(a->pview + known, WIRE_MOAT_BYTE, s->canary_lo - known);
    canaries(a, s->dst_lo, s->canary_lo, s->dst_data - s->canary_lo, s->dst_canary);
    canaries(a, s->dst_lo, s->dst_data + span, end - s->dst_data - span, s->dst_canary);
}

/*
 * The bytes around src within its area, which a copy that starts early or
 * runs past the end would read: before src, CANARY_NEAR bytes of a stream
 * of their own; after it, up to the area's end, the complement of the
 * canaries that follow dst, so that copying them past dst always changes
 * those.  Either way they are the job's own, not what an earlier job left
 * in the cell.
 */
static void src_surroundings(stage *s, arena *a, size_t sspan, size_t dspan)
{
    const cell *cl = s->cl;
    size_t lo = s->src_data >= cl->src_off + CANARY_NEAR ? s->src_data - CANARY_NEAR : cl->src_off;
    fill_random(a->pview + lo, s->src_data - lo, stage_canary_seed(s, s->seq, 5));
    size_t after = s->src_data + sspan, n = cl->src_off + cl->src_size - after;
    size_t dst_after = s->dst_data + dspan, m = cl->dst_off + cl->dst_size - dst_after;
    uint8_t mirror[CANARY_NEAR];
    if (n > sizeof mirror)
        n = sizeof mirror;      /* place() leaves fewer than 64 bytes */
    if (m > n)
        m = n;
    fill_random_at(mirror, m, s->dst_canary, dst_after - s->dst_lo);
    complement(a->pview + after, mirror, m);
    fill_random(a->pview + after + m, n - m, stage_canary_seed(s, s->seq, 6));
}

static void stage_single(stage *s, arena *a, const rcase *c, wire_request *q, size_t known)
{
    variant v = s->j->v;
    unsigned bits = reshape_dtype_bits(c->dtype);
    wire_call *w = &q->call[0];
    const cell *cl = s->cl;
    uint8_t *pv = a->pview;
    int ok = case_first_success(c);
    size_t pay = (size_t)c->payload_bytes;

    switch (v) {
    case V_STRIDED_SRC_PADDED: layout_padded(&s->src_l, c->rank, c->dims, bits); break;
    case V_STRIDED_SRC_PERMUTED: layout_permuted(&s->src_l, c->rank, c->dims, bits); break;
    default: layout_dense(&s->src_l, c->rank, c->dims, bits); break;
    }
    s->expect_shape = v == V_DST_TOO_SMALL ? -1 : ok;
    s->expect_success = s->expect_shape >= 0;
    if (v == V_DST_TOO_SMALL) {
        int64_t short_dims[1] = {(int64_t)c->volume - 1};
        layout_dense(&s->dst_l, 1, short_dims, bits);
    } else if (ok < 0 && s->err_dst_dims) {
        /* an error case, dst of the dims the candidate inferred */
        layout_dense(&s->dst_l, s->err_dst_rank, s->err_dst_dims, bits);
    } else if (ok < 0) {
        /* an error case: a dst with room for every input element */
        layout_dense(&s->dst_l, c->rank, c->dims, bits);
    } else if (v == V_STRIDED_DST) {
        layout_padded(&s->dst_l, c->outcomes[ok].rank, c->outcomes[ok].dims, bits);
    } else {
        layout_dense(&s->dst_l, c->outcomes[ok].rank, c->outcomes[ok].dims, bits);
    }

    s->used_bytes = (size_t)(s->src_l.span_bytes + s->dst_l.span_bytes);
    int mis = v == V_MISALIGNED;
    size_t dspan = (size_t)s->dst_l.span_bytes, sspan = (size_t)s->src_l.span_bytes;
    size_t dst_end = cl->dst_off + cl->dst_size;
    s->dst_data = place(cl->dst_off, cl->dst_size, dspan, mis);
    s->dst_lo = s->dst_data / a->page * a->page;
    s->dst_canary = stage_canary_seed(s, s->seq, 1);
    s->src_canary = stage_canary_seed(s, s->seq, 2);

    arena_populate(a, pv, s->dst_lo, dst_end - s->dst_lo, 1);
    dst_surroundings(s, a, cell_has_moat(cl) ? cl->dst_off : s->dst_lo, known, dst_end);
    if (v == V_IN_PLACE) {
        /* src and dst are one dense buffer holding the payload */
        fill_payload(&c->data, c->volume, bits, pv + s->dst_data);
        s->src_data = s->dst_data;
        s->src_lo = 0;
    } else {
        /* src is read-only to the candidate: only its span is staged and
         * checked (a write anywhere in the area faults) */
        s->src_data = place(cl->src_off, cl->src_size, sspan, mis);
        s->src_lo = s->src_data;
        arena_populate(a, pv, s->src_lo, sspan, 1);
        src_surroundings(s, a, sspan, dspan);
        const uint8_t *dense_src = pv + s->src_data;
        if (s->src_l.strided) {
            canaries(a, s->src_lo, s->src_data, sspan, s->src_canary);
            stage_build_payload(s, c);
            layout_scatter(&s->src_l, s->payload.p, pv + s->src_data);
            dense_src = s->payload.p;
        } else {
            fill_payload(&c->data, c->volume, bits, pv + s->src_data);
        }
        if (!s->expect_success) {
            canaries(a, s->dst_lo, s->dst_data, dspan, s->dst_canary);
        } else if (s->dst_l.strided) {
            /* elements start as the complement of what must be written */
            canaries(a, s->dst_lo, s->dst_data, dspan, s->dst_canary);
            layout_scatter(&s->dst_l, dense_src, pv + s->dst_data);
            layout_complement(&s->dst_l, pv + s->dst_data);
        } else {
            complement(pv + s->dst_data, dense_src, pay);
        }
    }

    set_tensor(&w->src, c->dtype, &s->src_l, (int64_t)s->src_data);
    set_tensor(&w->dst, c->dtype, &s->dst_l, (int64_t)s->dst_data);
    w->layout = (s->src_l.strided ? RESHAPE_LAYOUT_STRIDED_SRC : 0) |
                (s->dst_l.strided ? RESHAPE_LAYOUT_STRIDED_DST : 0) |
                (v == V_IN_PLACE ? RESHAPE_LAYOUT_IN_PLACE : 0);
    q->kind = REQ_EXECUTE;
    if (v == V_REPEAT) {
        q->kind = REQ_REPEAT;
        q->warmup = PLAN_REPEAT_WARMUP;
        q->calls = PLAN_REPEAT_CALLS;
        q->sample_every = PLAN_REPEAT_EVERY;
    }
}

/*
 * threads: thread t runs case j->cases[t] on its own random payload (so
 * that a shared scratch buffer shows), each kept call writing its own dst
 * slot, so every one can be checked afterwards.
 */
static void stage_threads(stage *s, arena *a, wire_request *q)
{
    const job *j = s->j;
    const cell *cl = s->cl;
    uint8_t *pv = a->pview;
    s->iters = PLAN_THREAD_ITERS;
    uint64_t most = 0;
    for (int t = 0; t < j->ncases; t++) {
        uint64_t b = s->set->cases[j->cases[t]].payload_bytes;
        most = b > most ? b : most;
    }
    s->slot_bytes = (size_t)(most + 63) / 64 * 64;
    s->src_lo = cl->src_off;
    s->dst_lo = cl->dst_off;
    s->used_bytes = (size_t)WIRE_THREADS * (size_t)(s->iters + 1) * s->slot_bytes;
    s->src_canary = stage_canary_seed(s, s->seq, 3);
    s->dst_canary = stage_canary_seed(s, s->seq, 4);
    canaries(a, s->src_lo, s->src_lo, WIRE_THREADS * s->slot_bytes, s->src_canary);
    canaries(a, s->dst_lo, s->dst_lo, (size_t)WIRE_THREADS * (size_t)s->iters * s->slot_bytes,
             s->dst_canary);
    q->kind = REQ_THREADS;
    q->ncalls = j->ncases;
    q->iters = s->iters;
    q->slot_bytes = (int64_t)s->slot_bytes;
    q->budget_ms = PLAN_THREAD_BUDGET_MS;
    for (int t = 0; t < j->ncases; t++) {
        const rcase *c = &s->set->cases[j->cases[t]];
        unsigned bits = reshape_dtype_bits(c->dtype);
        int ok = case_first_success(c);
        wire_call *w = &q->call[t];
        memset(w, 0, sizeof *w);
        size_t len = (size_t)c->payload_bytes;
        s->tlen[t] = len;
        s->tsrc_data[t] = cl->src_off + (size_t)t * s->slot_bytes;
        s->tdst_data[t] = cl->dst_off + (size_t)t * (size_t)s->iters * s->slot_bytes;
        const uint8_t *src = pv + s->tsrc_data[t];
        fill_random(pv + s->tsrc_data[t], len, stage_canary_seed(s, s->seq, 16 + (uint64_t)t));
        for (int i = 0; i < s->iters; i++)
            complement(pv + s->tdst_data[t] + (size_t)i * s->slot_bytes, src, len);
        tlayout sl, dl;
        layout_dense(&sl, c->rank, c->dims, bits);
        layout_dense(&dl, c->outcomes[ok].rank, c->outcomes[ok].dims, bits);
        set_shape(w, c);
        set_tensor(&w->src, c->dtype, &sl, (int64_t)s->tsrc_data[t]);
        set_tensor(&w->dst, c->dtype, &dl, (int64_t)s->tdst_data[t]);
        w->layout = 0;
    }
}

void stage_map_back(const stage *s, const arena *a)
{
    const cell *cl = s->cl;
    if (s->j->v == V_THREADS || s->j->v == V_INFER)
        return;
    arena_populate(a, a->pview, s->dst_data, cl->dst_off + cl->dst_size - s->dst_data, 0);
    if (s->src_lo)
        arena_populate(a, a->pview, s->src_data, cl->src_off + cl->src_size - s->src_data, 0);
}

void stage_job(stage *s, arena *a, const cell *cl, const case_set *set, const job *j,
               uint32_t seq, uint64_t seed)
{
    /* the moat is trusted only as far as the last judge found it intact */
    size_t known = s->cl == cl ? s->moat_end : 0;
    s->moat_end = 0;
    s->j = j;
    s->set = set;
    s->cl = cl;
    s->seed = seed;
    s->seq = seq;
    s->expect_success = 0;
    s->expect_shape = -1;
    s->have_payload = 0;
    s->src_lo = 0;
    s->used_bytes = 0;
    wire_request *q = &s->req;
    /* the header and the calls in use: only they reach the arena
     * (wire_request_parts), and the whole record is 16 pages of mostly
     * unused room (stage_threads clears the calls after the first) */
    memset(q, 0, offsetof(wire_request, call) + sizeof q->call[0]);
    q->seq = seq;
    q->ncalls = 1;
    const rcase *c = &set->cases[j->cases[0]];
    if (j->v == V_THREADS) {
        stage_threads(s, a, q);
    } else {
        set_shape(&q->call[0], c);
        if (j->v == V_INFER)
            stage_infer(s, a, c, q);
        else
            stage_single(s, a, c, q, known);
    }
    copy_ctx k = {(uint8_t *)arena_request(cl, a->pview), (const uint8_t *)q};
    wire_request_parts(q, copy_part, &k);
    if (j->v != V_THREADS && j->v != V_INFER) {
        /* a large payload is the worker's alone until it has run (wire.h) */
        arena_unmap_pages(a, a->pview, s->dst_data, cl->dst_off + cl->dst_size - s->dst_data);
        if (s->src_lo)
            arena_unmap_pages(a, a->pview, s->src_data, cl->src_off + cl->src_size - s->src_data);
    }
    /* the worker clears the whole response when it starts the request;
     * the fields a death is judged by are cleared here too, in case it
     * dies before that (the rest are read only from an answered request) */
    memset(arena_response(cl, a->pview), 0, offsetof(wire_response, mem));
}

void stage_job_dst(stage *s, arena *a, const cell *cl, const case_set *set, const job *j,
                   uint32_t seq, uint64_t seed, int32_t rank, const int64_t *dims)
{
    s->err_dst_rank = rank;
    s->err_dst_dims = dims;
    stage_job(s, a, cl, set, j, seq, seed);
    s->err_dst_dims = NULL;
}
