/*
 * verdict_threads.c - the threads variant's verdict: each thread's kept
 * calls and its call alone against its own random payload ("race: ..."
 * when only calls that overlapped another thread's were wrong), writes
 * past each dst slot, unused slots, src.  Depends on verdict_int.h.
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

/* src of a threads job as staged: each thread's random payload, canaries
 * after it.  Returns the first changed offset, or -1. */
static int64_t threads_src_diff(stage *s, const arena *a)
{
    const job *j = s->j;
    uint8_t *want = verdict_room(&s->scratch, s->slot_bytes);
    for (int t = 0; t < j->ncases; t++) {
        size_t off = s->tsrc_data[t], len = s->tlen[t];
        fill_random(want, len, stage_canary_seed(s, s->seq, 16 + (uint64_t)t));
        int64_t k = compare_first_byte(want, a->pview + off, len);
        if (k >= 0)
            return (int64_t)off + k;
        k = stage_canary_diff(s, a, s->src_lo, off + len, s->slot_bytes - len, s->src_canary);
        if (k >= 0)
            return (int64_t)(off + len) + k;
    }
    size_t used = (size_t)j->ncases * s->slot_bytes;
    int64_t k = stage_canary_diff(s, a, s->src_lo, s->src_lo + used,
                                  WIRE_THREADS * s->slot_bytes - used, s->src_canary);
    return k < 0 ? -1 : (int64_t)(s->src_lo + used) + k;
}

/*
 * Dst slot `i` of thread `t` that no kept call wrote: still the complement
 * of the payload and its canaries.  Returns nonzero if it changed.
 */
static int unused_slot_changed(stage *s, const arena *a, int t, int i)
{
    size_t off = s->tdst_data[t] + (size_t)i * s->slot_bytes, len = s->tlen[t];
    const uint8_t *src = a->pview + s->tsrc_data[t], *got = a->pview + off;
    for (size_t k = 0; k < len; k++)
        if ((uint8_t)(got[k] ^ src[k]) != 0xFF)
            return 1;
    return stage_canary_diff(s, a, s->dst_lo, off + len, s->slot_bytes - len, s->dst_canary) >= 0;
}

/* Slots of thread `t` that hold a threaded call, [0, n). */
static int kept_slots(const stage *s, const wire_response *rp, int t)
{
    int used = rp->thread_slots[t];
    return used < 0 ? 0 : used > s->iters - 1 ? s->iters - 1 : used;
}

/* Nonzero when thread `t`'s kept calls [0, used) and its call alone
 * (slot `solo`) all returned NOT_SUPPORTED.  Some calls NOT_SUPPORTED and
 * others OK is no skip: the answer must not depend on concurrency. */
static int all_not_supported(const wire_response *rp, int t, int used, int solo)
{
    if (rp->thread_status[t][solo] != RESHAPE_E_NOT_SUPPORTED)
        return 0;
    for (int i = 0; i < used; i++)
        if (rp->thread_status[t][i] != RESHAPE_E_NOT_SUPPORTED)
            return 0;
    return 1;
}

