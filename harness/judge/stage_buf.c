/*
 * stage_buf.c - the buffers staging is made of (stage_int.h): room that
 * grows, where a tensor goes in its area, canary streams written and
 * checked again, complements, the dense payload.  Depends on fill.h and
 * wire.h.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "suite/suite.h"
#include "stage_int.h"

void stage_need(bytes *b, size_t n)
{
    if (n > b->cap) {
        b->cap = n < 4096 ? 4096 : n;
        free(b->p);
        b->p = xmalloc(b->cap);
    }
    b->len = n;
}

void stage_build_payload(stage *s, const rcase *c)
{
    stage_need(&s->payload, (size_t)c->payload_bytes);
    fill_payload(&c->data, c->volume, reshape_dtype_bits(c->dtype), s->payload.p);
    s->have_payload = 1;
}

size_t stage_place(size_t area, size_t size, uint64_t span, int misaligned)
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

void stage_canaries(arena *a, size_t lo, size_t off, size_t len, uint64_t seed)
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

void stage_complement(uint8_t *dst, const uint8_t *src, size_t n)
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

