/*
 * probe.h - the equivalence probe of tools/mutation: random valid calls of
 * the candidate ABI made on two builds of the reference (the original and
 * a mutant), each in a forked child, and compared: infer_shape's status and
 * dims, execute's status (or the signal that ended the child), and every
 * byte of src, dst and the guard bands around them.  probe_draw.c draws the
 * calls, probe.c runs and compares them.  Depends on the ABI header and the
 * harness's splitmix64 (harness/suite/fill.h).
 *
 * Calls are valid under include/reshape_candidate.h (D12): any dtype, ranks
 * 0 to 6, dims 0 to 5 (often 0 and 1), dense or strided src (padded and
 * permuted views, a stride of 0 on any dim, any stride on a size-1 dim),
 * dense or strided dst (now and then with small strides whose elements may
 * overlap, which execute refuses), in place (dense, or refused with strides
 * on one side), shape values
 * derived from the input and edited (-1, 0, others), both special_zero
 * settings, the shape tensor mostly in a dtype its op allows.  One call in
 * 25 reaches near the 2^63-bit limit (huge strides or dense dims over a
 * small buffer).  Nothing here knows which outcome is right: the original
 * build's answer is the one the mutant must give.
 */
#ifndef TOOLS_MUTATION_PROBE_H
#define TOOLS_MUTATION_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "reshape_candidate.h"

#define PROBE_RANK_MAX 6    /* the largest input rank drawn */
#define PROBE_VALUES_MAX 8  /* the most shape values drawn */
#define PROBE_GUARD 64      /* bytes of random fill before and after a tensor */
#define PROBE_FAR_BYTES 64  /* the buffer of a tensor reaching near 2^63 bits */
/* The largest arena a call needs: a strided layout that would need more is
 * drawn dense instead. */
#define PROBE_ARENA_CAP ((size_t)4 << 20)

/* A tensor of a call and where its buffer lies in the arena. */
typedef struct probe_tensor {
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    int64_t strides[RESHAPE_MAX_RANK];
    int strided;  /* 1: strides are passed; 0: NULL (dense) */
    size_t at;    /* byte offset of data in the arena */
    size_t bytes; /* bytes of the buffer data points into */
} probe_tensor;

/* One call: infer_shape(params, src), then execute(params, src, dst). */
typedef struct probe_call {
    reshape_op op;
    int special_zero;
    reshape_dtype dtype;
    probe_tensor src, dst;
    reshape_dtype shape_dtype;
    int32_t shape_rank;        /* 1, or 0 or 2 now and then */
    int64_t shape_dims[2];
    int nvalues;
    int64_t values[PROBE_VALUES_MAX];
    unsigned char shape_bytes[8 * PROBE_VALUES_MAX];
    int in_place; /* dst->data == src->data (with strides: refused) */
    int plain;    /* the child runs with RESHAPE_REF_PLAIN=1 */
    int far;      /* a tensor reaches near the 2^63-bit limit */
    size_t arena_bytes;
    uint64_t fill; /* seed of the arena's random bytes */
} probe_call;

/*
 * Fills `c` with call number `index` of the run seeded `seed`.  dst's dims
 * are what `original`'s infer_shape gives, or src's dims when it refuses
 * (as the harness builds an error case's dst).  Deterministic in (seed,
 * index) and the original's answers.
 */
void probe_draw(probe_call *c, uint64_t seed, uint64_t index,
                const reshape_candidate *original);

/* One line describing `c` (op, special_zero, tensors, shape) into `buf`. */
void probe_describe(const probe_call *c, char *buf, size_t size);

#endif