int verdict_threads(stage *s, const arena *a, const wire_response *rp, int strict,
                    result *out)
{
    const job *j = s->j;
    int n = 0;
    (void)strict;
    for (int t = 0; t < j->ncases; t++) {
        int k;
        for (k = 0; k < n; k++)
            if (out[k].case_index == j->cases[t])
                break;
        if (k == n) {
            out[n] = (result){j->cases[t], V_THREADS, VD_PASS, xstrdup(""), NULL, -1};
            out[n].got = xstrdup("shape ok in every kept call");
            n++;
        }
        result *r = &out[k];
        if (r->vd != VD_PASS)
            continue;
        const rcase *c = &s->set->cases[j->cases[t]];
        if (rp->supports_status[t] == RESHAPE_E_NOT_SUPPORTED) {
            verdict_set(r, VD_NOT_SUPPORTED, xstrdup("supports() said NOT_SUPPORTED"));
            continue;
        }
        const uint8_t *payload = a->pview + s->tsrc_data[t];
        size_t len = s->tlen[t];
        unsigned bits = reshape_dtype_bits(c->dtype);
        int solo = s->iters - 1, used = kept_slots(s, rp, t), wrong = 0, first = -1;
        const uint8_t *solo_got = a->pview + s->tdst_data[t] + (size_t)solo * s->slot_bytes;
        int solo_bad = rp->thread_status[t][solo] != RESHAPE_OK || memcmp(solo_got, payload, len);
        for (int i = 0; i < used; i++) {
            const uint8_t *got = a->pview + s->tdst_data[t] + (size_t)i * s->slot_bytes;
            int bad = rp->thread_status[t][i] != RESHAPE_OK || memcmp(got, payload, len) != 0;
            if (bad && first < 0)
                first = i;
            wrong += bad;
        }
        if (!wrong && !solo_bad)
            continue;
        if (all_not_supported(rp, t, used, solo)) {
            /* a skip, as a single call's NOT_SUPPORTED is in every other variant */
            verdict_set(r, VD_NOT_SUPPORTED, xstrdup("execute returned NOT_SUPPORTED"));
            free(r->got);
            r->got = xstrdup("error NOT_SUPPORTED");
            continue;
        }
        if (!wrong)
            first = solo;
        const uint8_t *got = a->pview + s->tdst_data[t] + (size_t)first * s->slot_bytes;
        int64_t first_elem = compare_first_element(payload, got, c->volume, bits);
        int32_t st = rp->thread_status[t][first];
        free(r->got);
        r->got = xasprintf("%d of %d calls wrong", wrong + solo_bad, used + 1);
        char *prefix;
        if (!solo_bad)
            prefix = xasprintf("race: %d of %d calls wrong (%d overlapped another thread's), the "
                               "call alone right; call %d", wrong, used, rp->thread_overlaps[t],
                               first);
        else
            prefix = xasprintf("%d of %d calls wrong, the call alone too; call %d",
                               wrong + 1, used + 1, first);
        if (st != RESHAPE_OK) {
            const char *name = reshape_status_name((reshape_status)st);
            verdict_set(r, VD_FAIL, xasprintf("%s returned %s", prefix, name ? name : "an unknown status"));
        } else if (first_elem >= 0) {
            tlayout l;
            layout_dense(&l, c->rank, c->dims, bits);
            char *p = xasprintf("%s: ", prefix);
            verdict_element_detail(r, &l, payload, got, first_elem, p);
            free(p);
        } else {
            verdict_set(r, VD_FAIL, xasprintf("%s changed the padding bits", prefix));
        }
        free(prefix);
    }
    /* writes beyond each slot's payload land in canaries; unused slots stay as staged */
    for (int t = 0; t < j->ncases; t++) {
        int used = kept_slots(s, rp, t);
        for (int i = 0; i < s->iters; i++) {
            size_t off = s->tdst_data[t] + (size_t)i * s->slot_bytes, len = s->tlen[t];
            int written = i < used || i == s->iters - 1;
            int bad = written ? stage_canary_diff(s, a, s->dst_lo, off + len, s->slot_bytes - len,
                                                   s->dst_canary) >= 0
                               : unused_slot_changed(s, a, t, i);
            if (!bad)
                continue;
            for (int k = 0; k < n; k++)
                if (out[k].case_index == j->cases[t] && out[k].vd == VD_PASS)
                    verdict_set(&out[k], VD_MEMORY_VIOLATION,
                        written ? xasprintf("wrote past the end of dst (call %d)", i)
                                 : xasprintf("wrote into a dst slot no call was given (%d)", i));
            break;
        }
    }
    if (threads_src_diff(s, a) >= 0)
        for (int k = 0; k < n; k++)
            if (out[k].vd == VD_PASS)
                verdict_set(&out[k], VD_MEMORY_VIOLATION, xstrdup("wrote into src"));
    return n;
}
