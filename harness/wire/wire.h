/*
 * wire.h - the shared-memory arena between the harness (the parent) and a
 * worker process, and the records in it.
 *
 * One arena per worker slot: a memfd mapped twice.  The parent's view is
 * plain read-write; the worker's view ("candidate view") has PROT_NONE
 * guard pages and read-only src areas.  The parent writes every input and
 * the initial dst, the worker only calls the candidate and records
 * statuses, and the parent judges from the buffers.  Offsets are in bytes
 * from the arena start.
 *
 *   batch page | cell 0 | cell 1 | ... | cell ARENA_CELLS-1 | big cell
 *
 * and every cell, small or big, is laid out alike:
 *
 *   request | response | out page | guard | src area | guard | dst area | guard
 *
 * The out page ends with out_dims (RESHAPE_MAX_RANK entries), so a write
 * past it faults; src and dst are placed to end at their area's end, so a
 * write past them faults; a guard before dst is raised per call.  Small
 * cells have areas of ARENA_SMALL_AREA bytes and carry the requests of a
 * batch, one each; the big cell is sized for the largest job and carries
 * one request alone.  The batch page says which cells the worker runs, in
 * order, and which one it is running now, so that a crash or a hang is
 * pinned on its own request.  The wire layer's door: it includes the
 * protocol's other half, channel.h (the descriptors, bytes and messages
 * beside the arena), and fd_pass.h (descriptors sent with them); nothing
 * else defines the protocol (harness/ARCHITECTURE.md, "Trust boundary").
 * Depends on the ABI header and case.h.
 */
#ifndef HARNESS_WIRE_H
#define HARNESS_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "suite/suite.h"
#include "reshape_candidate.h"

#define WIRE_THREADS 4
#define WIRE_ITERS_MAX 64
/* repeat: memory samples, one every PLAN_REPEAT_EVERY calls after the
 * warm-up and one after the last call (PLAN_REPEAT_CALLS / EVERY + 1). */
#define WIRE_MEM_SAMPLES 21

/* Small cells of an arena, the most requests one batch carries. */
#define ARENA_CELLS 64
/* Bytes of each src and dst area of a small cell. */
#define ARENA_SMALL_AREA 4096
/* Index of the big cell. */
#define ARENA_BIG ARENA_CELLS

enum wire_kind {
    REQ_INFER = 1,   /* supports, then infer_shape of call[0] */
    REQ_EXECUTE,     /* supports, then execute of call[0] */
    REQ_THREADS,     /* ncalls threads, `iters` executes each, barrier-started */
    REQ_REPEAT       /* `warmup` + `calls` executes of call[0], memory sampled */
};

/* Who wrote a request's sealed pages after its call returned
 * (wire_response.late_write): a thread of the worker, another process
 * sharing its memory (clone(CLONE_VM)), the worker's own thread (a signal
 * handler, or a later call). */
enum wire_late { WIRE_LATE_THREAD = 1, WIRE_LATE_PROCESS, WIRE_LATE_WORKER,
                 WIRE_LATE_UNSEEN /* dst's bytes changed between the return and
                                     the seal (exec_window_changed) */ };

/* Where the worker is, for the crash detail. */
enum wire_phase { PHASE_IDLE, PHASE_SUPPORTS, PHASE_INFER, PHASE_EXECUTE, PHASE_LAST_ERROR };

typedef struct wire_tensor {
    int32_t dtype, rank;
    int32_t strided;                    /* pass `strides`, else NULL */
    int32_t unused;
    int64_t data_off;                   /* arena offset of the data, -1: NULL */
    int64_t dims[RESHAPE_MAX_RANK];
    int64_t strides[RESHAPE_MAX_RANK];
} wire_tensor;

typedef struct wire_call {
    int32_t op, special_zero;
    uint32_t layout;                    /* RESHAPE_LAYOUT_* for supports() */
    int32_t shape_nbytes;               /* bytes of shape_data in use */
    int32_t abuse;                      /* case_abuse (abuse.h): the worker
                                           makes this one deviation */
    int32_t unused;
    wire_tensor shape, src, dst;        /* shape.data_off is unused: values below */
    uint8_t shape_data[CASE_SHAPE_VALUES_MAX * 8];
} wire_call;

