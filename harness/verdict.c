/*
 * verdict.c - judging a finished job from the arena and the statuses
 * (stage.h).  Order: how the worker ended (timeout, flood, death), then the
 * capability query, then writes outside dst (arguments, src, canaries),
 * then the status against the case's outcomes, then dst's bytes.
 * Depends on compare.h, layout.h, stage.h.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "compare.h"
#include "fill.h"
#include "stage.h"
#include "util.h"

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

/* Where arena offset `off` lies, for a fault or a changed byte. */
static char *where(const stage *s, const arena *a, uint64_t off)
{
    size_t dst_end = a->dst_off + a->dst_size, src_end = a->src_off + a->src_size;
    size_t dspan = (size_t)s->dst_l.span_bytes, sspan = (size_t)s->src_l.span_bytes;
    if (off < a->out_off)
        return xstrdup("in the harness's request");
    if (off < a->out_off + a->page)
        return xstrdup("in out_rank/out_dims");
    if (off < a->src_off)
        return xasprintf("%llu bytes past the end of out_dims",
                         (unsigned long long)(off - (a->out_off + a->page) + 1));
    if (off < src_end) {
        if (s->j->v != V_THREADS && off >= s->src_data && off < s->src_data + sspan)
            return xasprintf("in src at byte %llu", (unsigned long long)(off - s->src_data));
        if (s->j->v != V_THREADS && off >= s->src_data + sspan)
            return xasprintf("%llu bytes past the end of src",
                             (unsigned long long)(off - (s->src_data + sspan) + 1));
        return xstrdup("in the src area");
    }
    if (off < a->dst_off)
        return xasprintf("%llu bytes past the end of src (guard page)",
                         (unsigned long long)(off - src_end + 1));
    if (off < dst_end) {
        if (s->j->v == V_THREADS)
            return xstrdup("in the dst area");
        if (off < s->dst_data)
            return xasprintf("%llu bytes before dst", (unsigned long long)(s->dst_data - off));
        if (off < s->dst_data + dspan)
            return xasprintf("in dst at byte %llu", (unsigned long long)(off - s->dst_data));
        return xasprintf("%llu bytes past the end of dst",
                         (unsigned long long)(off - (s->dst_data + dspan) + 1));
    }
    if (off < a->size)
        return xasprintf("%llu bytes past the end of dst (guard page)",
                         (unsigned long long)(off - (s->dst_data + dspan) + 1));
    return xstrdup("outside the arena");
}

/* A worker that died: a write fault outside dst is MEMORY_VIOLATION, any
 * other death is CRASH. */
