/*
 * verdict_detail.c - what every verdict rule uses (verdict_int.h): setting a
 * result, where an arena offset lies in words, a write found, the first
 * differing byte of a payload, the detail of a differing element.
 * Depends on compare.h, stage.h and suite/ (payloads).
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

void verdict_set(result *r, verdict vd, char *detail)
{
    r->vd = vd;
    free(r->detail);
    r->detail = detail;
}

/* Where arena offset `off` lies, for a fault or a changed byte. */
char *verdict_where(const stage *s, const arena *a, uint64_t off)
{
    const cell *cl = s->cl;
    size_t dst_end = cl->dst_off + cl->dst_size, src_end = cl->src_off + cl->src_size;
    size_t dspan = (size_t)s->dst_l.span_bytes, sspan = (size_t)s->src_l.span_bytes;
    int threads = s->j->v == V_THREADS;
    if (off < cl->req_off || off >= cl->end)
        return xstrdup(off < a->size ? "in another request's memory" : "outside the arena");
    if (off < cl->out_off)
        return xstrdup("in the harness's request");
    if (off < cl->out_off + a->page)
        return xstrdup("in out_rank/out_dims");
    if (off < cl->src_off)
        return xasprintf("%llu bytes past the end of out_dims",
                         (unsigned long long)(off - (cl->out_off + a->page) + 1));
    if (off < src_end) {
        if (!threads && off >= s->src_data && off < s->src_data + sspan)
            return xasprintf("in src at byte %llu", (unsigned long long)(off - s->src_data));
        if (!threads && off >= s->src_data + sspan)
            return xasprintf("%llu bytes past the end of src",
                             (unsigned long long)(off - (s->src_data + sspan) + 1));
        return xstrdup("in the src area");
    }
    if (off < cl->dst_off)
        return xasprintf("%llu bytes past the end of src (guard page)",
                         (unsigned long long)(off - src_end + 1));
    if (off < dst_end) {
        if (threads)
            return xstrdup("in the dst area");
        if (off < s->dst_data)
            return xasprintf("%llu bytes before dst", (unsigned long long)(s->dst_data - off));
        if (off < s->dst_data + dspan)
            return xasprintf("in dst at byte %llu", (unsigned long long)(off - s->dst_data));
        return xasprintf("%llu bytes past the end of dst",
                         (unsigned long long)(off - (s->dst_data + dspan) + 1));
    }
    return xasprintf("%llu bytes past the end of dst (guard page)",
                     (unsigned long long)(off - (s->dst_data + dspan) + 1));
}

/* A write found at arena offset `off`: MEMORY_VIOLATION.  Returns 1. */
int verdict_wrote_at(const stage *s, const arena *a, size_t off, result *r)
{
    char *w = verdict_where(s, a, off);
    verdict_set(r, VD_MEMORY_VIOLATION, xasprintf("wrote %s", w));
    free(w);
    return 1;
}

/* Offset of the first byte of the `len` bytes at `got` that differs from
 * case `c`'s payload, generated again a piece at a time, or -1. */
int64_t verdict_payload_diff(const rcase *c, const uint8_t *got, size_t len)
{
    uint8_t want[4096];
    unsigned bits = reshape_dtype_bits(c->dtype);
    for (size_t done = 0; done < len;) {
        size_t k = len - done < sizeof want ? len - done : sizeof want;
        fill_payload_at(&c->data, c->volume, bits, done, k, want);
        if (memcmp(want, got + done, k))
            return (int64_t)done + compare_first_byte(want, got + done, k);
        done += k;
    }
    return -1;
}

void verdict_element_detail(result *r, const tlayout *l, const uint8_t *expected,
                            const uint8_t *got, int64_t i, const char *prefix)
{
    strbuf b;
    int64_t idx[RESHAPE_MAX_RANK];
    sb_init(&b);
    layout_index(l, (uint64_t)i, idx);
    sb_addf(&b, "%selement %lld ", prefix, (long long)i);
    sb_add_dims(&b, l->rank, idx);
    sb_addf(&b, ": expected ");
    compare_add_element(&b, expected, (uint64_t)i, l->bits);
    sb_addf(&b, ", got ");
    compare_add_element(&b, got, (uint64_t)i, l->bits);
    verdict_set(r, VD_FAIL, sb_take(&b));
}

/* Room for `n` bytes in `b`. */
uint8_t *verdict_room(bytes *b, size_t n)
{
    if (b->cap < n + 1) {
        b->cap = n + 4096;
        free(b->p);
        b->p = xmalloc(b->cap);
    }
    return b->p;
}
