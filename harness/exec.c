/*
 * exec.c - carrying out one request in the candidate's view of an arena
 * (exec.h).  Depends on wire.h, pthreads, and for the memory samples of
 * the repeat variant on glibc's mallinfo2() (or, in a sanitized build,
 * AddressSanitizer's allocator statistics, since ASan replaces malloc).
 */
#define _GNU_SOURCE
#include "exec.h"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#ifdef __SANITIZE_ADDRESS__
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* ------------------------------------------------------------ faults */

static uint8_t *fault_view;
static size_t fault_size;
static wire_response *fault_resp;

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
    wire_response *r = fault_resp;
    if (r && !r->fault_signal) {
        uintptr_t addr = (uintptr_t)info->si_addr, base = (uintptr_t)fault_view;
        r->fault_signal = sig;
        r->fault_write = -1;
#if defined(__x86_64__)
        if (sig == SIGSEGV)
            r->fault_write = (((ucontext_t *)uctx)->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
        (void)uctx;
#endif
        if (sig == SIGSEGV || sig == SIGBUS) {
            r->fault_in_arena = addr >= base && addr < base + fault_size;
            r->fault_addr = r->fault_in_arena ? addr - base : addr;
        }
    }
    /* let the signal do what it would have done without us */
    signal(sig, SIG_DFL);
    raise(sig);
}

void exec_install_fault_handler(const arena *a, uint8_t *view)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    fault_view = view;
    fault_size = a->size;
    fault_resp = arena_response(a, view);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* ------------------------------------------------------------ calls */

typedef struct call_args {
    reshape_params params;
    reshape_tensor shape, src, dst;
} call_args;

static void make_tensor(reshape_tensor *t, const wire_tensor *w, uint8_t *view)
{
    t->dtype = (reshape_dtype)w->dtype;
    t->rank = w->rank;
    t->dims = w->dims;
    t->strides = w->strided ? w->strides : NULL;
    t->data = w->data_off < 0 ? NULL : view + w->data_off;
}

static void make_call(call_args *c, const wire_call *w, uint8_t *view)
{
    make_tensor(&c->src, &w->src, view);
    make_tensor(&c->dst, &w->dst, view);
    make_tensor(&c->shape, &w->shape, view);
    c->shape.data = (void *)w->shape_data;
    c->params.op = (reshape_op)w->op;
    c->params.special_zero = w->special_zero;
    c->params.shape = &c->shape;
}

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
#ifdef __SANITIZE_ADDRESS__
    return (int64_t)__sanitizer_get_current_allocated_bytes();
#else
    struct mallinfo2 m = mallinfo2();
    return (int64_t)(m.uordblks + m.hblkhd);
#endif
}

/* Raises a guard over the pages of the dst area below dst's first page, so
 * a write just before dst faults; `on` 0 lowers it again. */
static void guard_before_dst(const arena *a, uint8_t *view, const wire_tensor *dst, int on)
{
    if (dst->data_off < (int64_t)a->dst_off)
        return;
    size_t lo = a->dst_off, hi = (size_t)dst->data_off / a->page * a->page;
    if (hi > lo)
        mprotect(view + lo, hi - lo, on ? PROT_NONE : PROT_READ | PROT_WRITE);
}

/* ---------------------------------------------------------- threads */

/*
 * A spinning barrier: the threads leave it within a few cycles of each
 * other (a sleeping barrier wakes them one by one, tens of microseconds
 * apart, long enough for a small copy to finish unraced).  Yields while
 * waiting, since there may be fewer cores than threads.
 */
typedef struct spin_barrier {
    atomic_int arrived;
    atomic_int generation;
    int n;
} spin_barrier;

static void spin_wait(spin_barrier *b)
{
    int gen = atomic_load(&b->generation);
    if (atomic_fetch_add(&b->arrived, 1) == b->n - 1) {
        atomic_store(&b->arrived, 0);
        atomic_fetch_add(&b->generation, 1);
        return;
    }
    while (atomic_load(&b->generation) == gen)
        sched_yield();
}

typedef struct thread_job {
    const reshape_candidate *cand;
    call_args args;
    uint8_t *dst0;
    int64_t slot_bytes;
    int iters;
    int32_t *status;
    spin_barrier *barrier;
} thread_job;

static void *thread_main(void *p)
{
    thread_job *j = p;
    for (int i = 0; i < j->iters; i++) {
        call_args a = j->args;
        a.dst.data = j->dst0 + (int64_t)i * j->slot_bytes;
        spin_wait(j->barrier);
        j->status[i] = j->cand->execute(&a.params, &a.src, &a.dst);
    }
    return NULL;
}

