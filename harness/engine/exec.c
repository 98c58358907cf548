/*
 * exec.c - carrying out one request in the candidate's view of an arena
 * (exec.h).  Depends on wire.h, pthreads, and for the memory samples of
 * the repeat variant on glibc's mallinfo2() (or, in a sanitized build,
 * AddressSanitizer's allocator statistics, since ASan replaces malloc).
 */
#define _GNU_SOURCE
#include "exec.h"

#include "suite/suite.h"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* ------------------------------------------------------------ faults */

static uint8_t *fault_view;
static size_t fault_size;
static wire_response *volatile fault_resp;   /* the request being carried out */
static int fault_notify = -1;

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
    exec_record_death(0, 0);
    /* let the signal do what it would have done without us */
    signal(sig, SIG_DFL);
    raise(sig);
}

void exec_record_death(int sig, uint64_t code)
{
    wire_response *r = fault_resp;
    if (r && sig && !r->fault_signal) {
        r->fault_signal = sig;
        r->fault_write = -1;
        r->fault_addr = code;
    }
    if (r && fault_notify >= 0) {
        char c = EXEC_DYING;
        if (write(fault_notify, &c, 1) != 1) {
            /* the parent is gone or reads the death from the pipe's end */
        }
    }
}

void exec_install_fault_handler(const arena *a, uint8_t *view, int notify_fd)
{
    fault_notify = notify_fd;
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    fault_view = view;
    fault_size = a->size;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* ------------------------------------------------------------ calls */

/*
 * One call's arguments, the worker's own: the tensors' strides and the
 * shape values are copies followed by poison (a negative stride, 0xA5
 * bytes), so that a candidate reading one stride or one shape value past
 * the end sees a value that changes its answer instead of the zeros that
 * follow them in the request.  `k` is the call as abuse.h describes it.
 */
#define SHAPE_POISON_BYTE 0xA5
typedef struct call_args {
    abuse_call k;
    int64_t strides[2][RESHAPE_MAX_RANK + 1];
    _Alignas(8) uint8_t shape_data[CASE_SHAPE_VALUES_MAX * 8 + 8];
} call_args;

static void make_tensor(reshape_tensor *t, const wire_tensor *w, uint8_t *view, int64_t *strides)
{
    t->dtype = (reshape_dtype)w->dtype;
    t->rank = w->rank;
    t->dims = w->dims;
    t->strides = NULL;
    if (w->strided && w->rank >= 0 && w->rank <= RESHAPE_MAX_RANK) {
        memcpy(strides, w->strides, (size_t)w->rank * sizeof *strides);
        strides[w->rank] = -1;
        t->strides = strides;
    } else if (w->strided) {
        t->strides = w->strides;
    }
    t->data = w->data_off < 0 ? NULL : view + w->data_off;
}

static void make_call(call_args *c, const wire_call *w, uint8_t *view)
{
    abuse_call *k = &c->k;
    make_tensor(&k->src, &w->src, view, c->strides[0]);
    make_tensor(&k->dst, &w->dst, view, c->strides[1]);
    make_tensor(&k->shape, &w->shape, view, c->strides[1]);
    size_t n = w->shape_nbytes >= 0 && w->shape_nbytes <= (int32_t)sizeof w->shape_data
                   ? (size_t)w->shape_nbytes : sizeof w->shape_data;
    memcpy(c->shape_data, w->shape_data, n);
    memset(c->shape_data + n, SHAPE_POISON_BYTE, sizeof c->shape_data - n);
    k->shape.data = c->shape_data;
    k->params.op = (reshape_op)w->op;
    k->params.special_zero = w->special_zero;
    k->params.shape = &k->shape;
    k->pparams = &k->params;
    k->psrc = &k->src;
    k->pdst = &k->dst;
    k->out_rank = NULL;
    k->out_dims = NULL;
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

/*
 * What the threads share: how many calls are running and how many ever
 * started, so that each thread can tell whether its call overlapped in
 * time with another thread's (one started while the other ran), and when
 * to stop.
 */
typedef struct thread_shared {
    spin_barrier barrier;
    atomic_int active, starts, stop;
    int64_t deadline_ns;
} thread_shared;

typedef struct thread_job {
    const reshape_candidate *cand;
    call_args args;
    uint8_t *dst0;
    int64_t slot_bytes;
    int slots;
    wire_response *r;
    int t;
    thread_shared *sh;
} thread_job;

static int64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * One thread of the threads variant: calls back to back after a common
 * start, each into dst slot `slot`.  A call that overlapped another
 * thread's is kept (the next call takes the next slot); one that ran alone
 * is overwritten by the next, since a race needs company.  Once its
 * `slots` slots are full, calls go to the spare slot after them.  The
 * slots written are [0, slot + pending), contiguous.  Goes on
 * until every thread has filled its slots, so that none is left calling
 * alone, or until the deadline.  The slot after the spare is left for one
 * call alone after all threads have ended.
 */
static void *thread_main(void *p)
{
    thread_job *j = p;
    thread_shared *sh = j->sh;
    int slot = 0, calls = 0, overlaps = 0, full = 0, pending = 0;
    spin_wait(&sh->barrier);
    for (;;) {
        if (calls > 0 && (atomic_load(&sh->stop) >= sh->barrier.n ||
                          monotonic_ns() > sh->deadline_ns))
            break;
        reshape_tensor dst = j->args.k.dst;
        dst.data = j->dst0 + (int64_t)slot * j->slot_bytes;
        int mine = atomic_fetch_add(&sh->starts, 1) + 1;
        int company = atomic_fetch_add(&sh->active, 1) > 0;
        j->r->thread_status[j->t][slot] = j->cand->execute(&j->args.k.params, &j->args.k.src, &dst);
        company |= atomic_fetch_sub(&sh->active, 1) > 1;
        company |= atomic_load(&sh->starts) != mine;
        calls++;
        overlaps += company;
        pending = 1;
        if (company && slot < j->slots) {
            slot++;
            pending = 0;
            if (slot == j->slots && !full) {
                full = 1;
                atomic_fetch_add(&sh->stop, 1);   /* one more thread is full */
            }
        }
    }
    j->r->thread_slots[j->t] = slot + pending;
    j->r->thread_calls[j->t] = calls;
    j->r->thread_overlaps[j->t] = overlaps;
    return NULL;
}

static void run_threads(const wire_request *q, wire_response *r, uint8_t *view,
                        const reshape_candidate *cand)
{
    thread_job jobs[WIRE_THREADS];
    pthread_t tids[WIRE_THREADS];
    int n = 0, slots = q->iters < WIRE_ITERS_MAX ? q->iters : WIRE_ITERS_MAX;
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
        j->slots = slots - 2;   /* then the spare slot, then one call alone */
        j->r = r;
        j->t = t;
    }
    if (n == 0)
        return;
    thread_shared sh;
    atomic_init(&sh.barrier.arrived, 0);
    atomic_init(&sh.barrier.generation, 0);
    sh.barrier.n = n;
    atomic_init(&sh.active, 0);
    atomic_init(&sh.starts, 0);
    atomic_init(&sh.stop, 0);
    sh.deadline_ns = monotonic_ns() + (int64_t)(q->budget_ms > 0 ? q->budget_ms : 1) * 1000000;
    r->phase = PHASE_EXECUTE;
    for (int k = 0; k < n; k++) {
        jobs[k].sh = &sh;
        if (pthread_create(&tids[k], NULL, thread_main, &jobs[k]) != 0)
            abort();  /* the parent reports the worker's death */
    }
    for (int k = 0; k < n; k++)
        pthread_join(tids[k], NULL);
    /* each case once more, alone: the control the threaded calls are held to */
    for (int k = 0; k < n; k++) {
        const abuse_call *a = &jobs[k].args.k;
        reshape_tensor dst = a->dst;
        dst.data = jobs[k].dst0 + (int64_t)(slots - 1) * jobs[k].slot_bytes;
        r->thread_status[jobs[k].t][slots - 1] = cand->execute(&a->params, &a->src, &dst);
    }
}

/* ----------------------------------------------------------- repeat */

static void run_repeat(const arena *a, const cell *cl, const wire_request *q, wire_response *r,
                       uint8_t *view, const reshape_candidate *cand)
{
    call_args c;
    make_call(&c, &q->call[0], view);
    r->repeat_bad_call = -1;
    int every = q->sample_every > 0 ? q->sample_every : 1;
    int total = q->warmup + q->calls;
    guard_before_dst(a, cl, view, &q->call[0].dst, 1);
    r->phase = PHASE_EXECUTE;
    for (int i = 0, s = 0; i < total; i++) {
        if (i >= q->warmup && (i - q->warmup) % every == 0 && s < WIRE_MEM_SAMPLES)
            r->mem[s++] = memory_in_use();
        reshape_status st = cand->execute(&c.k.params, &c.k.src, &c.k.dst);
        if (st != RESHAPE_OK && r->repeat_bad_call < 0) {
            r->repeat_bad_call = i;
            r->repeat_bad_status = st;
        }
        if (i == total - 1 && s < WIRE_MEM_SAMPLES)
            r->mem[s++] = memory_in_use();
    }
    guard_before_dst(a, cl, view, &q->call[0].dst, 0);
    r->status = r->repeat_bad_call < 0 ? RESHAPE_OK : r->repeat_bad_status;
}

/* ------------------------------------------------------------ entry */

void exec_request(const arena *a, const cell *cl, uint8_t *view, const reshape_candidate *cand)
{
    const wire_request *q = arena_request(cl, view);
    wire_response *r = arena_response(cl, view);
    memset(r, 0, offsetof(wire_response, thread_status));
    if (q->kind == REQ_THREADS)
        memset(r->thread_status, 0, sizeof r->thread_status);
    fault_resp = r;
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
        run_repeat(a, cl, q, r, view, cand);
        r->phase = PHASE_IDLE;
        return;
    }
    call_args c;
    make_call(&c, w, view);
    abuse_call *k = &c.k;
    k->out_rank = (int32_t *)(view + WIRE_OUT_RANK_OFF(a, cl));
    k->out_dims = (int64_t *)(view + WIRE_OUT_DIMS_OFF(a, cl));
    /* a contract case's one deviation (abuse.h); supports() was asked
     * about the well-formed call */
    abuse_apply((case_abuse)w->abuse, k);
    if (q->kind == REQ_INFER) {
        r->phase = PHASE_INFER;
        r->status = cand->infer_shape(k->pparams, k->psrc, k->out_rank, k->out_dims);
        r->out_rank = *(int32_t *)(view + WIRE_OUT_RANK_OFF(a, cl));
    } else {
        if (w->src.data_off >= 0 && w->src.data_off != w->dst.data_off)
            arena_populate(a, view, (size_t)w->src.data_off,
                           cl->src_off + cl->src_size - (size_t)w->src.data_off, 0);
        if (w->dst.data_off >= 0)
            arena_populate(a, view, (size_t)w->dst.data_off,
                           cl->dst_off + cl->dst_size - (size_t)w->dst.data_off, 1);
        guard_before_dst(a, cl, view, &w->dst, 1);
        r->phase = PHASE_EXECUTE;
        r->status = cand->execute(k->pparams, k->psrc, k->pdst);
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

void exec_batch(const arena *a, uint8_t *view, const reshape_candidate *cand)
{
    wire_batch *b = arena_batch(view);
    int n = b->n < 0 ? 0 : b->n > ARENA_CELLS ? ARENA_CELLS : b->n;
    for (int k = 0; k < n; k++) {
        int ci = b->cells[k];
        if (ci < 0 || ci > ARENA_BIG)
            abort();  /* a corrupt batch page; the parent reports the death */
        __atomic_store_n(&b->started_ns, monotonic_ns(), __ATOMIC_RELAXED);
        __atomic_store_n(&b->running, k, __ATOMIC_RELEASE);
        exec_request(a, &a->cells[ci], view, cand);
    }
    fault_resp = NULL;
    __atomic_store_n(&b->running, n, __ATOMIC_RELEASE);
}
