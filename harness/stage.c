/*
 * stage.c - staging a job into an arena (stage.h).  Inputs go where a
 * stray write faults: src and dst end at their area's end, next to a guard
 * page; every byte around and between elements holds a canary; dst's
 * elements start as the bitwise complement of what a success must write.
 * Depends on fill.h, layout.h and wire.h.
 */
#include <stdlib.h>
#include <string.h>

#include "fill.h"
#include "stage.h"
#include "util.h"

static void need(bytes *b, size_t n)
{
    if (n > b->cap) {
        b->cap = n < 4096 ? 4096 : n;
        b->p = xrealloc(b->p, b->cap);
    }
    b->len = n;
}

void stage_free(stage *s)
{
    free(s->payload.p);
    free(s->src_img.p);
    free(s->dst_img.p);
    free(s->scratch.p);
    free(s->scratch2.p);
    for (int t = 0; t < WIRE_THREADS; t++)
        free(s->tpayload[t].p);
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
    w->shape.dtype = (int32_t)c->shape_dtype;
    w->shape.rank = c->shape_rank;
    w->shape.strided = 0;
    w->shape.data_off = -1;
    memcpy(w->shape.dims, c->shape_dims, sizeof w->shape.dims);
    memcpy(w->shape_data, c->shape_bytes, sizeof w->shape_data);
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

static uint64_t canary_seed(const stage *s, uint32_t seq, uint64_t salt)
{
    return s->seed * 0x9E3779B97F4A7C15ull ^ ((uint64_t)seq << 20) ^ salt;
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
    memset(a->pview + a->out_off, 0xA5, a->page);
}

static void stage_single(stage *s, arena *a, const rcase *c, wire_request *q, uint32_t seq)
{
    variant v = s->j->v;
    unsigned bits = reshape_dtype_bits(c->dtype);
    wire_call *w = &q->call[0];
    int ok = case_first_success(c);

    need(&s->payload, (size_t)c->payload_bytes);
    fill_payload(&c->data, c->volume, bits, s->payload.p);

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
    } else if (ok < 0) {
        /* an error case: a dst with room for every input element */
        layout_dense(&s->dst_l, c->rank, c->dims, bits);
    } else if (v == V_STRIDED_DST) {
        layout_padded(&s->dst_l, c->outcomes[ok].rank, c->outcomes[ok].dims, bits);
    } else {
        layout_dense(&s->dst_l, c->outcomes[ok].rank, c->outcomes[ok].dims, bits);
    }

    int mis = v == V_MISALIGNED;
    s->dst_data = place(a->dst_off, a->dst_size, s->dst_l.span_bytes, mis);
    s->dst_lo = s->dst_data / a->page * a->page;
    size_t dst_end = a->dst_off + a->dst_size;
    need(&s->dst_img, dst_end - s->dst_lo);
    fill_random(s->dst_img.p, s->dst_img.len, canary_seed(s, seq, 1));
    uint8_t *dst_span = s->dst_img.p + (s->dst_data - s->dst_lo);

    if (v == V_IN_PLACE) {
        /* src and dst are one dense buffer holding the payload */
        memcpy(dst_span, s->payload.p, (size_t)c->payload_bytes);
        s->src_data = s->dst_data;
        s->src_lo = s->src_img.len = 0;
    } else {
        if (s->expect_success) {
            /* elements start as the complement of what must be written */
            need(&s->scratch, (size_t)c->payload_bytes);
            for (size_t k = 0; k < s->scratch.len; k++)
                s->scratch.p[k] = (uint8_t)~s->payload.p[k];
            if (!s->dst_l.strided)
                memcpy(dst_span, s->scratch.p, s->scratch.len);
            else
                layout_scatter(&s->dst_l, s->scratch.p, dst_span);
        }
        s->src_data = place(a->src_off, a->src_size, s->src_l.span_bytes, mis);
        s->src_lo = s->src_data / a->page * a->page;
        need(&s->src_img, a->src_off + a->src_size - s->src_lo);
        fill_random(s->src_img.p, s->src_img.len, canary_seed(s, seq, 2));
        uint8_t *src_span = s->src_img.p + (s->src_data - s->src_lo);
        if (!s->src_l.strided)
            memcpy(src_span, s->payload.p, (size_t)c->payload_bytes);
        else
            layout_scatter(&s->src_l, s->payload.p, src_span);
        memcpy(a->pview + s->src_lo, s->src_img.p, s->src_img.len);
    }
    memcpy(a->pview + s->dst_lo, s->dst_img.p, s->dst_img.len);

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
 * that a shared scratch buffer shows), iteration i writing its own dst
 * slot, so every iteration's output can be checked afterwards.
 */