static void run_threads(const wire_request *q, wire_response *r, uint8_t *view,
                        const reshape_candidate *cand)
{
    thread_job jobs[WIRE_THREADS];
    pthread_t tids[WIRE_THREADS];
    int n = 0, iters = q->iters < WIRE_ITERS_MAX ? q->iters : WIRE_ITERS_MAX;
    for (int t = 0; t < q->ncalls && t < WIRE_THREADS; t++) {
        const wire_call *w = &q->call[t];
        r->phase = PHASE_SUPPORTS;
        r->supports_status[t] = cand->supports((reshape_op)w->op, (reshape_dtype)w->src.dtype,
                                               (reshape_dtype)w->shape.dtype, w->layout);
        if (r->supports_status[t] != RESHAPE_OK)
            continue;
        thread_job *j = &jobs[n++];
        j->cand = cand;
        make_call(&j->args, w, view);
        j->dst0 = view + w->dst.data_off;
        j->slot_bytes = q->slot_bytes;
        j->iters = iters;
        j->status = r->thread_status[t];
    }
    if (n == 0)
        return;
    spin_barrier barrier;
    atomic_init(&barrier.arrived, 0);
    atomic_init(&barrier.generation, 0);
    barrier.n = n;
    r->phase = PHASE_EXECUTE;
    int started = 0;
    for (int k = 0; k < n; k++) {
        jobs[k].barrier = &barrier;
        if (pthread_create(&tids[k], NULL, thread_main, &jobs[k]) != 0)
            abort();  /* the parent reports the worker's death */
        started++;
    }
    for (int k = 0; k < started; k++)
        pthread_join(tids[k], NULL);
}

/* ----------------------------------------------------------- repeat */

static void run_repeat(const arena *a, const wire_request *q, wire_response *r, uint8_t *view,
                       const reshape_candidate *cand)
{
    call_args c;
    make_call(&c, &q->call[0], view);
    r->repeat_bad_call = -1;
    int every = q->sample_every > 0 ? q->sample_every : 1;
    int total = q->warmup + q->calls;
    guard_before_dst(a, view, &q->call[0].dst, 1);
    r->phase = PHASE_EXECUTE;
    for (int i = 0, s = 0; i < total; i++) {
        if (i >= q->warmup && (i - q->warmup) % every == 0 && s < WIRE_MEM_SAMPLES)
            r->mem[s++] = memory_in_use();
        reshape_status st = cand->execute(&c.params, &c.src, &c.dst);
        if (st != RESHAPE_OK && r->repeat_bad_call < 0) {
            r->repeat_bad_call = i;
            r->repeat_bad_status = st;
        }
        if (i == total - 1 && s < WIRE_MEM_SAMPLES)
            r->mem[s++] = memory_in_use();
    }
    guard_before_dst(a, view, &q->call[0].dst, 0);
    r->status = r->repeat_bad_call < 0 ? RESHAPE_OK : r->repeat_bad_status;
}

/* ------------------------------------------------------------ entry */

void exec_request(const arena *a, uint8_t *view, const reshape_candidate *cand)
{
    const wire_request *q = arena_request(a, view);
    wire_response *r = arena_response(a, view);
    wire_probe probe = r->probe;
    memset(r, 0, sizeof *r);
    r->probe = probe;
    r->seq = q->seq;
    r->status = -1;
    if (q->kind == REQ_THREADS) {
        run_threads(q, r, view, cand);
        r->phase = PHASE_IDLE;
        return;
    }
    const wire_call *w = &q->call[0];
    r->phase = PHASE_SUPPORTS;
    r->supports_status[0] = cand->supports((reshape_op)w->op, (reshape_dtype)w->src.dtype,
                                           (reshape_dtype)w->shape.dtype, w->layout);
    if (r->supports_status[0] != RESHAPE_OK) {
        r->phase = PHASE_IDLE;
        return;
    }
    if (q->kind == REQ_REPEAT) {
        run_repeat(a, q, r, view, cand);
        r->phase = PHASE_IDLE;
        return;
    }
    call_args c;
    make_call(&c, w, view);
    if (q->kind == REQ_INFER) {
        r->phase = PHASE_INFER;
        r->status = cand->infer_shape(&c.params, &c.src, (int32_t *)(view + WIRE_OUT_RANK_OFF(a)),
                                      (int64_t *)(view + WIRE_OUT_DIMS_OFF(a)));
        r->out_rank = *(int32_t *)(view + WIRE_OUT_RANK_OFF(a));
    } else {
        guard_before_dst(a, view, &w->dst, 1);
        r->phase = PHASE_EXECUTE;
        r->status = cand->execute(&c.params, &c.src, &c.dst);
        guard_before_dst(a, view, &w->dst, 0);
    }
    if (r->status != RESHAPE_OK)
        copy_last_error(r, cand);
    r->phase = PHASE_IDLE;
}
