/*
 * verdict.c - judging a finished job from the arena and the statuses
 * (stage.h).  Order: how the worker ended (timeout, flood, death), then the
 * capability query, then writes outside dst (arguments, src, canaries),
 * then the status against the case's outcomes, then dst's bytes.
 * Depends on compare.h, layout.h, stage.h.
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
#include "stage.h"

static const char *phase_name(int phase)
{
    switch (phase) {
    case PHASE_SUPPORTS: return "supports";
    case PHASE_INFER: return "infer_shape";
    case PHASE_EXECUTE: return "execute";
    case PHASE_LAST_ERROR: return "last_error";
    default: return "the worker";
    }
}

static int known_status(int32_t st)
{
    return reshape_status_name((reshape_status)st) != NULL;
}

static void set(result *r, verdict vd, char *detail)
{
    r->vd = vd;
    free(r->detail);
    r->detail = detail;
}

/* Processes the candidate left running (reaper.h), killed by the engine:
 * LEAK for a request that otherwise passed (`answered`), else a note in
 * the detail. */
static void note_strays(result *r, int strays, int answered, int batch)
{
    if (strays <= 0)
        return;
    const char *pl = strays == 1 ? "" : "es";
    if (answered && !verdict_counts_against(r->vd) && batch > 1) {
        set(r, VD_LEAK, xasprintf("left %d process%s running, found after a batch of %d "
                                  "requests that ended with this one; from then on each request "
                                  "was checked (killed by the harness)", strays, pl, batch));
        free(r->got);
        r->got = xstrdup("processes left running");
    } else if (answered && !verdict_counts_against(r->vd)) {
        set(r, VD_LEAK, xasprintf("left %d process%s running after the call (killed by the "
                                  "harness)", strays, pl));
        free(r->got);
        r->got = xstrdup("processes left running");
    } else {
        set(r, r->vd, xasprintf("%s; left %d process%s running (killed by the harness)",
                                r->detail, strays, pl));
    }
}

/* Where arena offset `off` lies, for a fault or a changed byte. */
static char *where(const stage *s, const arena *a, uint64_t off)
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

/* A worker that died: a write fault outside dst is MEMORY_VIOLATION, any
 * other death is CRASH. */
static void judge_death(const stage *s, const arena *a, const completion *done,
                        const wire_response *rp, result *r)
{
    int st = done->wstatus;
    const char *in = phase_name(rp->phase);
    if (rp->fault_signal == SIGSYS) {
        char name[64];
        set(r, VD_CRASH, xasprintf("the sandbox stopped system call %s (%llu) in %s: signal %d "
                                   "(%s)", sandbox_syscall_name((long)rp->fault_addr, name,
                                                                sizeof name),
                                   (unsigned long long)rp->fault_addr, in, SIGSYS,
                                   strsignal(SIGSYS)));
    } else if (rp->fault_signal == SIGSEGV || rp->fault_signal == SIGBUS) {
        const char *sig = rp->fault_signal == SIGSEGV ? "SIGSEGV" : "SIGBUS";
        if (rp->fault_in_arena) {
            char *w = where(s, a, rp->fault_addr);
            if (rp->fault_write != 0) {
                set(r, VD_MEMORY_VIOLATION, xasprintf("wrote %s (%s in %s)", w, sig, in));
            } else {
                set(r, VD_CRASH, xasprintf("read %s (%s in %s)", w, sig, in));
            }
            free(w);
        } else {
            set(r, VD_CRASH, xasprintf("%s at address 0x%llx in %s", sig,
                                       (unsigned long long)rp->fault_addr, in));
        }
    } else if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        set(r, VD_CRASH, xasprintf("signal %d (%s) in %s", sig, strsignal(sig), in));
    } else if (WEXITSTATUS(st) == WORKER_EXIT_LOST_CHANNEL) {
        set(r, VD_CRASH, xasprintf("the worker lost its channel to the harness (the candidate "
                                   "closed fd 3 or 4; seen when it answered): exit status %d",
                                   WEXITSTATUS(st)));
    } else {
        set(r, VD_CRASH, xasprintf("the worker exited with status %d in %s", WEXITSTATUS(st), in));
    }
    if (done->output_head[0]) {
        /* the first line of what it printed, often the reason */
        char line[160];
        size_t n = strcspn(done->output_head, "\n");
        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, done->output_head, n);
        line[n] = '\0';
        sanitize_text(line);
        char *d = xasprintf("%s; it printed \"%s\"", r->detail, line);
        set(r, r->vd, d);
    }
    free(r->got);
    r->got = xstrdup(r->vd == VD_CRASH ? "crash" : "memory violation");
}