typedef struct wire_request {
    uint32_t seq, kind;
    int32_t ncalls;
    int32_t iters;                      /* threads: dst slots per thread */
    int64_t slot_bytes;                 /* threads: dst slot i of thread t at
                                           call[t].dst.data_off + i * slot_bytes */
    int32_t warmup, calls, sample_every;/* repeat */
    int32_t budget_ms;                  /* threads: stop calling after this long */
    int32_t pinned;                     /* 1: a request run once more alone after
                                           a thread ended unseen: the worker pins
                                           itself to one CPU and proves the
                                           return quiet (worker/exec_window.h) */
    int32_t unused;
    int64_t dst_bytes;                  /* execute: dst's buffer from
                                           call[0].dst.data_off (its span), whose
                                           head and tail the worker copies right
                                           after the return (exec_window.h) */
    wire_call call[WIRE_THREADS];
} wire_request;

/* `used` bytes of an array of `size`, and the rest of the 64 bytes after
 * them (at least one byte more): what a read one element too far sees is
 * then the request's own (zeros), not what an earlier request left. */
static inline size_t wire_part_bytes(size_t used, size_t size)
{
    size_t n = (used / 64 + 1) * 64;
    return n < size ? n : size;
}

/*
 * The parts of a request in use: the header, and of each of `ncalls` calls
 * its fields, each tensor's dims[0..rank) and strides[0..rank) and the
 * shape values, each array with the rest of its 64 bytes after them
 * (wire_part_bytes).  Only these are written into the arena (a request is
 * mostly unused room, and every byte written is a cache line the worker's
 * core must fetch) and compared afterwards.  `f` is called on each part's
 * offset and size; a rank outside 0..RESHAPE_MAX_RANK counts as the most.
 */
static inline void wire_request_parts(const wire_request *q, void (*f)(void *, size_t, size_t),
                                      void *ctx)
{
    int n = q->ncalls < 1 ? 1 : q->ncalls > WIRE_THREADS ? WIRE_THREADS : q->ncalls;
    f(ctx, 0, offsetof(wire_request, call));
    for (int i = 0; i < n; i++) {
        const wire_call *w = &q->call[i];
        size_t at = offsetof(wire_request, call) + (size_t)i * sizeof(wire_call);
        const wire_tensor *t[3] = {&w->shape, &w->src, &w->dst};
        f(ctx, at, offsetof(wire_call, shape));
        for (int k = 0; k < 3; k++) {
            size_t to = at + (size_t)((const uint8_t *)t[k] - (const uint8_t *)w);
            size_t r = t[k]->rank >= 0 && t[k]->rank <= RESHAPE_MAX_RANK ? (size_t)t[k]->rank
                                                                         : RESHAPE_MAX_RANK;
            size_t dn = wire_part_bytes(r * sizeof(int64_t), sizeof t[k]->dims);
            f(ctx, to, offsetof(wire_tensor, dims) + dn);
            f(ctx, to + offsetof(wire_tensor, strides), dn);
        }
        size_t sn = w->shape_nbytes >= 0 && w->shape_nbytes <= (int32_t)sizeof w->shape_data
                        ? (size_t)w->shape_nbytes : sizeof w->shape_data;
        f(ctx, at + offsetof(wire_call, shape_data), wire_part_bytes(sn, sizeof w->shape_data));
    }
}

/* What the worker found when it loaded the candidate. */
typedef struct wire_probe {
    int32_t state;                      /* 0 not yet, 1 loaded, 2 refused */
    uint32_t abi_version, struct_size;
    char name[128], version[128];
    char message[512];                  /* why it was refused */
    int32_t device_type;                /* the table's device (RESHAPE_DEVICE_*),
                                           0: none, tensors in host memory */
    int32_t device_id;
    char device_name[128];
    int32_t has_limits;                 /* the table declares limits: */
    reshape_limits limits;              /* as declared, each field its
                                           struct_size leaves out read as
                                           "no limit" (candidate_load.c) */
} wire_probe;

