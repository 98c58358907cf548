/*
 * exec.c - carrying out one request in the candidate's view of an arena
 * (exec.h): supports, then infer_shape or execute (the threads variant in
 * exec_threads.c), the repeat variant's calls and memory samples, and a
 * batch in order; for a candidate with a device, execute's tensors are
 * mirrored into device memory (exec_device.c); at each memory sample the
 * parent measures the worker from outside (exec_set_sampler); what a call
 * wrote is sealed the moment it returns (exec_seal.h).  Depends on exec_int.h,
 * exec_device.h, and for the memory samples on
 * glibc's mallinfo2() (or, in a sanitized build, AddressSanitizer's
 * allocator statistics, since ASan replaces malloc).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "base/base.h"

#include "exec_device.h"
#include "exec_int.h"
#include "exec_seal.h"
#include "exec_window.h"

#ifdef HARNESS_ASAN
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

static void copy_last_error(wire_response *r, const reshape_candidate *cand)
{
    if (!cand->last_error)
        return;
    r->phase = PHASE_LAST_ERROR;
    const char *m = cand->last_error();
    if (m)
        snprintf(r->last_error, sizeof r->last_error, "%s", m);
}

static int64_t memory_in_use(void)
{
#ifdef HARNESS_ASAN
    return (int64_t)__sanitizer_get_current_allocated_bytes();
#else
    struct mallinfo2 m = mallinfo2();
    return (int64_t)(m.uordblks + m.hblkhd);
#endif
}

static int sample_req = -1, sample_resp = -1;

void exec_set_sampler(int req_fd, int resp_fd)
{
    sample_req = req_fd;
    sample_resp = resp_fd;
}

/* A sampling point: the worker's own figure into *at (a hint, for a run
 * in-process), then it waits while the parent measures it (exec.h). */
static void sample_point(int64_t *at, const reshape_candidate *cand)
{
    *at = memory_in_use() + exec_device_memory(cand);
    if (sample_resp < 0)
        return;
    char c = EXEC_SAMPLE;
    if (write(sample_resp, &c, 1) != 1)
        return;     /* the parent is gone, or the channel: the batch's end says so */
    while (read(sample_req, &c, 1) < 0 && errno == EINTR)
        ;
}

/* Raises a guard over the pages of the dst area below dst's first page, so
 * a write just before dst faults; `on` 0 lowers it again.  Small areas have
 * a moat there instead (wire.h). */
static void guard_before_dst(const arena *a, const cell *cl, uint8_t *view,
                             const wire_tensor *dst, int on)
{
    if (dst->data_off < (int64_t)cl->dst_off || cell_has_moat(cl))
        return;
    size_t lo = cl->dst_off, hi = (size_t)dst->data_off / a->page * a->page;
    if (hi > lo)
        mprotect(view + lo, hi - lo, on ? PROT_NONE : PROT_READ | PROT_WRITE);
}

static void run_repeat(const arena *a, const cell *cl, const wire_request *q, wire_response *r,
                       uint8_t *view, const reshape_candidate *cand)
{
    int ci = (int)(cl - a->cells);
    call_args c;
    exec_make_call(&c, &q->call[0], view);
    dev_mirror m;
    int on_device = exec_device(cand) != NULL;
    if (on_device) {
        exec_device_stage(&m, cand, a, cl, q, view);
        exec_device_rebase(&m, &c.k, &q->call[0]);
    }
    r->repeat_bad_call = -1;
    int every = q->sample_every > 0 ? q->sample_every : 1;
    int total = q->warmup + q->calls;
    if (!on_device)
        guard_before_dst(a, cl, view, &q->call[0].dst, 1);
    r->phase = PHASE_EXECUTE;
    for (int i = 0, s = 0; i < total; i++) {
        if (i >= q->warmup && (i - q->warmup) % every == 0 && s < WIRE_MEM_SAMPLES)
            sample_point(&r->mem[s++], cand);
        reshape_status st = cand->execute(&c.k.params, &c.k.src, &c.k.dst);
        if (on_device)
            exec_device_sync(cand);
        if (st != RESHAPE_OK && r->repeat_bad_call < 0) {
            r->repeat_bad_call = i;
            r->repeat_bad_status = st;
        }
        if (i == total - 1 && s < WIRE_MEM_SAMPLES)
            sample_point(&r->mem[s++], cand);
    }
    if (on_device)
        exec_device_unstage(&m, a, view);
    exec_seal(a, ci, view, cl->dst_off, cl->dst_size, r);
    if (!on_device && !r->sealed_ok)
        guard_before_dst(a, cl, view, &q->call[0].dst, 0);
    r->status = r->repeat_bad_call < 0 ? RESHAPE_OK : r->repeat_bad_status;
}