/* A write found at arena offset `off`: MEMORY_VIOLATION.  Returns 1. */
static int wrote_at(const stage *s, const arena *a, size_t off, result *r)
{
    char *w = where(s, a, off);
    set(r, VD_MEMORY_VIOLATION, xasprintf("wrote %s", w));
    free(w);
    return 1;
}

/* Canaries of stream `seed` (offset 0 at `lo`) in [off, off + len) that
 * changed: MEMORY_VIOLATION at the first.  Returns nonzero if any. */
static int canaries_changed(stage *s, const arena *a, size_t lo, size_t off, size_t len,
                            uint64_t seed, result *r)
{
    int64_t k = stage_canary_diff(s, a, lo, off, len, seed);
    return k >= 0 && wrote_at(s, a, off + (size_t)k, r);
}

/* Offset of the first byte of the `len` bytes at `got` that differs from
 * case `c`'s payload, generated again a piece at a time, or -1. */
static int64_t payload_diff(const rcase *c, const uint8_t *got, size_t len)
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

/* src as staged: the payload, dense or scattered between canaries. */
static int src_changed(stage *s, const arena *a, const rcase *c, result *r)
{
    if (!s->src_lo)
        return 0;
    size_t span = (size_t)s->src_l.span_bytes;
    if (s->src_l.strided) {
        bytes *e = &s->scratch2;
        if (e->cap < span + 1) {
            e->cap = span + 4096;
            free(e->p);
            e->p = xmalloc(e->cap);
        }
        fill_random_at(e->p, span, s->src_canary, 0);
        layout_scatter(&s->src_l, s->payload.p, e->p);
        int64_t k = compare_first_byte(e->p, a->pview + s->src_data, span);
        return k >= 0 && wrote_at(s, a, s->src_data + (size_t)k, r);
    }
    int64_t k = payload_diff(c, a->pview + s->src_data, span);
    return k >= 0 && wrote_at(s, a, s->src_data + (size_t)k, r);
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
static int request_changed(const stage *s, const arena *a)
{
    same_ctx k = {(const uint8_t *)&s->req, (const uint8_t *)arena_request(s->cl, a->pview), 0};
    wire_request_parts(&s->req, compare_part, &k);
    return k.differ;
}

/* Everything outside dst's span that the call must not touch. */
static int check_outside_dst(stage *s, const arena *a, const rcase *c, result *r)
{
    const cell *cl = s->cl;
    if (request_changed(s, a)) {
        set(r, VD_MEMORY_VIOLATION,
            xstrdup("changed its arguments (params, dims, strides or shape values)"));
        return 1;
    }
    if (src_changed(s, a, c, r))
        return 1;
    size_t span = (size_t)s->dst_l.span_bytes, end = cl->dst_off + cl->dst_size;
    int64_t k = moat_diff(a, s->moat_lo, s->canary_lo - s->moat_lo);
    if (k >= 0)
        return wrote_at(s, a, s->moat_lo + (size_t)k, r);
    s->moat_end = s->canary_lo;
    if (canaries_changed(s, a, s->dst_lo, s->canary_lo, s->dst_data - s->canary_lo,
                         s->dst_canary, r))
        return 1;
    return canaries_changed(s, a, s->dst_lo, s->dst_data + span, end - s->dst_data - span,
                            s->dst_canary, r);
}

static void element_detail(result *r, const tlayout *l, const uint8_t *expected,
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
    set(r, VD_FAIL, sb_take(&b));
}

/* Room for `n` bytes in `b`. */
static uint8_t *room(bytes *b, size_t n)
{
    if (b->cap < n + 1) {
        b->cap = n + 4096;
        free(b->p);
        b->p = xmalloc(b->cap);
    }
    return b->p;
}

/*
 * dst after a success: elements equal the payload, gap bits equal their
 * canary, and for dense to dense the padding bits of a sub-byte tensor's
 * last byte equal src's (with a strided src they are not checked).  The
 * payload is src itself when src is dense (checked unchanged before), the
 * kept payload of a strided src, or generated again for in_place.
 */
static void check_dst(stage *s, const arena *a, result *r)
{
    const rcase *c = &s->set->cases[s->j->cases[0]];
    const tlayout *l = &s->dst_l;
    const uint8_t *got = a->pview + s->dst_data;
    size_t span = (size_t)l->span_bytes, pay = (size_t)payload_size(l->volume, l->bits);
    const uint8_t *payload = NULL;
    if (s->src_l.strided)
        payload = s->payload.p;
    else if (s->src_lo)
        payload = a->pview + s->src_data;
    if (!l->strided) {
        int pad_free = s->src_l.strided && (l->volume * l->bits) % 8 != 0;
        int same;
        if (!payload)
            same = payload_diff(c, got, span) < 0;
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
        uint8_t *e = room(&s->scratch2, span);
        fill_random_at(e, span, s->dst_canary, s->dst_data - s->dst_lo);
        layout_scatter(l, payload, e);
        if (memcmp(e, got, span) == 0)
            return;
        /* a changed gap bit is a write outside the elements */
        uint8_t *m = room(&s->scratch, span);
        layout_mask(l, m);
        for (size_t k = 0; k < span; k++)
            if ((e[k] ^ got[k]) & ~m[k]) {
                set(r, VD_MEMORY_VIOLATION, xasprintf("wrote into a gap of strided dst at byte %zu", k));
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
        uint8_t *gb = room(&s->scratch, pay);
        layout_gather(l, got, gb);
        g = gb;
    }
    int64_t i = compare_first_element(payload, g, l->volume, l->bits);
    if (i >= 0) {
        element_detail(r, l, payload, g, i, "");
        return;
    }
    set(r, VD_FAIL, xasprintf("padding bits of the last byte of a dense sub-byte dst: expected "
                              "0x%02x, got 0x%02x", payload[pay - 1], got[pay - 1]));
}

/* Offset in dst's span of the first byte that is no longer as staged
 * (canaries, the complement of the payload, or in place the payload), or
 * -1: what a failing call must leave. */
static int64_t dst_changed_from_staged(stage *s, const arena *a)
{
    const rcase *c = &s->set->cases[s->j->cases[0]];
    const tlayout *l = &s->dst_l;
    size_t span = (size_t)l->span_bytes;
    const uint8_t *got = a->pview + s->dst_data;
    if (!s->expect_success)
        return stage_canary_diff(s, a, s->dst_lo, s->dst_data, span, s->dst_canary);
    if (!s->src_lo)
        return payload_diff(c, got, span);
    const uint8_t *payload = s->src_l.strided ? s->payload.p : a->pview + s->src_data;
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
    uint8_t *e = room(&s->scratch2, span);
    fill_random_at(e, span, s->dst_canary, s->dst_data - s->dst_lo);
    layout_scatter(l, payload, e);
    layout_complement(l, e);
    return compare_first_byte(e, got, span);
}

static int outcome_matches_dims(const outcome *o, int32_t rank, const int64_t *dims)
{
    if (o->is_error || o->rank != rank)
        return 0;
    for (int32_t i = 0; i < rank; i++)
        if (o->dims[i] != dims[i])
            return 0;
    return 1;
}

static char *got_status(wire_response *rp)
{
    rp->last_error[sizeof rp->last_error - 1] = '\0';
    sanitize_text(rp->last_error);
    const char *name = reshape_status_name((reshape_status)rp->status);
    if (!name)
        return xasprintf("status %d", rp->status);
    if (rp->last_error[0])
        return xasprintf("error %s (%s)", name, rp->last_error);
    return xasprintf("error %s", name);
}

/* The status against the case's outcomes; on success the shape is `rank`/`dims`. */
static void judge_status(stage *s, const arena *a, const rcase *c, wire_response *rp,
                         int strict, result *r, int32_t rank, const int64_t *dims, int is_execute)
{
    int32_t st = rp->status;
    variant v = s->j->v;
    strbuf b;
    if (!known_status(st)) {
        set(r, VD_FAIL, xasprintf("returned %d, which is no reshape_status", st));
        r->got = xasprintf("status %d", st);
        return;
    }
    if (st == RESHAPE_OK && (rank < 0 || rank > RESHAPE_MAX_RANK)) {
        /* checked before the dims are read: out_dims has room for 32 */
        set(r, VD_FAIL, xasprintf("out_rank %d is outside 0..%d", rank, RESHAPE_MAX_RANK));
        r->got = xasprintf("out_rank %d", rank);
        return;
    }
    if (st == RESHAPE_OK) {
        sb_init(&b);
        sb_addf(&b, "shape ");
        sb_add_dims(&b, rank, dims);
        r->got = sb_take(&b);
    } else {
        r->got = got_status(rp);
    }
    if (v == V_DST_TOO_SMALL) {
        if (st == RESHAPE_OK) {
            set(r, VD_FAIL, xstrdup("accepted a dst one element short"));
            return;
        }
        /* INVALID_ARGUMENT, or an error the case itself may give */
        r->status_agrees = st == RESHAPE_E_INVALID_ARGUMENT;
        for (int i = 0; i < c->noutcomes; i++)
            r->status_agrees |= c->outcomes[i].is_error && (int32_t)c->outcomes[i].error == st;
        if (dst_changed_from_staged(s, a) >= 0) {
            set(r, VD_FAIL, xstrdup("refused a dst one element short but wrote into it"));
            return;
        }
        if (strict && !r->status_agrees) {
            char *want = job_expected_describe(c, v);
            set(r, VD_FAIL, xasprintf("returned %s for a dst one element short, expected %s "
                                      "(--strict-errors)", reshape_status_name((reshape_status)st),
                                      want));
            free(want);
        }
        return;
    }
    if (st == RESHAPE_OK) {
        if (case_expects_error_only(c)) {
            char *want = case_expected_describe(c);
            set(r, VD_ACCEPTED_INVALID, xasprintf("returned OK, expected %s", want));
            free(want);
            return;
        }
        int match = 0;
        for (int i = 0; i < c->noutcomes; i++)
            match |= outcome_matches_dims(&c->outcomes[i], rank, dims);
        if (!match) {
            char *want = case_expected_describe(c);
            set(r, VD_FAIL, xasprintf("wrong shape %s, expected %s", r->got + 6, want));
            free(want);
            return;
        }
        if (is_execute)
            check_dst(s, a, r);
        return;
    }
    /* an error status */
    int any_error = 0, agrees = 0;
    for (int i = 0; i < c->noutcomes; i++)
        if (c->outcomes[i].is_error) {
            any_error = 1;
            agrees |= (int32_t)c->outcomes[i].error == st;
        }
    if (!any_error) {
        char *want = case_expected_describe(c);
        set(r, VD_FAIL, xasprintf("returned %s, expected %s", r->got, want));
        free(want);
        return;
    }
    r->status_agrees = agrees;
    if (is_execute) {
        int64_t k = dst_changed_from_staged(s, a);
        if (k >= 0) {
            set(r, VD_FAIL, xasprintf("a failing call changed dst at byte %lld", (long long)k));
            return;
        }
    }
    if (strict && !agrees) {
        char *want = case_expected_describe(c);
        set(r, VD_FAIL, xasprintf("returned %s, expected %s (--strict-errors)",
                                  reshape_status_name((reshape_status)st), want));
        free(want);
    }
}

/* src of a threads job as staged: each thread's random payload, canaries
 * after it.  Returns the first changed offset, or -1. */
static int64_t threads_src_diff(stage *s, const arena *a)
{
    const job *j = s->j;
    uint8_t *want = room(&s->scratch, s->slot_bytes);
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

static int judge_threads(stage *s, const arena *a, const wire_response *rp, int strict,
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
            set(r, VD_NOT_SUPPORTED, xstrdup("supports() said NOT_SUPPORTED"));
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
            set(r, VD_NOT_SUPPORTED, xstrdup("execute returned NOT_SUPPORTED"));
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
            set(r, VD_FAIL, xasprintf("%s returned %s", prefix, name ? name : "an unknown status"));
        } else if (first_elem >= 0) {
            tlayout l;
            layout_dense(&l, c->rank, c->dims, bits);
            char *p = xasprintf("%s: ", prefix);
            element_detail(r, &l, payload, got, first_elem, p);
            free(p);
        } else {
            set(r, VD_FAIL, xasprintf("%s changed the padding bits", prefix));
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
                    set(&out[k], VD_MEMORY_VIOLATION,
                        written ? xasprintf("wrote past the end of dst (call %d)", i)
                                 : xasprintf("wrote into a dst slot no call was given (%d)", i));
            break;
        }
    }
    if (threads_src_diff(s, a) >= 0)
        for (int k = 0; k < n; k++)
            if (out[k].vd == VD_PASS)
                set(&out[k], VD_MEMORY_VIOLATION, xstrdup("wrote into src"));
    return n;
}

static void judge_repeat(stage *s, const arena *a, const wire_response *rp, result *r)
{
    const rcase *c = &s->set->cases[s->j->cases[0]];
    if (rp->repeat_bad_call >= 0) {
        const char *name = reshape_status_name((reshape_status)rp->repeat_bad_status);
        set(r, VD_FAIL, xasprintf("call %d of %d returned %s", rp->repeat_bad_call,
                                  PLAN_REPEAT_WARMUP + PLAN_REPEAT_CALLS, name ? name : "an unknown status"));
        r->got = xstrdup(name ? name : "unknown status");
        return;
    }
    int ok = case_first_success(c);
    strbuf b;
    sb_init(&b);
    sb_addf(&b, "shape ");
    sb_add_dims(&b, c->outcomes[ok].rank, c->outcomes[ok].dims);
    r->got = sb_take(&b);
    check_dst(s, a, r);
    if (r->vd != VD_PASS)
        return;
    /* a slope test, not a threshold: growth in nearly every interval */
    _Static_assert(PLAN_REPEAT_CALLS / PLAN_REPEAT_EVERY + 1 == WIRE_MEM_SAMPLES,
                   "one memory sample every PLAN_REPEAT_EVERY calls and one at the end");
    int growing = 0;
    for (int k = 0; k + 1 < WIRE_MEM_SAMPLES; k++)
        growing += rp->mem[k + 1] > rp->mem[k];
    if (growing >= PLAN_REPEAT_MIN_GROWING) {
        double per = (double)(rp->mem[WIRE_MEM_SAMPLES - 1] - rp->mem[0]) / PLAN_REPEAT_CALLS;
        set(r, VD_LEAK, xasprintf("memory in use grew by %.0f bytes per call over %d calls "
                                  "after %d warm-up calls, in %d of %d intervals of %d calls "
                                  "(%lld to %lld bytes)", per, PLAN_REPEAT_CALLS,
                                  PLAN_REPEAT_WARMUP, growing, WIRE_MEM_SAMPLES - 1,
                                  PLAN_REPEAT_EVERY, (long long)rp->mem[0],
                                  (long long)rp->mem[WIRE_MEM_SAMPLES - 1]));
    }
}

int judge_job(stage *s, const arena *a, const completion *done, int strict, int timeout_ms,
              result *out)
{
    const job *j = s->j;
    if (done->kind == DONE_OK && done->strays > 0) {
        completion plain = *done;
        plain.strays = 0;
        int n = judge_job(s, a, &plain, strict, timeout_ms, out);
        for (int k = 0; k < n; k++)
            note_strays(&out[k], done->strays, 1, done->n);
        return n;
    }
    wire_response *rp = arena_response(s->cl, a->pview);
    const rcase *c = &s->set->cases[j->cases[0]];
    result *r = &out[0];
    *r = (result){j->cases[0], j->v, VD_PASS, xstrdup(""), NULL, -1};

    if (done->kind != DONE_OK) {
        if (done->kind == DONE_TIMEOUT) {
            long long ms = done->budget_ms > 0 ? (long long)done->budget_ms : timeout_ms;
            set(r, VD_TIMEOUT, xasprintf("no return within %lld ms (in %s)%s", ms,
                                         phase_name(rp->phase),
                                         ms < timeout_ms ? " (adaptive budget: this hang's "
                                                           "signature timed out before)"
                                                         : ""));
            r->got = xstrdup("timeout");
        } else if (done->kind == DONE_FLOOD) {
            set(r, VD_FLOOD, xasprintf("wrote more than %d bytes to stdout/stderr",
                                       ENGINE_FLOOD_BYTES));
            r->got = xstrdup("flood");
        } else {
            judge_death(s, a, done, rp, r);
        }
        note_strays(r, done->strays, 0, 1);
        if (j->v != V_THREADS)
            return 1;
        /* every case of a threads job shares the fate */
        int n = 0;
        for (int t = 0; t < j->ncases; t++) {
            int k;
            for (k = 0; k < n; k++)
                if (out[k].case_index == j->cases[t])
                    break;
            if (k < n)
                continue;
            if (n > 0)
                out[n] = (result){j->cases[t], V_THREADS, r->vd, xstrdup(r->detail),
                                  xstrdup(r->got), -1};
            n++;
        }
        return n;
    }
    if (j->v == V_THREADS) {
        free(r->detail);
        return judge_threads(s, a, rp, strict, out);
    }
    int32_t sup = rp->supports_status[0];
    if (sup == RESHAPE_E_NOT_SUPPORTED || rp->status == RESHAPE_E_NOT_SUPPORTED) {
        set(r, VD_NOT_SUPPORTED, xstrdup(sup == RESHAPE_E_NOT_SUPPORTED
                                             ? "supports() said NOT_SUPPORTED"
                                             : j->v == V_INFER ? "infer_shape returned NOT_SUPPORTED"
                                                               : "execute returned NOT_SUPPORTED"));
        r->got = xstrdup("error NOT_SUPPORTED");
        return 1;
    }
    if (sup != RESHAPE_OK) {
        const char *name = reshape_status_name((reshape_status)sup);
        set(r, VD_FAIL, name ? xasprintf("supports() returned %s, expected OK or NOT_SUPPORTED", name)
                             : xasprintf("supports() returned %d, expected OK or NOT_SUPPORTED", sup));
        r->got = xstrdup("supports failed");
        return 1;
    }
    if (j->v == V_INFER) {
        if (request_changed(s, a)) {
            set(r, VD_MEMORY_VIOLATION,
                xstrdup("changed its arguments (params, dims or shape values)"));
            r->got = xstrdup("memory violation");
            return 1;
        }
        const int64_t *dims = (const int64_t *)(a->pview + WIRE_OUT_DIMS_OFF(a, s->cl));
        judge_status(s, a, c, rp, strict, r, rp->out_rank, dims, 0);
        return 1;
    }
    if (check_outside_dst(s, a, c, r)) {
        r->got = xstrdup("memory violation");
        return 1;
    }
    if (j->v == V_REPEAT) {
        judge_repeat(s, a, rp, r);
        return 1;
    }
    judge_status(s, a, c, rp, strict, r, s->dst_l.rank, s->dst_l.dims, 1);
    return 1;
}
