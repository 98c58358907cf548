/*
 * verdict.c - judging a finished job from the arena and the statuses
 * (judge_job, stage.h).  Order: how the worker ended (timeout, flood,
 * death, processes left running: here), then the capability query
 * (here), then writes outside dst (verdict_memory.c), then the status
 * against the case's outcomes (verdict_status.c), then dst's bytes
 * (verdict_dst.c); the threads variant has its own (verdict_threads.c),
 * the repeat variant adds the memory samples (here); last, what ran after
 * the call returned (verdict_late.c).  Depends on
 * verdict_int.h.
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

/* Processes the candidate left running (reaper.h), killed by the engine:
 * LEAK for a request that otherwise passed (`answered`), else a note in
 * the detail. */
static void note_strays(result *r, int strays, int answered, int batch)
{
    if (strays <= 0)
        return;
    const char *pl = strays == 1 ? "" : "es";
    if (answered && !verdict_counts_against(r->vd) && batch > 1) {
        verdict_set(r, VD_LEAK, xasprintf("left %d process%s running, found after a batch of %d "
                                  "requests that ended with this one; from then on each request "
                                  "was checked (killed by the harness)", strays, pl, batch));
        free(r->got);
        r->got = xstrdup("processes left running");
    } else if (answered && !verdict_counts_against(r->vd)) {
        verdict_set(r, VD_LEAK, xasprintf("left %d process%s running after the call (killed by the "
                                  "harness)", strays, pl));
        free(r->got);
        r->got = xstrdup("processes left running");
    } else {
        verdict_set(r, r->vd, xasprintf("%s; left %d process%s running (killed by the harness)",
                                r->detail, strays, pl));
    }
}

/* Threads the candidate left running after execute returned (counted by
 * the parent, which killed the worker before judging; a batch with them
 * runs again one request at a time, run/batch_end.c): LEAK whatever dst
 * held, since a late thread's write may or may not have landed. */
static void note_threads(result *r, int threads)
{
    if (threads <= 0)
        return;
    verdict_set(r, VD_LEAK, xasprintf("left %d thread%s running after the call returned (the "
                                      "worker was killed before dst was judged, so dst is not "
                                      "judged)", threads, threads == 1 ? "" : "s"));
    free(r->got);
    r->got = xstrdup("threads left running");
}

/* What the sandbox stopped a process the candidate left running for (the
 * observer filed it under that process, which the engine found): added to
 * the detail. */
static void note_stop(result *r, const char *stop)
{
    if (!stop[0])
        return;
    verdict_set(r, r->vd, xasprintf("%s; a process it left running %s (the sandbox stopped it)",
                                    r->detail, stop));
}

/* A worker that died: a write fault outside dst is MEMORY_VIOLATION, any
 * other death is CRASH; the sandbox's observer says first why it stopped
 * one (what it knows is the parent's, out of the candidate's reach). */
static void judge_death(const stage *s, const arena *a, const completion *done,
                        const wire_response *rp, result *r)
{
    int st = done->wstatus;
    const char *in = phase_name(rp->phase);
    if (done->sandbox_stop[0]) {
        verdict_set(r, VD_CRASH, xasprintf("the sandbox stopped the candidate in %s: it %s (the "
                                   "worker was stopped)", in, done->sandbox_stop));
    } else if (rp->fault_signal == SIGSYS) {
        char name[64];
        verdict_set(r, VD_CRASH, xasprintf("the sandbox stopped system call %s (%llu) in %s: signal %d "
                                   "(%s)", sandbox_syscall_name((long)rp->fault_addr, name,
                                                                sizeof name),
                                   (unsigned long long)rp->fault_addr, in, SIGSYS,
                                   strsignal(SIGSYS)));
    } else if (rp->fault_signal == SIGSEGV || rp->fault_signal == SIGBUS) {
        const char *sig = rp->fault_signal == SIGSEGV ? "SIGSEGV" : "SIGBUS";
        if (rp->fault_in_arena) {
            char *w = verdict_where(s, a, rp->fault_addr);
            if (rp->fault_write != 0) {
                verdict_set(r, VD_MEMORY_VIOLATION, xasprintf("wrote %s (%s in %s)", w, sig, in));
            } else {
                verdict_set(r, VD_CRASH, xasprintf("read %s (%s in %s)", w, sig, in));
            }
            free(w);
        } else {
            verdict_set(r, VD_CRASH, xasprintf("%s at address 0x%llx in %s", sig,
                                       (unsigned long long)rp->fault_addr, in));
        }
    } else if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        verdict_set(r, VD_CRASH, xasprintf("signal %d (%s) in %s", sig, strsignal(sig), in));
    } else if (WEXITSTATUS(st) == WORKER_EXIT_LOST_CHANNEL) {
        verdict_set(r, VD_CRASH, xasprintf("the worker lost its channel to the harness (the candidate "
                                   "closed fd 3 or 4; seen when it answered): exit status %d",
                                   WEXITSTATUS(st)));
    } else {
        verdict_set(r, VD_CRASH, xasprintf("the worker exited with status %d in %s", WEXITSTATUS(st), in));
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
        verdict_set(r, r->vd, d);
    }
    free(r->got);
    r->got = xstrdup(r->vd == VD_CRASH ? "crash" : "memory violation");
}