/* Whether this worker pinned itself for a pinned request
 * (exec_window_pin): 0 not tried, 1 pinned, -1 it could not. */
static int window;

/* Calls infer_shape or execute for `k` (`infer`), through the window
 * (exec_window.h) where there is one: for execute always, with dst's
 * [dst, dst + dst_len) copied right after the return, for infer_shape when
 * request `q` is pinned; [off, off + len) sealed in it, and 1 into
 * r->sealed_quiet when it proved the return quiet.  The caller calls
 * exec_seal for [off, off + len) afterwards in any case, which records the
 * seal for the fault handler and takes what the window did. */
static int call_candidate(const reshape_candidate *cand, const abuse_call *k, int infer,
                          const wire_request *q, wire_response *r, const arena *a,
                          uint8_t *view, size_t off, size_t len, const uint8_t *dst,
                          size_t dst_len)
{
    if (q->pinned && !window && exec_seal_active())
        window = exec_window_pin() ? 1 : -1;
    if (!exec_window_available() || !exec_seal_active() || (infer && window != 1))
        return infer ? cand->infer_shape(k->pparams, k->psrc, k->out_rank, k->out_dims)
                     : cand->execute(k->pparams, k->psrc, k->pdst);
    size_t lo, hi;
    exec_seal_span(a, off, len, &lo, &hi);
    struct stat st;
    exec_window_req w = {
        infer ? (exec_window_fn)cand->infer_shape : (exec_window_fn)cand->execute,
        {(void *)k->pparams, (void *)k->psrc, infer ? (void *)k->out_rank : (void *)k->pdst,
         infer ? (void *)k->out_dims : NULL},
        view + lo, hi - lo, dst, dst_len, exec_seal_task_fd(), &st};
    int quiet, counted, sealed;
    int status = exec_window_call(&w, &quiet, &counted, &sealed);
    exec_seal_window(counted ? &st : NULL, sealed);
    r->sealed_quiet = q->pinned && quiet;
    return status;
}

/* The bytes of dst the window copies: the request's dst buffer (its
 * span from call[0].dst.data_off, q->dst_bytes) within cell `cl`'s dst
 * area; *len 0 when there is none. */
static const uint8_t *snap_span(const cell *cl, const wire_request *q, uint8_t *view,
                                size_t *len)
{
    int64_t at = q->call[0].dst.data_off, end = (int64_t)(cl->dst_off + cl->dst_size);
    *len = 0;
    if (at < (int64_t)cl->dst_off || at >= end || q->dst_bytes <= 0)
        return NULL;
    *len = (size_t)(q->dst_bytes < end - at ? q->dst_bytes : end - at);
    return view + at;
}

