/*
 * wire.h - the shared-memory arena between the harness (the parent) and a
 * worker process, and the request/response records in it.
 *
 * One arena per worker: a memfd mapped twice.  The parent's view is plain
 * read-write; the worker's view ("candidate view") has PROT_NONE guard
 * pages and a read-only src area.  The parent writes every input and the
 * initial dst, the worker only calls the candidate and records statuses,
 * and the parent judges from the buffers.  Offsets are in bytes from the
 * arena start.
 *
 *   request | response | out page | guard | src area | guard | dst area | guard
 *
 * The out page ends with out_dims (RESHAPE_MAX_RANK entries), so a write
 * past it faults; src and dst are placed to end at their area's end, so a
 * write past them faults; a guard before dst is raised per call.
 * Depends on the ABI header and case.h.
 */
#ifndef HARNESS_WIRE_H
#define HARNESS_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"
#include "reshape_candidate.h"

#define WIRE_THREADS 4
#define WIRE_ITERS_MAX 64
#define WIRE_MEM_SAMPLES 5

enum wire_kind {
    REQ_INFER = 1,   /* supports, then infer_shape of call[0] */
    REQ_EXECUTE,     /* supports, then execute of call[0] */
    REQ_THREADS,      /* ncalls threads, `iters` executes each, barrier-started */
    REQ_REPEAT       /* `warmup` + `calls` executes of call[0], memory sampled */
};

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
    int32_t unused;
    wire_tensor shape, src, dst;        /* shape.data_off is unused: values below */
    uint8_t shape_data[CASE_SHAPE_VALUES_MAX * 8];
} wire_call;

typedef struct wire_request {
    uint32_t seq, kind;
    int32_t ncalls;
    int32_t iters;                      /* threads: executes per thread */
    int64_t slot_bytes;                 /* threads: dst of thread t, iteration i
                                           at call[t].dst.data_off + i * slot_bytes */
    int32_t warmup, calls, sample_every;/* repeat */
    int32_t unused;
    wire_call call[WIRE_THREADS];
} wire_request;

/* What the worker found when it loaded the candidate. */
typedef struct wire_probe {
    int32_t state;                      /* 0 not yet, 1 loaded, 2 refused */
    uint32_t abi_version, struct_size;
    char name[128], version[128];
    char message[512];                  /* why it was refused */
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
    int32_t thread_status[WIRE_THREADS][WIRE_ITERS_MAX];
    int64_t mem[WIRE_MEM_SAMPLES];      /* repeat: bytes in use */
    int32_t repeat_bad_status, repeat_bad_call;
    char last_error[256];
    wire_probe probe;
} wire_response;

typedef struct arena {
    int fd;
    size_t size, page;
    uint8_t *pview;                     /* parent's view (NULL in a worker) */
    uint8_t *wview;                     /* candidate's view (NULL when unused) */
    size_t req_off, resp_off, out_off, src_off, src_size, dst_off, dst_size;
} arena;

/* Offset of out_rank and out_dims in the out page. */
#define WIRE_OUT_RANK_OFF(a) ((a)->out_off)
#define WIRE_OUT_DIMS_OFF(a) ((a)->out_off + (a)->page - RESHAPE_MAX_RANK * sizeof(int64_t))

/*
 * Creates an arena whose src and dst areas hold at least `src_bytes` and
 * `dst_bytes`, mapped twice.  The candidate's view gets its protections.
 * Returns 0, or -1 with errno set.
 */
int arena_create(arena *a, size_t src_bytes, size_t dst_bytes);
/* Unmaps one view (after fork: the worker drops the parent's, the parent
 * the worker's). */
void arena_drop_pview(arena *a);
void arena_drop_wview(arena *a);
/* Unmaps both views and closes the memfd. */
void arena_destroy(arena *a);

static inline wire_request *arena_request(const arena *a, uint8_t *view)
{
    return (wire_request *)(view + a->req_off);
}

static inline wire_response *arena_response(const arena *a, uint8_t *view)
{
    return (wire_response *)(view + a->resp_off);
}

#endif
