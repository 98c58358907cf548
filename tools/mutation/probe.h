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
 * on one side), shape values derived from the input and edited (-1, 0,
 * others), both special_zero settings, the shape tensor mostly in a dtype
 * its op allows.  Beside them (probe_kinds.c): near the 2^63-bit limit
 * (huge strides or dense dims over a small buffer); dsts that reach the
 * overlap test's enumeration with bitmaps of one to thousands of words, and
 * of more than the allocator grants; ranks 7 to 16 with dims of 1; misuse
 * (NULL pointers, NULL dims at rank 0, NULL data at volume 0, rank 33,
 * negative dims and strides, values outside the enums); src and dst that
 * partly overlap (outside the ABI: only the statuses and dims are
 * compared there, and only when both builds returned).  Nothing here knows which outcome is
 * right: the original build's answer is the one the mutant must give.
 */
#ifndef TOOLS_MUTATION_PROBE_H
#define TOOLS_MUTATION_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "reshape_candidate.h"

#define PROBE_RANK_MAX 6    /* the largest input rank drawn */
#define PROBE_RANK_WIDE 16  /* the largest rank of the wide draws */
#define PROBE_VALUES_MAX 16 /* the most shape values drawn */
#define PROBE_GUARD 64      /* bytes of random fill before and after a tensor */
#define PROBE_FAR_BYTES 64  /* the buffer of a tensor reaching near 2^63 bits */
/* The largest arena a call needs: a strided layout that would need more is
 * drawn dense instead. */
#define PROBE_ARENA_CAP ((size_t)4 << 20)

/* What kind of call: how it was drawn (probe_kinds.c). */
enum probe_kind {
    PROBE_PLAIN,     /* the valid calls above */
    PROBE_FAR,       /* near the 2^63-bit limit */
    PROBE_ENUM,      /* a dst the overlap test enumerates */
    PROBE_ENUM_HUGE, /* one whose bitmap the allocator refuses */
    PROBE_WIDE,      /* ranks 7 to 16, dims of 1 */
    PROBE_MISUSE,    /* a misuse the ABI defines the answer to */
    PROBE_PARTIAL,   /* src and dst partly overlap (outside the ABI) */
    PROBE_KINDS
};

/* The misuse of a PROBE_MISUSE call, applied when the call is made. */
enum probe_misuse {
    MISUSE_NONE,
    MISUSE_SRC_DIMS_NULL,   /* at rank 0: allowed */
    MISUSE_DST_DIMS_NULL,   /* at rank 0: allowed */
    MISUSE_SHAPE_DIMS_NULL, /* shape rank 0: allowed */
    MISUSE_SRC_DATA_NULL,   /* at volume 0: allowed */
    MISUSE_DST_DATA_NULL,   /* at volume 0: allowed */
    MISUSE_PARAMS_NULL,
    MISUSE_SRC_NULL,
    MISUSE_DST_NULL,
    MISUSE_SHAPE_NULL,
    MISUSE_OUT_RANK_NULL,
    MISUSE_OUT_DIMS_NULL,
    MISUSE_RANK_ABOVE_MAX, /* src rank 33, dims padded with 1 */
    MISUSE_RANK_NEGATIVE,
    MISUSE_DIM_NEGATIVE,
    MISUSE_STRIDE_NEGATIVE,
    MISUSE_DTYPE_UNKNOWN,
    MISUSE_OP_UNKNOWN,
    MISUSE_SPECIAL_ZERO_2,
    MISUSE_COUNT
};

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
    int kind;     /* enum probe_kind */
    int misuse;   /* enum probe_misuse */
    int flush_front; /* the arena starts at the guard page before it (else
                      * it ends at the one after it) */
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

/* The draws of probe_kinds.c, each filling `c` (zeroed, with fill, plain,
 * op, dtype and special_zero drawn) from the generator state *st. */
void probe_draw_enum(uint64_t *st, probe_call *c, const reshape_candidate *original);
void probe_draw_wide(uint64_t *st, probe_call *c, const reshape_candidate *original);
void probe_draw_misuse(uint64_t *st, probe_call *c, const reshape_candidate *original);
void probe_draw_partial(uint64_t *st, probe_call *c, const reshape_candidate *original);

/* ", src NULL" and the like for a misuse; "" for none. */
const char *probe_misuse_name(int misuse);

/* Helpers of probe_draw.c the kinds share: random numbers, the shape's
 * values and tensor, dst's dims from the original's inference, buffers in
 * the arena (with `tight`: no guard bands, src at the arena's start and dst
 * at its end), a padded permuted view. */
uint64_t probe_below(uint64_t *st, uint64_t n);
void probe_values(uint64_t *st, probe_call *c);
void probe_shape(uint64_t *st, probe_call *c);
void probe_infer_dst(probe_call *c, const reshape_candidate *original);
void probe_place(uint64_t *st, probe_call *c, int tight);
void probe_view(uint64_t *st, probe_tensor *t);

/*
 * Where dst of `c` ends in the overlap test of reference/DECISIONS.md D12,
 * computed here on its own: 0 when step 1 to 4 decides, else the words of
 * step 5's bitmap ((largest offset) / 64 + 1).  Only for dims and strides
 * whose offsets fit int64.
 */
uint64_t probe_bitmap_words(const probe_call *c);

/* One line describing `c` (op, special_zero, tensors, shape) into `buf`. */
void probe_describe(const probe_call *c, char *buf, size_t size);

#endif
