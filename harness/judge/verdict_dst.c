/*
 * verdict_dst.c - step 5 of a verdict: dst's bytes.  After a success every
 * element equals src's element of the same row-major index, read from its
 * offset (D12: any strides, a broadcast's repeat), gap bits of a strided
 * dst their canary, and for dense to dense the padding bits of a sub-byte
 * tensor's last byte src's; after an error dst is as staged.  Depends on verdict_int.h.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/base.h"
#include "suite/suite.h"
#include "engine/engine.h"
#include "compare.h"
#include "verdict_int.h"

/*
 * dst after a success: elements equal the payload, gap bits equal their
 * canary, and for dense to dense the padding bits of a sub-byte tensor's
 * last byte equal src's (with a strided src they are not checked).  The
 * payload is src itself when src is dense (checked unchanged before), the
 * elements gathered from a strided src at staging, or generated again for
 * in_place.
 */
void verdict_check_dst(stage *s, const arena *a, result *r)
{
    const rcase *c = &s->set->cases[s->j->cases[0]];
    const tlayout *l = &s->dst_l;
    const uint8_t *got = a->pview + s->dst_data;
    size_t span = (size_t)l->span_bytes, pay = (size_t)payload_size(l->volume, l->bits);
    const uint8_t *payload = NULL;
    if (s->gathered)
        payload = s->payload.p;
    else if (s->src_lo)
        payload = a->pview + s->src_data;
    if (!l->strided) {
        int pad_free = s->gathered && (l->volume * l->bits) % 8 != 0;
        int same;
        if (!payload)
            same = verdict_payload_diff(c, got, span) < 0;
        else if (!pad_free)
            same = memcmp(payload, got, span) == 0;
        else {
            unsigned used = (unsigned)((l->volume * l->bits) % 8);
            uint8_t keep = l->bits == 1 ? (uint8_t)(0xFFu << (8 - used)) : (uint8_t)((1u << used) - 1);
            same = memcmp(payload, got, span - 1) == 0 &&
                   ((payload[span - 1] ^ got[span - 1]) & keep) == 0;
        }
        if (same)
            return;
    } else {
        /* the expected image: canaries, then the payload in the elements */
        uint8_t *e = verdict_room(&s->scratch2, span);
        fill_random_at(e, span, s->dst_canary, s->dst_data - s->dst_lo);
        layout_scatter(l, payload, e);
        if (memcmp(e, got, span) == 0)
            return;
        /* a changed gap bit is a write outside the elements */
        uint8_t *m = verdict_room(&s->scratch, span);
        layout_mask(l, m);
        for (size_t k = 0; k < span; k++)
            if ((e[k] ^ got[k]) & ~m[k]) {
                verdict_set(r, VD_MEMORY_VIOLATION, xasprintf("wrote into a gap of strided dst at byte %zu", k));
                return;
            }
    }
    if (!payload) {
        stage_build_payload(s, c);
        payload = s->payload.p;
    }
    /* the elements, gathered into row-major order */
    const uint8_t *g = got;
    if (l->strided) {
        uint8_t *gb = verdict_room(&s->scratch, pay);
        layout_gather(l, got, gb);
        g = gb;
    }
    int64_t i = compare_first_element(payload, g, l->volume, l->bits);
    if (i >= 0) {
        verdict_element_detail(r, l, payload, g, i, "");
        return;
    }
    verdict_set(r, VD_FAIL, xasprintf("padding bits of the last byte of a dense sub-byte dst: expected "
                              "0x%02x, got 0x%02x", payload[pay - 1], got[pay - 1]));
}

/* Offset in dst's span of the first byte that is no longer as staged
 * (canaries, the complement of the payload, or in place the payload), or
 * -1: what a failing call must leave. */
int64_t verdict_dst_changed(stage *s, const arena *a)
{
    const rcase *c = &s->set->cases[s->j->cases[0]];
    const tlayout *l = &s->dst_l;
    size_t span = (size_t)l->span_bytes;
    const uint8_t *got = a->pview + s->dst_data;
    if (!s->expect_success && s->src_lo)
        return stage_canary_diff(s, a, s->dst_lo, s->dst_data, span, s->dst_canary);
    if (!s->expect_success) {
        /* a case's src in place (D12 refuses it): its buffer, canaries after */
        uint8_t *e = verdict_room(&s->scratch2, s->dst_bytes);
        fill_random_at(e, s->dst_bytes, s->dst_canary, s->dst_data - s->dst_lo);
        stage_src_image(s, c, e);
        return compare_first_byte(e, got, s->dst_bytes);
    }
    if (!s->src_lo)
        return verdict_payload_diff(c, got, span);
    const uint8_t *payload = s->gathered ? s->payload.p : a->pview + s->src_data;
    if (!l->strided) {
        size_t k = 0;
        for (; k + 8 <= span; k += 8) {
            uint64_t x, y;
            memcpy(&x, got + k, 8);
            memcpy(&y, payload + k, 8);
            if ((x ^ y) != ~(uint64_t)0)
                break;
        }
        for (; k < span; k++)
            if ((uint8_t)(got[k] ^ payload[k]) != 0xFF)
                return (int64_t)k;
        return -1;
    }
    uint8_t *e = verdict_room(&s->scratch2, span);
    fill_random_at(e, span, s->dst_canary, s->dst_data - s->dst_lo);
    layout_scatter(l, payload, e);
    layout_complement(l, e);
    return compare_first_byte(e, got, span);
}
