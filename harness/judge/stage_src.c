/*
 * stage_src.c - src's side of staging a job (stage.h): its buffer in the
 * src area with the bytes around it, as each layout has it (the payload, a
 * broadcast's stored rows, a case's own buffer, or canaries with the
 * payload scattered in), and the elements a success must write, gathered
 * from it by their offsets (reference/DECISIONS.md D12).  Depends on
 * stage_int.h.
 */
#include <string.h>

#include "base/base.h"
#include "suite/suite.h"
#include "stage_int.h"

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
    stage_complement(a->pview + after, mirror, m);
    fill_random(a->pview + after + m, n - m, stage_canary_seed(s, s->seq, 6));
}

/*
 * The src layout a contract case's call really has: abuse_apply on a copy
 * of the well-formed call, its strides taken when it gave src strides >= 0
 * over the same dims (src_stride_zero, src_stride_huge on a dim of 1: calls
 * the ABI allows, D12).  Returns 1 and sets *eff then, else 0.
 */
static int abused_src(const rcase *c, const tlayout *l, tlayout *eff)
{
    abuse_call k;
    memset(&k, 0, sizeof k);
    k.src = (reshape_tensor){c->dtype, l->rank, l->dims, l->strided ? l->strides : NULL, NULL};
    k.dst = k.src;
    k.params.shape = &k.shape;
    abuse_apply(c->abuse, &k);
    if (!k.src.strides || k.src.strides == l->strides || k.src.dims != l->dims ||
        k.src.rank != l->rank)
        return 0;
    for (int32_t i = 0; i < l->rank; i++)
        if (k.src.strides[i] < 0)
            return 0;
    layout_strided(eff, l->rank, l->dims, k.src.strides, 0, l->bits);
    return eff->span_bytes <= l->span_bytes;
}

const uint8_t *stage_expected(stage *s, const arena *a, const rcase *c)
{
    const uint8_t *src = a->pview + s->src_data;
    tlayout eff;
    const tlayout *l = &s->src_l;
    if (c->abuse && abused_src(c, l, &eff))
        l = &eff;
    else if (!l->strided)
        return src;
    stage_need(&s->payload, (size_t)c->payload_bytes + 1);
    layout_gather(l, src, s->payload.p);
    s->have_payload = 1;
    s->gathered = 1;
    return s->payload.p;
}

void stage_src_image(stage *s, const rcase *c, uint8_t *out)
{
    const tlayout *l = &s->src_l;
    if (s->src_scatter) {
        fill_random_at(out, (size_t)l->span_bytes, s->src_canary, 0);
        layout_scatter(l, s->payload.p, out);
        return;
    }
    uint64_t n = c->src_layout.strided ? c->storage_elems : c->volume;
    fill_payload_at(&c->data, n, l->bits, 0, (size_t)l->span_bytes, out);
}

void stage_src(stage *s, arena *a, const rcase *c, int mis)
{
    const cell *cl = s->cl;
    size_t sspan = (size_t)s->src_l.span_bytes;
    s->src_data = stage_place(cl->src_off, cl->src_size, sspan, mis);
    s->src_lo = s->src_data;
    arena_populate(a, a->pview, s->src_lo, sspan, 1);
    src_surroundings(s, a, sspan, s->dst_bytes);
    if (s->src_scatter)
        stage_build_payload(s, c);
    if (s->src_l.strided)
        stage_src_image(s, c, a->pview + s->src_data);
    else
        fill_payload(&c->data, c->volume, s->src_l.bits, a->pview + s->src_data);
}

