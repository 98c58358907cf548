/*
 * stage.c - staging a job into a cell of an arena (stage.h).  Inputs go
 * where a stray write faults: src and dst end at their area's end, next to
 * a guard page; every byte around and between elements holds a canary;
 * dst's elements start as the bitwise complement of what a success must
 * write.  Large payloads are written once, straight into the shared
 * memory.  src's side is stage_src.c, the buffers stage_buf.c.  Depends
 * on fill.h, layout.h and wire.h.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "suite/suite.h"
#include "stage_int.h"

void stage_free(stage *s)
{
    free(s->payload.p);
    free(s->scratch.p);
    free(s->scratch2.p);
    memset(s, 0, sizeof *s);
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
static void dst_surroundings(stage *s, arena *a, size_t moat_lo, size_t known, size_t end)
{
    size_t span = s->dst_bytes;
    if (s->moat_lo != moat_lo || known < moat_lo)
        known = moat_lo;
    s->moat_lo = moat_lo;
    s->canary_lo = s->dst_data >= s->dst_lo + CANARY_NEAR ? s->dst_data - CANARY_NEAR : s->dst_lo;
    if (s->canary_lo > known)
        memset(a->pview + known, WIRE_MOAT_BYTE, s->canary_lo - known);
    stage_canaries(a, s->dst_lo, s->canary_lo, s->dst_data - s->canary_lo, s->dst_canary);
    stage_canaries(a, s->dst_lo, s->dst_data + span, end - s->dst_data - span, s->dst_canary);
}

static void stage_single(stage *s, arena *a, const rcase *c, wire_request *q, size_t known)
{
    variant v = s->j->v;
    wire_call *w = &q->call[0];
    const cell *cl = s->cl;
    uint8_t *pv = a->pview;
    int in_place = v == V_IN_PLACE || c->in_place;

    job_layouts(c, v, &s->src_l, &s->dst_l);
    if (s->err_dst_dims && v != V_DST_TOO_SMALL && case_first_success(c) < 0)
        /* an error case, dst of the dims the candidate inferred */
        layout_dense(&s->dst_l, s->err_dst_rank, s->err_dst_dims, reshape_dtype_bits(c->dtype));
    s->expect_shape = v == V_DST_TOO_SMALL ? -1 : case_first_success(c);
    s->expect_success = s->expect_shape >= 0;
    s->src_scatter = v == V_STRIDED_SRC_PADDED || v == V_STRIDED_SRC_PERMUTED;
    s->gathered = 0;
    size_t dspan = (size_t)s->dst_l.span_bytes, sspan = (size_t)s->src_l.span_bytes;
    /* in place, src and dst share one buffer: room for the longer */
    s->dst_bytes = in_place && sspan > dspan ? sspan : dspan;
    s->used_bytes = sspan + dspan;
    int mis = v == V_MISALIGNED;
    size_t dst_end = cl->dst_off + cl->dst_size;
    s->dst_data = stage_place(cl->dst_off, cl->dst_size, s->dst_bytes, mis);
    s->dst_lo = s->dst_data / a->page * a->page;
    s->dst_canary = stage_canary_seed(s, s->seq, 1);
    s->src_canary = stage_canary_seed(s, s->seq, 2);

    arena_populate(a, pv, s->dst_lo, dst_end - s->dst_lo, 1);
    dst_surroundings(s, a, cell_has_moat(cl) ? cl->dst_off : s->dst_lo, known, dst_end);
    if (in_place) {
        /* src and dst are one buffer: the in_place variant's dense
         * payload, or a case's src (D12 refuses it: nothing may change),
         * canaries after it */
        s->src_data = s->dst_data;
        s->src_lo = 0;
        if (v == V_IN_PLACE) {
            fill_payload(&c->data, c->volume, s->src_l.bits, pv + s->dst_data);
        } else {
            stage_canaries(a, s->dst_lo, s->dst_data, s->dst_bytes, s->dst_canary);
            stage_src_image(s, c, pv + s->dst_data);
        }
    } else {
        stage_src(s, a, c, mis);
        const uint8_t *want = s->expect_success ? stage_expected(s, a, c) : NULL;
        if (!s->expect_success) {
            stage_canaries(a, s->dst_lo, s->dst_data, dspan, s->dst_canary);
        } else if (s->dst_l.strided) {
            /* elements start as the complement of what must be written */
            stage_canaries(a, s->dst_lo, s->dst_data, dspan, s->dst_canary);
            layout_scatter(&s->dst_l, want, pv + s->dst_data);
            layout_complement(&s->dst_l, pv + s->dst_data);
        } else {
            stage_complement(pv + s->dst_data, want, (size_t)c->payload_bytes);
        }
    }

    /* the candidate gets the first element, `offset` elements into src's
     * buffer (a case's own layout) */
    size_t first = (size_t)(s->src_l.offset * s->src_l.bits / 8);
    set_tensor(&w->src, c->dtype, &s->src_l, (int64_t)(s->src_data + first));
    set_tensor(&w->dst, c->dtype, &s->dst_l, (int64_t)s->dst_data);
    w->layout = layout_flags(&s->src_l, 1) | layout_flags(&s->dst_l, 0) |
                (in_place ? RESHAPE_LAYOUT_IN_PLACE : 0);
    q->kind = REQ_EXECUTE;
    q->dst_bytes = (int64_t)s->dst_bytes;
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
    stage_canaries(a, s->src_lo, s->src_lo, WIRE_THREADS * s->slot_bytes, s->src_canary);
    stage_canaries(a, s->dst_lo, s->dst_lo, (size_t)WIRE_THREADS * (size_t)s->iters * s->slot_bytes,
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
            stage_complement(pv + s->tdst_data[t] + (size_t)i * s->slot_bytes, src, len);
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
    q->pinned = s->pinned;
    s->pinned = 0;
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