typedef struct wire_response {
    uint32_t seq;
    int32_t phase;                      /* enum wire_phase */
    int32_t supports_status[WIRE_THREADS];
    int32_t status;
    int32_t out_rank;                   /* copied from the out page */
    int32_t fault_signal;               /* 0: none recorded */
    int32_t fault_write;                /* 1 write, 0 read, -1 unknown */
    int32_t fault_in_arena;
    uint64_t fault_addr;                /* arena offset when fault_in_arena */
    int64_t mem[WIRE_MEM_SAMPLES];      /* repeat: bytes in use */
    int32_t repeat_bad_status, repeat_bad_call;
    char last_error[256];
    /* what the worker saw right after the call returned and it sealed the
     * pages the parent judges (exec_seal.h; the worker's word: it may add
     * a finding, never remove one) */
    int32_t sealed_ok;                  /* 1: the pages were made read-only */
    int32_t sealed_threads;             /* the worker's threads then, 0: unknown */
    int32_t sealed_children;            /* 1: it had a child process then
                                           that it had not when the call
                                           began (running, or ended and
                                           not reaped: not waited for) */
    int32_t sealed_timer;               /* 1: an interval timer was armed then */
    int32_t sealed_quiet;               /* 1: pinned, and nothing of the
                                           candidate's ran between the return
                                           and the seal (exec_window.h): a
                                           thread the worker counted then and
                                           the parent did not is no finding */
    int32_t late_write;                 /* a write into the sealed pages after
                                           the return (WIRE_LATE_*), 0: none */
    int32_t call_threads;               /* the worker's threads when the call
                                           began, 0: unknown */
    uint64_t late_addr;                 /* its arena offset */
    /* threads: dst slots [0, thread_slots[t]) of thread t hold a call's
     * output each (status thread_status[t][i]): those that overlapped
     * another thread's call, then maybe the last that did not (slot iters - 2
     * is the spare once the others are full); calls it made, and how many
     * overlapped; slot iters - 1 holds one call made alone at the end */
    int32_t thread_slots[WIRE_THREADS], thread_calls[WIRE_THREADS];
    int32_t thread_overlaps[WIRE_THREADS];
    int32_t thread_status[WIRE_THREADS][WIRE_ITERS_MAX];
} wire_response;

/*
 * The batch page.  The parent writes `seq`, `n` and `cells` and sets
 * `running` to 0 and `started_ns` to the submit time; the worker, before
 * request k, stores `started_ns` (CLOCK_MONOTONIC) then `running` = k, and
 * after the last one `running` = n.  Both are read and written with
 * atomics: the parent reads them while the worker runs.  The whole page is
 * the worker's to write: the parent indexes nothing with it (it keeps its
 * own copy of `n` and `cells`, and a page that differs is the running
 * request's CRASH), clamps `running` and `started_ns` (wait.c).
 */
typedef struct wire_batch {
    uint32_t seq;
    int32_t n;
    int32_t cells[ARENA_CELLS];
    int32_t running;
    int32_t unused;
    int64_t started_ns;
} wire_batch;

/* Offsets of one cell's parts. */
typedef struct cell {
    size_t req_off, resp_off, out_off, src_off, src_size, dst_off, dst_size, end;
} cell;

typedef struct arena {
    int fd;
    size_t size, page;
    uint8_t *pview;                     /* parent's view (NULL in a worker) */
    uint8_t *wview;                     /* candidate's view (NULL when unused) */
    cell cells[ARENA_CELLS + 1];        /* the small cells, then the big one */
    int lazy;                           /* wview made ready a cell at a time */
    uint8_t ready[ARENA_CELLS + 1];     /* with `lazy`: cell i is ready */
} arena;

/*
 * The pages of a small dst area below dst are a moat: filled with
 * WIRE_MOAT_BYTE by the parent and checked afterwards, where a large area
 * has them raised to PROT_NONE for each call (two mprotect calls cost more
 * than a small request, under a hypervisor most of all).
 */
#define WIRE_MOAT_BYTE 0xA5
static inline int cell_has_moat(const struct cell *c)
{
    return c->dst_size <= ARENA_SMALL_AREA;
}

/* Offset of out_rank and out_dims in a cell's out page. */
#define WIRE_OUT_RANK_OFF(a, c) ((c)->out_off)
#define WIRE_OUT_DIMS_OFF(a, c) ((c)->out_off + (a)->page - RESHAPE_MAX_RANK * sizeof(int64_t))

