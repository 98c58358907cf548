/*
 * verdict_memory.c - step 3 of a verdict: writes outside dst.  The
 * request as staged, src (its payload generated again, or the kept one
 * scattered between canaries), the moat below dst in a small cell, and
 * the canaries before and after dst.  Depends on verdict_int.h.
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

/* Canaries of stream `seed` (offset 0 at `lo`) in [off, off + len) that
 * changed: MEMORY_VIOLATION at the first.  Returns nonzero if any. */
static int canaries_changed(stage *s, const arena *a, size_t lo, size_t off, size_t len,
                            uint64_t seed, result *r)
{
    int64_t k = stage_canary_diff(s, a, lo, off, len, seed);
    return k >= 0 && verdict_wrote_at(s, a, off + (size_t)k, r);
}

/* src as staged: the payload, or a strided src's buffer (stage_src_image). */
static int src_changed(stage *s, const arena *a, const rcase *c, result *r)
{
    if (!s->src_lo)
        return 0;
    size_t span = (size_t)s->src_l.span_bytes;
    if (s->src_l.strided) {
        uint8_t *e = verdict_room(&s->scratch2, span);
        stage_src_image(s, c, e);
        int64_t k = compare_first_byte(e, a->pview + s->src_data, span);
        return k >= 0 && verdict_wrote_at(s, a, s->src_data + (size_t)k, r);
    }
    int64_t k = verdict_payload_diff(c, a->pview + s->src_data, span);
    return k >= 0 && verdict_wrote_at(s, a, s->src_data + (size_t)k, r);
}

/* Offset of the first byte of arena [off, off + len) that is not the moat
 * byte, or -1. */
static uint8_t moat[4096];
static pthread_once_t moat_once = PTHREAD_ONCE_INIT;

static void moat_init(void)
{
    memset(moat, WIRE_MOAT_BYTE, sizeof moat);
}

static int64_t moat_diff(const arena *a, size_t off, size_t len)
{
    pthread_once(&moat_once, moat_init);   /* slots judge in parallel */
    for (size_t done = 0; done < len;) {
        size_t k = len - done < sizeof moat ? len - done : sizeof moat;
        if (memcmp(moat, a->pview + off + done, k))
            return (int64_t)done + compare_first_byte(moat, a->pview + off + done, k);
        done += k;
    }
    return -1;
}

typedef struct same_ctx {
    const uint8_t *a, *b;
    int differ;
} same_ctx;

static void compare_part(void *ctx, size_t off, size_t len)
{
    same_ctx *k = ctx;
    k->differ |= memcmp(k->a + off, k->b + off, len) != 0;
}

/* Nonzero when the request in the arena is no longer as staged. */
int verdict_request_changed(const stage *s, const arena *a)
{
    same_ctx k = {(const uint8_t *)&s->req, (const uint8_t *)arena_request(s->cl, a->pview), 0};
    wire_request_parts(&s->req, compare_part, &k);
    return k.differ;
}

/* Everything outside dst's span that the call must not touch. */
int verdict_outside_dst(stage *s, const arena *a, const rcase *c, result *r)
{
    const cell *cl = s->cl;
    if (verdict_request_changed(s, a)) {
        verdict_set(r, VD_MEMORY_VIOLATION,
            xstrdup("changed its arguments (params, dims, strides or shape values)"));
        return 1;
    }
    if (src_changed(s, a, c, r))
        return 1;
    size_t span = s->dst_bytes, end = cl->dst_off + cl->dst_size;
    int64_t k = moat_diff(a, s->moat_lo, s->canary_lo - s->moat_lo);
    if (k >= 0)
        return verdict_wrote_at(s, a, s->moat_lo + (size_t)k, r);
    s->moat_end = s->canary_lo;
    if (canaries_changed(s, a, s->dst_lo, s->canary_lo, s->dst_data - s->canary_lo,
                         s->dst_canary, r))
        return 1;
    return canaries_changed(s, a, s->dst_lo, s->dst_data + span, end - s->dst_data - span,
                            s->dst_canary, r);
}