void exec_request(const arena *a, const cell *cl, uint8_t *view, const reshape_candidate *cand)
{
    const wire_request *q = arena_request(cl, view);
    wire_response *r = arena_response(cl, view);
    int ci = (int)(cl - a->cells);
    exec_unseal(ci, view);  /* the cell's last request's seal */
    memset(r, 0, offsetof(wire_response, thread_status));
    if (q->kind == REQ_THREADS)
        memset(r->thread_status, 0, sizeof r->thread_status);
    exec_fault_track(r);
    exec_device_host_thread();
    r->seq = q->seq;
    r->status = -1;
    exec_seal_begin(r);
    if (q->kind == REQ_THREADS) {
        exec_run_threads(a, cl, q, r, view, cand);
        exec_seal(a, ci, view, cl->dst_off, cl->dst_size, r);
        r->phase = PHASE_IDLE;
        return;
    }
    const wire_call *w = &q->call[0];
    r->phase = PHASE_SUPPORTS;
    r->supports_status[0] = cand->supports((reshape_op)w->op, (reshape_dtype)w->src.dtype,
                                           (reshape_dtype)w->shape.dtype,
                                           exec_device_layout(cand, w->layout));
    if (r->supports_status[0] != RESHAPE_OK) {
        copy_last_error(r, cand);   /* why it is not supported */
        r->phase = PHASE_IDLE;
        return;
    }
    if (q->kind == REQ_REPEAT) {
        run_repeat(a, cl, q, r, view, cand);
        r->phase = PHASE_IDLE;
        return;
    }
    call_args c;
    exec_make_call(&c, w, view);
    abuse_call *k = &c.k;
    k->out_rank = (int32_t *)(view + WIRE_OUT_RANK_OFF(a, cl));
    k->out_dims = (int64_t *)(view + WIRE_OUT_DIMS_OFF(a, cl));
    dev_mirror m;
    int on_device = q->kind == REQ_EXECUTE && exec_device(cand);
    if (on_device) {
        exec_device_stage(&m, cand, a, cl, q, view);
        exec_device_rebase(&m, k, w);
    }
    /* a contract case's one deviation (abuse.h); supports() was asked
     * about the well-formed call */
    abuse_apply((case_abuse)w->abuse, k);
    if (q->kind == REQ_INFER) {
        r->phase = PHASE_INFER;
        r->status = call_candidate(cand, k, 1, q, r, a, view, cl->out_off, a->page, NULL, 0);
        exec_seal(a, ci, view, cl->out_off, a->page, r);
        r->out_rank = *(int32_t *)(view + WIRE_OUT_RANK_OFF(a, cl));
    } else {
        if (w->src.data_off >= 0 && w->src.data_off != w->dst.data_off)
            arena_populate(a, view, (size_t)w->src.data_off,
                           cl->src_off + cl->src_size - (size_t)w->src.data_off, 0);
        if (w->dst.data_off >= 0)
            arena_populate(a, view, (size_t)w->dst.data_off,
                           cl->dst_off + cl->dst_size - (size_t)w->dst.data_off, 1);
        if (!on_device)
            guard_before_dst(a, cl, view, &w->dst, 1);
        r->phase = PHASE_EXECUTE;
        size_t snap_len = 0;
        const uint8_t *snap = on_device ? NULL : snap_span(cl, q, view, &snap_len);
        if (on_device)
            r->status = cand->execute(k->pparams, k->psrc, k->pdst);
        else
            r->status = call_candidate(cand, k, 0, q, r, a, view, cl->dst_off, cl->dst_size,
                                       snap, snap_len);
        if (on_device) {
            exec_device_sync(cand);
            exec_device_unstage(&m, a, view);
        }
        /* the first system call after the return (or the window's, which
         * made the seal already): from here on no thread, process or
         * signal handler of the candidate's writes dst unseen */
        exec_seal(a, ci, view, cl->dst_off, cl->dst_size, r);
        size_t changed;
        if (snap && r->sealed_ok && exec_window_changed(&changed) &&
            !__atomic_load_n(&r->late_write, __ATOMIC_ACQUIRE)) {
            /* written after the return, before the seal took effect */
            r->late_addr = (uint64_t)(snap - view) + changed;
            __atomic_store_n(&r->late_write, WIRE_LATE_UNSEEN, __ATOMIC_RELEASE);
        }
        if (!on_device && !r->sealed_ok)
            guard_before_dst(a, cl, view, &w->dst, 0);
        /* a large payload goes back to the parent to be judged (wire.h) */
        if (w->src.data_off >= 0)
            arena_unmap_pages(a, view, (size_t)w->src.data_off,
                              cl->src_off + cl->src_size - (size_t)w->src.data_off);
        if (w->dst.data_off >= 0)
            arena_unmap_pages(a, view, (size_t)w->dst.data_off,
                              cl->dst_off + cl->dst_size - (size_t)w->dst.data_off);
    }
    if (r->status != RESHAPE_OK)
        copy_last_error(r, cand);
    r->phase = PHASE_IDLE;
}

void exec_batch(arena *a, uint8_t *view, const reshape_candidate *cand)
{
    wire_batch *b = arena_batch(view);
    int n = b->n < 0 ? 0 : b->n > ARENA_CELLS ? ARENA_CELLS : b->n;
    for (int k = 0; k < n; k++) {
        int ci = b->cells[k];
        if (ci < 0 || ci > ARENA_BIG)
            abort();  /* a corrupt batch page; the parent reports the death */
        arena_ready_cell(a, ci);    /* a failure faults: CRASH */
        __atomic_store_n(&b->started_ns, exec_monotonic_ns(), __ATOMIC_RELAXED);
        __atomic_store_n(&b->running, k, __ATOMIC_RELEASE);
        exec_request(a, &a->cells[ci], view, cand);
    }
    exec_fault_track(NULL);
    __atomic_store_n(&b->running, n, __ATOMIC_RELEASE);
}
