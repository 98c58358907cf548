/*
 * verdict_status.c - step 4 of a verdict: the status a call returned
 * against the case's outcomes (an unknown value, OK where only errors are
 * accepted, other dims, an error where a shape is expected, which error
 * names agree; dst_too_small's own rule), then dst.  Depends on verdict_int.h.
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

static int known_status(int32_t st)
{
    return reshape_status_name((reshape_status)st) != NULL;
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
void verdict_status(stage *s, const arena *a, const rcase *c, wire_response *rp,
                    int strict, result *r, int32_t rank, const int64_t *dims, int is_execute)
{
    int32_t st = rp->status;
    variant v = s->j->v;
    strbuf b;
    if (!known_status(st)) {
        verdict_set(r, VD_FAIL, xasprintf("returned %d, which is no reshape_status", st));
        r->got = xasprintf("status %d", st);
        return;
    }
    if (st == RESHAPE_OK && (rank < 0 || rank > RESHAPE_MAX_RANK)) {
        /* checked before the dims are read: out_dims has room for 32 */
        verdict_set(r, VD_FAIL, xasprintf("out_rank %d is outside 0..%d", rank, RESHAPE_MAX_RANK));
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
            verdict_set(r, VD_FAIL, xstrdup("accepted a dst one element short"));
            return;
        }
        /* INVALID_ARGUMENT, or an error the case itself may give */
        r->status_agrees = st == RESHAPE_E_INVALID_ARGUMENT;
        for (int i = 0; i < c->noutcomes; i++)
            r->status_agrees |= c->outcomes[i].is_error && (int32_t)c->outcomes[i].error == st;
        if (verdict_dst_changed(s, a) >= 0) {
            verdict_set(r, VD_FAIL, xstrdup("refused a dst one element short but wrote into it"));
            return;
        }
        if (strict && !r->status_agrees) {
            char *want = job_expected_describe(c, v);
            verdict_set(r, VD_FAIL, xasprintf("returned %s for a dst one element short, expected %s "
                                      "(--strict-errors)", reshape_status_name((reshape_status)st),
                                      want));
            free(want);
        }
        return;
    }
    if (st == RESHAPE_OK) {
        if (case_expects_error_only(c)) {
            char *want = case_expected_describe(c);
            verdict_set(r, VD_ACCEPTED_INVALID, xasprintf("returned OK, expected %s", want));
            free(want);
            return;
        }
        int match = 0;
        for (int i = 0; i < c->noutcomes; i++)
            match |= outcome_matches_dims(&c->outcomes[i], rank, dims);
        if (!match) {
            char *want = case_expected_describe(c);
            verdict_set(r, VD_FAIL, xasprintf("wrong shape %s, expected %s", r->got + 6, want));
            free(want);
            return;
        }
        if (is_execute)
            verdict_check_dst(s, a, r);
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
        verdict_set(r, VD_FAIL, xasprintf("returned %s, expected %s", r->got, want));
        free(want);
        return;
    }
    r->status_agrees = agrees;
    if (is_execute) {
        int64_t k = verdict_dst_changed(s, a);
        if (k >= 0) {
            verdict_set(r, VD_FAIL, xasprintf("a failing call changed dst at byte %lld", (long long)k));
            return;
        }
    }
    if (strict && !agrees) {
        char *want = case_expected_describe(c);
        verdict_set(r, VD_FAIL, xasprintf("returned %s, expected %s (--strict-errors)",
                                  reshape_status_name((reshape_status)st), want));
        free(want);
    }
}