/*
 * Creates an arena with ARENA_CELLS small cells and a big cell whose src
 * and dst areas hold at least `big_src` and `big_dst` bytes, mapped twice.
 * The candidate's view gets its protections.  Its memfd is sealed
 * (F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_SEAL) before it is handed to any
 * worker: its size never changes, so the parent's view never faults with
 * SIGBUS.  Returns 0, or -1 with errno set (EINVAL, EPERM: the memfd
 * cannot be sealed).
 */
int arena_create(arena *a, size_t big_src, size_t big_dst);
/*
 * Lays out an arena as arena_create does for the same `big_src` and
 * `big_dst`, and maps only the candidate's view of the memfd `fd` (which
 * it then owns): a worker process's side of an arena the parent created.
 * Returns 0, or -1 with errno set (EINVAL when the memfd's size is not
 * the layout's).
 */
int arena_attach(arena *a, int fd, size_t big_src, size_t big_dst);
/*
 * The candidate's view of the memfd `fd` for a worker forked from a zygote
 * (channel.h), made ready a cell at a time: lays `a` out as
 * arena_attach does and maps the batch page, every cell without access
 * until arena_ready_cell gives it its protections.  A worker that runs a
 * few requests pays for the cells it uses (3 mprotect calls each), not
 * for all of them, and a stray write into a cell it does not use faults.
 * Returns 0, or -1 with errno set (EINVAL when the size is not the
 * layout's).
 */
int arena_attach_lazy(arena *a, int fd, size_t big_src, size_t big_dst);
/* Gives cell `i` (0..ARENA_BIG) of a lazily attached view the protections
 * of arena_attach, once; does nothing for a view attached whole.  Returns
 * 0, or -1 with errno set. */
int arena_ready_cell(arena *a, int i);
/* Unmaps one view (a forked worker drops the parent's). */
void arena_drop_pview(arena *a);
void arena_drop_wview(arena *a);
/* Gives the memory of [off, off + len) back to the system (the bytes read
 * as 0 afterwards); for the big cell between large jobs. */
void arena_release(arena *a, size_t off, size_t len);
/* Maps the pages of view [off, off + len) in one call instead of a fault
 * per page (page faults are slow under some hypervisors): for writing, or
 * for reading.  Does nothing below ARENA_POPULATE_BYTES. */
#define ARENA_POPULATE_BYTES ((size_t)1 << 20)
void arena_populate(const arena *a, uint8_t *view, size_t off, size_t len, int write);
/*
 * Payloads above this are mapped by one process at a time: the parent
 * drops its mapping of them once staged, the worker drops its own after the
 * call, and the parent maps them again to judge.  A page mapped by two
 * processes costs nothing more, but counted per process (Pss) while one of
 * them is mapping it, it can be counted one and a half times.
 */
#define ARENA_HANDOFF_BYTES ((size_t)64 << 20)
/* Drops view [off, off + len)'s mapping of its pages (their bytes stay in
 * the memfd); does nothing below ARENA_HANDOFF_BYTES. */
void arena_unmap_pages(const arena *a, uint8_t *view, size_t off, size_t len);

/*
 * Maps every page of the small cells of `view` (the request and response
 * pages for writing, src for reading in the candidate's view), so that the
 * first batches take no page faults, then touches each page once: under a
 * hypervisor the first access to a page through a mapping can cost several
 * microseconds even after it is mapped (shadow page tables).  The parent's
 * view is touched by writing back a byte it read, the candidate's only by
 * reading (the parent may be staging into it already).  `candidate` says
 * which view.
 */
void arena_populate_cells(const arena *a, uint8_t *view, int candidate);
/* Unmaps both views and closes the memfd. */
void arena_destroy(arena *a);

static inline wire_batch *arena_batch(uint8_t *view)
{
    return (wire_batch *)view;
}

static inline wire_request *arena_request(const cell *c, uint8_t *view)
{
    return (wire_request *)(view + c->req_off);
}

static inline wire_response *arena_response(const cell *c, uint8_t *view)
{
    return (wire_response *)(view + c->resp_off);
}

/* the protocol's other half (after wire_probe, which its hello carries) */
#include "channel.h"
#include "fd_pass.h"

#endif