static void stage_threads(stage *s, arena *a, wire_request *q, uint32_t seq)
{
    const job *j = s->j;
    s->iters = PLAN_THREAD_ITERS;
    uint64_t most = 0;
    for (int t = 0; t < j->ncases; t++) {
        uint64_t b = s->set->cases[j->cases[t]].payload_bytes;
        most = b > most ? b : most;
    }
    s->slot_bytes = (size_t)(most + 63) / 64 * 64;
    s->src_lo = a->src_off;
    s->dst_lo = a->dst_off;
    need(&s->src_img, WIRE_THREADS * s->slot_bytes);
    need(&s->dst_img, (size_t)WIRE_THREADS * (size_t)s->iters * s->slot_bytes);
    fill_random(s->src_img.p, s->src_img.len, canary_seed(s, seq, 3));
    fill_random(s->dst_img.p, s->dst_img.len, canary_seed(s, seq, 4));
    q->kind = REQ_THREADS;
    q->ncalls = j->ncases;
    q->iters = s->iters;
    q->slot_bytes = (int64_t)s->slot_bytes;
    for (int t = 0; t < j->ncases; t++) {
        const rcase *c = &s->set->cases[j->cases[t]];
        unsigned bits = reshape_dtype_bits(c->dtype);
        int ok = case_first_success(c);
        wire_call *w = &q->call[t];
        bytes *p = &s->tpayload[t];
        need(p, (size_t)c->payload_bytes);
        fill_random(p->p, p->len, canary_seed(s, seq, 16 + (uint64_t)t));
        s->tsrc_data[t] = a->src_off + (size_t)t * s->slot_bytes;
        s->tdst_data[t] = a->dst_off + (size_t)t * (size_t)s->iters * s->slot_bytes;
        memcpy(s->src_img.p + (s->tsrc_data[t] - s->src_lo), p->p, p->len);
        for (int i = 0; i < s->iters; i++) {
            uint8_t *slot = s->dst_img.p + (s->tdst_data[t] - s->dst_lo) + (size_t)i * s->slot_bytes;
            for (size_t k = 0; k < p->len; k++)
                slot[k] = (uint8_t)~p->p[k];
        }
        tlayout sl, dl;
        layout_dense(&sl, c->rank, c->dims, bits);
        layout_dense(&dl, c->outcomes[ok].rank, c->outcomes[ok].dims, bits);
        set_shape(w, c);
        set_tensor(&w->src, c->dtype, &sl, (int64_t)s->tsrc_data[t]);
        set_tensor(&w->dst, c->dtype, &dl, (int64_t)s->tdst_data[t]);
        w->layout = 0;
    }
    memcpy(a->pview + s->src_lo, s->src_img.p, s->src_img.len);
    memcpy(a->pview + s->dst_lo, s->dst_img.p, s->dst_img.len);
}

void stage_job(stage *s, arena *a, const case_set *set, const job *j, uint32_t seq,
               uint64_t seed)
{
    s->j = j;
    s->set = set;
    s->seed = seed;
    s->expect_success = 0;
    s->expect_shape = -1;
    s->src_img.len = s->dst_img.len = 0;
    wire_request *q = &s->req;
    memset(q, 0, sizeof *q);
    q->seq = seq;
    q->ncalls = 1;
    const rcase *c = &set->cases[j->cases[0]];
    if (j->v == V_THREADS) {
        stage_threads(s, a, q, seq);
    } else {
        set_shape(&q->call[0], c);
        if (j->v == V_INFER)
            stage_infer(s, a, c, q);
        else
            stage_single(s, a, c, q, seq);
    }
    memcpy(arena_request(a, a->pview), q, sizeof *q);
    wire_response *r = arena_response(a, a->pview);
    wire_probe probe = r->probe;
    memset(r, 0, sizeof *r);
    r->probe = probe;
}