static void judge_repeat(stage *s, const arena *a, const completion *done,
                         const wire_response *rp, result *r)
{
    const rcase *c = &s->set->cases[s->j->cases[0]];
    if (rp->repeat_bad_call >= 0) {
        const char *name = reshape_status_name((reshape_status)rp->repeat_bad_status);
        verdict_set(r, VD_FAIL, xasprintf("call %d of %d returned %s", rp->repeat_bad_call,
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
    verdict_check_dst(s, a, r);
    if (r->vd == VD_PASS)
        verdict_repeat_memory(s, a, done, rp, r);
}

static int judge_ended(stage *s, const arena *a, const completion *done, int strict,
                       int timeout_ms, result *out)
{
    const job *j = s->j;
    if (done->kind == DONE_OK && (done->strays > 0 || done->threads > 0)) {
        completion plain = *done;
        plain.strays = plain.threads = 0;
        plain.sandbox_stop[0] = '\0';
        int n = judge_ended(s, a, &plain, strict, timeout_ms, out);
        for (int k = 0; k < n; k++) {
            note_threads(&out[k], done->threads);
            note_strays(&out[k], done->strays, 1, done->n);
            note_stop(&out[k], done->sandbox_stop);
        }
        return n;
    }
    wire_response *rp = arena_response(s->cl, a->pview);
    const rcase *c = &s->set->cases[j->cases[0]];
    result *r = &out[0];
    *r = (result){j->cases[0], j->v, VD_PASS, xstrdup(""), NULL, -1};

    if (done->kind != DONE_OK) {
        if (done->kind == DONE_TIMEOUT) {
            long long ms = done->budget_ms > 0 ? (long long)done->budget_ms : timeout_ms;
            verdict_set(r, VD_TIMEOUT, xasprintf("no return within %lld ms (in %s)%s", ms,
                                         phase_name(rp->phase),
                                         ms < timeout_ms ? " (adaptive budget: this hang's "
                                                           "signature timed out before)"
                                                         : ""));
            r->got = xstrdup("timeout");
        } else if (done->kind == DONE_FLOOD) {
            verdict_set(r, VD_FLOOD, xasprintf("wrote more than %d bytes to stdout/stderr",
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
        return verdict_threads(s, a, rp, strict, out);
    }
    int32_t sup = rp->supports_status[0];
    if (sup == RESHAPE_E_NOT_SUPPORTED || rp->status == RESHAPE_E_NOT_SUPPORTED) {
        /* the candidate's last_error, when it gave one, is the reason */
        rp->last_error[sizeof rp->last_error - 1] = '\0';
        sanitize_text(rp->last_error);
        const char *who = sup == RESHAPE_E_NOT_SUPPORTED ? "supports() said"
                          : j->v == V_INFER              ? "infer_shape returned"
                                                         : "execute returned";
        verdict_set(r, VD_NOT_SUPPORTED, rp->last_error[0]
                                             ? xasprintf("%s NOT_SUPPORTED: %s", who, rp->last_error)
                                             : xasprintf("%s NOT_SUPPORTED", who));
        r->got = xstrdup("error NOT_SUPPORTED");
        return 1;
    }
    if (sup != RESHAPE_OK) {
        const char *name = reshape_status_name((reshape_status)sup);
        verdict_set(r, VD_FAIL, name ? xasprintf("supports() returned %s, expected OK or NOT_SUPPORTED", name)
                             : xasprintf("supports() returned %d, expected OK or NOT_SUPPORTED", sup));
        r->got = xstrdup("supports failed");
        return 1;
    }
    if (j->v == V_INFER) {
        if (verdict_request_changed(s, a)) {
            verdict_set(r, VD_MEMORY_VIOLATION,
                xstrdup("changed its arguments (params, dims or shape values)"));
            r->got = xstrdup("memory violation");
            return 1;
        }
        const int64_t *dims = (const int64_t *)(a->pview + WIRE_OUT_DIMS_OFF(a, s->cl));
        verdict_status(s, a, c, rp, strict, r, rp->out_rank, dims, 0);
        return 1;
    }
    if (verdict_outside_dst(s, a, c, r)) {
        r->got = xstrdup("memory violation");
        return 1;
    }
    if (j->v == V_REPEAT) {
        judge_repeat(s, a, done, rp, r);
        return 1;
    }
    verdict_status(s, a, c, rp, strict, r, s->dst_l.rank, s->dst_l.dims, 1);
    return 1;
}

int judge_job(stage *s, const arena *a, const completion *done, int strict, int timeout_ms,
              result *out)
{
    int n = judge_ended(s, a, done, strict, timeout_ms, out);
    verdict_after_return(s, a, done, out, n);   /* what ran after the return */
    return n;
}