static void judge_death(const stage *s, const arena *a, const completion *done,
                        const wire_response *rp, result *r)
{
    int st = done->wstatus;
    const char *in = phase_name(rp->phase);
    if (rp->fault_signal == SIGSEGV || rp->fault_signal == SIGBUS) {
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

/* Changed bytes in [lo, lo + len) of the arena against `saved`; reports
 * the first as MEMORY_VIOLATION.  Returns nonzero when something changed. */
static int check_unchanged(const stage *s, const arena *a, size_t lo, const uint8_t *saved,
                           size_t len, result *r)
{
    int64_t k = compare_first_byte(saved, a->pview + lo, len);
    if (k < 0)
        return 0;
    char *w = where(s, a, lo + (uint64_t)k);
    set(r, VD_MEMORY_VIOLATION, xasprintf("wrote %s", w));
    free(w);
    return 1;
}

/* Everything outside dst's span that the call must not touch. */
static int check_outside_dst(const stage *s, const arena *a, result *r)
{
    if (memcmp(&s->req, arena_request(a, a->pview), sizeof s->req)) {
        set(r, VD_MEMORY_VIOLATION,
            xstrdup("changed its arguments (params, dims, strides or shape values)"));
        return 1;
    }
    if (s->src_img.len && check_unchanged(s, a, s->src_lo, s->src_img.p, s->src_img.len, r))
        return 1;
    size_t before = s->dst_data - s->dst_lo, span = (size_t)s->dst_l.span_bytes;
    if (check_unchanged(s, a, s->dst_lo, s->dst_img.p, before, r))
        return 1;
    size_t after = s->dst_img.len - before - span;
    return check_unchanged(s, a, s->dst_data + span, s->dst_img.p + before + span, after, r);
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

/*
 * dst after a success: elements equal the payload, gap bits equal their
 * canary, and for dense to dense the padding bits of a sub-byte tensor's
 * last byte equal src's (with a strided src they are not checked).
 */
static void check_dst(stage *s, const arena *a, result *r)
{
    const tlayout *l = &s->dst_l;
    const uint8_t *got = a->pview + s->dst_data;
    size_t span = (size_t)l->span_bytes;
    uint8_t *want = s->dst_img.p + (s->dst_data - s->dst_lo);  /* the staged canaries */
    /* the expected image: canaries, then the payload in the elements */
    bytes *e = &s->scratch2;
    if (e->cap < span + 1) {
        e->cap = span + 4096;
        e->p = xrealloc(e->p, e->cap);
    }
    memcpy(e->p, want, span);
    if (!l->strided)
        memcpy(e->p, s->payload.p, span);
    else
        layout_scatter(l, s->payload.p, e->p);
    int pad_free = !l->strided && s->src_l.strided && (l->volume * l->bits) % 8 != 0;
    if (pad_free) {
        unsigned used = (unsigned)((l->volume * l->bits) % 8);
        uint8_t keep = l->bits == 1 ? (uint8_t)(0xFFu << (8 - used)) : (uint8_t)((1u << used) - 1);
        e->p[span - 1] = (uint8_t)((e->p[span - 1] & keep) | (got[span - 1] & ~keep));
    }
    if (memcmp(e->p, got, span) == 0)
        return;
    if (l->strided) {
        /* a changed gap bit is a write outside the elements */
        bytes *m = &s->scratch;
        if (m->cap < span + 1) {
            m->cap = span + 4096;
            m->p = xrealloc(m->p, m->cap);
        }
        layout_mask(l, m->p);
        for (size_t k = 0; k < span; k++)
            if ((e->p[k] ^ got[k]) & ~m->p[k]) {
                set(r, VD_MEMORY_VIOLATION, xasprintf("wrote into a gap of strided dst at byte %zu", k));
                return;
            }
    }
    /* the elements, gathered into row-major order */
    bytes *g = &s->scratch;
    size_t pay = (size_t)payload_size(l->volume, l->bits);
    if (g->cap < pay + 1) {
        g->cap = pay + 4096;
        g->p = xrealloc(g->p, g->cap);
    }
    if (!l->strided)
        memcpy(g->p, got, pay);
    else
        layout_gather(l, got, g->p);
    int64_t i = compare_first_element(s->payload.p, g->p, l->volume, l->bits);
    if (i >= 0) {
        element_detail(r, l, s->payload.p, g->p, i, "");
        return;
    }
    set(r, VD_FAIL, xasprintf("padding bits of the last byte of a dense sub-byte dst: expected "
                              "0x%02x, got 0x%02x", s->payload.p[pay - 1], got[pay - 1]));
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
        size_t before = s->dst_data - s->dst_lo;
        if (memcmp(s->dst_img.p + before, a->pview + s->dst_data, (size_t)s->dst_l.span_bytes)) {
            set(r, VD_FAIL, xstrdup("refused a dst one element short but wrote into it"));
            return;
        }
        if (strict && !r->status_agrees)
            set(r, VD_FAIL, xasprintf("returned %s for a dst one element short, expected "
                                      "INVALID_ARGUMENT", reshape_status_name((reshape_status)st)));
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
        size_t before = s->dst_data - s->dst_lo;
        int64_t k = compare_first_byte(s->dst_img.p + before, a->pview + s->dst_data,
                                       s->dst_l.span_bytes);
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
            out[n].got = xstrdup("shape ok in every iteration");
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
        const bytes *p = &s->tpayload[t];
        unsigned bits = reshape_dtype_bits(c->dtype);
        int wrong = 0, first = -1;
        int64_t first_elem = -1;
        for (int i = 0; i < s->iters; i++) {
            const uint8_t *got = a->pview + s->tdst_data[t] + (size_t)i * s->slot_bytes;
            int bad = rp->thread_status[t][i] != RESHAPE_OK || memcmp(got, p->p, p->len) != 0;
            if (bad && first < 0) {
                first = i;
                first_elem = compare_first_element(p->p, got, c->volume, bits);
            }
            wrong += bad;
        }
        if (!wrong)
            continue;
        const uint8_t *got = a->pview + s->tdst_data[t] + (size_t)first * s->slot_bytes;
        int32_t st = rp->thread_status[t][first];
        const char *what = wrong < s->iters ? "race: " : "";
        free(r->got);
        r->got = xasprintf("%d of %d iterations wrong", wrong, s->iters);
        if (st != RESHAPE_OK) {
            const char *name = reshape_status_name((reshape_status)st);
            set(r, VD_FAIL, xasprintf("%s%d of %d iterations wrong; iteration %d returned %s",
                                      what, wrong, s->iters, first, name ? name : "an unknown status"));
        } else if (first_elem >= 0) {
            tlayout l;
            layout_dense(&l, c->rank, c->dims, bits);
            char *prefix = xasprintf("%s%d of %d iterations wrong; iteration %d: ", what, wrong,
                                     s->iters, first);
            element_detail(r, &l, p->p, got, first_elem, prefix);
            free(prefix);
        } else {
            set(r, VD_FAIL, xasprintf("%s%d of %d iterations wrong; iteration %d changed the "
                                      "padding bits", what, wrong, s->iters, first));
        }
    }
    /* writes beyond each slot's payload land in canaries */
    for (int t = 0; t < j->ncases; t++) {
        const bytes *p = &s->tpayload[t];
        for (int i = 0; i < s->iters; i++) {
            size_t off = s->tdst_data[t] + (size_t)i * s->slot_bytes;
            size_t rel = off - s->dst_lo;
            if (memcmp(s->dst_img.p + rel + p->len, a->pview + off + p->len,
                       s->slot_bytes - p->len)) {
                for (int k = 0; k < n; k++)
                    if (out[k].case_index == j->cases[t] && out[k].vd == VD_PASS)
                        set(&out[k], VD_MEMORY_VIOLATION,
                            xasprintf("wrote past the end of dst (iteration %d)", i));
            }
        }
    }
    if (memcmp(s->src_img.p, a->pview + s->src_lo, s->src_img.len))
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
    int grows = 1;
    for (int k = 0; k + 1 < WIRE_MEM_SAMPLES; k++)
        grows &= rp->mem[k + 1] > rp->mem[k];
    if (grows) {
        double per = (double)(rp->mem[WIRE_MEM_SAMPLES - 1] - rp->mem[0]) / PLAN_REPEAT_CALLS;
        set(r, VD_LEAK, xasprintf("memory in use grew by %.0f bytes per call over %d calls "
                                  "(%lld to %lld bytes)", per, PLAN_REPEAT_CALLS,
                                  (long long)rp->mem[0], (long long)rp->mem[WIRE_MEM_SAMPLES - 1]));
    }
}

int judge_job(stage *s, const arena *a, const completion *done, int strict, int timeout_ms,
              result *out)
{
    const job *j = s->j;
    wire_response *rp = arena_response(a, a->pview);
    const rcase *c = &s->set->cases[j->cases[0]];
    result *r = &out[0];
    *r = (result){j->cases[0], j->v, VD_PASS, xstrdup(""), NULL, -1};

    if (done->kind != DONE_OK) {
        if (done->kind == DONE_TIMEOUT) {
            set(r, VD_TIMEOUT, xasprintf("no return within %d ms (in %s)", timeout_ms,
                                         phase_name(rp->phase)));
            r->got = xstrdup("timeout");
        } else if (done->kind == DONE_FLOOD) {
            set(r, VD_FLOOD, xasprintf("wrote more than %d bytes to stdout/stderr",
                                       ENGINE_FLOOD_BYTES));
            r->got = xstrdup("flood");
        } else {
            judge_death(s, a, done, rp, r);
        }
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
        if (memcmp(&s->req, arena_request(a, a->pview), sizeof s->req)) {
            set(r, VD_MEMORY_VIOLATION,
                xstrdup("changed its arguments (params, dims or shape values)"));
            r->got = xstrdup("memory violation");
            return 1;
        }
        const int64_t *dims = (const int64_t *)(a->pview + WIRE_OUT_DIMS_OFF(a));
        judge_status(s, a, c, rp, strict, r, rp->out_rank, dims, 0);
        return 1;
    }
    if (check_outside_dst(s, a, r)) {
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
