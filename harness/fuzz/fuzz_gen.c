/*
 * fuzz_gen.c - random requests biased to the edges, and their expected
 * outcome from the reference (fuzz.h).  Depends on case.h, fill.h and the
 * ABI header.
 */
#include "fuzz_case.h"

#include <string.h>

#include "base/base.h"
#include "suite/suite.h"

/* A draw in [0, n). */
static uint64_t below(uint64_t *st, uint64_t n)
{
    return splitmix64_next(st) % n;
}

/* One chance in `n`. */
static int one_in(uint64_t *st, uint64_t n)
{
    return below(st, n) == 0;
}

static const reshape_dtype subbyte[] = {RESHAPE_DT_U1, RESHAPE_DT_U4, RESHAPE_DT_S4};

/* Dims near the limits of int32, uint32 and int64 products. */
static const int64_t huge[] = {
    INT64_C(2147483647), INT64_C(2147483648), INT64_C(4294967295), INT64_C(4294967296),
    INT64_C(4611686018427387904), INT64_C(9223372036854775807)};

static int64_t small_dim(uint64_t *st)
{
    if (one_in(st, 8))
        return 0;
    if (one_in(st, 3))
        return 1;
    return (int64_t)(1 + below(st, 5));
}

/* The product of dims[0..n), or -1 past INT64_MAX. */
static int64_t product(const int64_t *dims, int n)
{
    int64_t v = 1;
    for (int i = 0; i < n; i++) {
        if (dims[i] == 0)
            return 0;
    }
    for (int i = 0; i < n; i++) {
        if (v > INT64_MAX / dims[i])
            return -1;
        v *= dims[i];
    }
    return v;
}

/* A target shape of volume `vol`: the input dims, merged or split. */
static int derive_shape(uint64_t *st, const rcase *c, int64_t *out)
{
    int n = 0;
    for (int i = 0; i < c->rank && n < 8; i++) {
        int64_t d = c->dims[i];
        if (n > 0 && one_in(st, 3) && out[n - 1] != 0 && d != 0 && out[n - 1] <= INT64_MAX / d)
            out[n - 1] *= d;                    /* merge with the previous */
        else if (d % 2 == 0 && d > 2 && one_in(st, 3) && n < 7) {
            out[n++] = 2;                       /* split */
            out[n++] = d / 2;
        } else
            out[n++] = d;
    }
    while (n < 8 && one_in(st, 4))
        out[n++] = 1;
    return n;
}

static reshape_dtype shape_dtype_for(uint64_t *st, const rcase *c)
{
    int64_t lo = 0, hi = 0;
    for (int i = 0; i < c->nvalues; i++) {
        int64_t v = (int64_t)c->values[i];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    uint64_t r = below(st, 10);
    if (r < 6)
        return RESHAPE_DT_S64;
    if (r < 8 && lo >= INT32_MIN && hi <= INT32_MAX)
        return RESHAPE_DT_S32;
    if (r == 8 && lo >= 0 && hi <= 255)
        return RESHAPE_DT_U8;
    if (r == 9 && lo >= INT8_MIN && hi <= INT8_MAX)
        return RESHAPE_DT_S8;
    return RESHAPE_DT_S64;
}

/* Edits the derived target values: -1, 0 (a copy, often of a dim near the
 * rank), values below -1 and huge values. */
static void edit_values(uint64_t *st, rcase *c)
{
    for (int i = 0; i < c->nvalues; i++) {
        uint64_t r = below(st, 40);
        if (r < 8)
            c->values[i] = (uint64_t)INT64_C(-1);
        else if (r < 15)
            c->values[i] = 0;
        else if (r == 15)
            c->values[i] = (uint64_t)(-2 - (int64_t)below(st, 3));
        else if (r == 16)
            c->values[i] = (uint64_t)huge[below(st, 6)];
        else if (r == 17)
            c->values[i] = below(st, 7);
    }
    /* copying zeros near the rank: one past it, at it, one before */
    if (one_in(st, 6)) {
        int at = c->rank + (int)below(st, 3) - 1;
        if (at >= 0 && at < CASE_SHAPE_VALUES_MAX && at < 16) {
            while (c->nvalues <= at)
                c->values[c->nvalues++] = 1;
            c->values[at] = 0;
        }
    }
}

void fuzz_generate(rcase *c, uint64_t seed, unsigned ops)
{
    memset(c, 0, sizeof *c);
    uint64_t st = seed;
    int opv[RESHAPE_OP_COUNT], nop = 0;
    for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
        if (!ops || (ops & (1u << op)))
            opv[nop++] = op;
    c->op = (reshape_op)opv[below(&st, (uint64_t)nop)];
    c->dtype = one_in(&st, 4) ? subbyte[below(&st, 3)]
                              : (reshape_dtype)(1 + below(&st, RESHAPE_DT_COUNT));
    c->rank = one_in(&st, 10) ? 0 : one_in(&st, 20) ? (int32_t)(5 + below(&st, 4))
                                                   : (int32_t)(1 + below(&st, 4));
    for (int i = 0; i < c->rank; i++)
        c->dims[i] = one_in(&st, 30) ? huge[below(&st, 6)] : small_dim(&st);
    if (product(c->dims, c->rank) < 0)
        for (int i = 0; i < c->rank; i++)
            c->dims[i] = c->dims[i] > 8 ? 1 : c->dims[i];
    int64_t target[8];
    c->nvalues = one_in(&st, 12) ? (int)below(&st, 3) : derive_shape(&st, c, target);
    for (int i = 0; i < c->nvalues; i++)
        c->values[i] = c->nvalues <= 8 && i < 8 ? (uint64_t)target[i] : 1;
    if (c->nvalues && c->nvalues <= 2 && one_in(&st, 12))
        for (int i = 0; i < c->nvalues; i++)
            c->values[i] = (uint64_t)small_dim(&st);
    if (!one_in(&st, 3))
        edit_values(&st, c);
    c->special_zero = (int)below(&st, 2);
    fuzz_wrap(c, seed);
    c->shape_dtype = shape_dtype_for(&st, c);
    c->shape_rank = c->nvalues == 1 && one_in(&st, 8) ? 0 : 1;
    c->data.kind = FILL_RANDOM;
    c->data.seed = seed;
    c->id = xasprintf("fuzz_%llu", (unsigned long long)seed);
    if (fuzz_finish(c)) {
        c->shape_dtype = RESHAPE_DT_S64;
        for (int i = 0; i < c->rank; i++)
            c->dims[i] = c->dims[i] > 8 ? 1 : c->dims[i];
        fuzz_finish(c);
    }
}

int fuzz_finish(rcase *c)
{
    int64_t vol = product(c->dims, c->rank);
    if (vol < 0)
        return -1;
    c->volume = (uint64_t)vol;
    c->payload_bytes = payload_size(c->volume, reshape_dtype_bits(c->dtype));
    c->infer_only = c->payload_bytes > FUZZ_MAX_PAYLOAD;
    if (c->shape_rank == 1)
        c->shape_dims[0] = c->nvalues;
    else if (c->nvalues != 1)
        c->shape_rank = 1, c->shape_dims[0] = c->nvalues;
    unsigned bits = reshape_dtype_bits(c->shape_dtype);
    int sign = c->shape_dtype == RESHAPE_DT_S64 || c->shape_dtype == RESHAPE_DT_S32 ||
               c->shape_dtype == RESHAPE_DT_S16 || c->shape_dtype == RESHAPE_DT_S8;
    for (int i = 0; i < c->nvalues; i++) {
        int64_t v = (int64_t)c->values[i];
        if (bits < 64) {
            int64_t lo = sign ? -(INT64_C(1) << (bits - 1)) : 0;
            int64_t hi = sign ? (INT64_C(1) << (bits - 1)) - 1 : (INT64_C(1) << bits) - 1;
            if (v < lo || v > hi)
                return -1;
        } else if (!sign && v < 0) {
            return -1;
        }
        uint64_t le = c->values[i];
        memcpy(c->shape_bytes + (size_t)i * (bits / 8), &le, bits / 8);
    }
    c->shape_nbytes = (size_t)c->nvalues * (bits / 8);
    return 0;
}

int fuzz_expect(rcase *c, const reshape_candidate *ref)
{
    reshape_tensor shape = {c->shape_dtype, c->shape_rank, c->shape_dims, NULL, c->shape_bytes};
    reshape_params p = {c->op, c->special_zero, &shape};
    reshape_tensor src = {c->dtype, c->rank, c->dims, NULL, NULL};
    outcome *o = &c->outcomes[0];
    memset(o, 0, sizeof *o);
    int32_t rank = 0;
    reshape_status st = ref->infer_shape(&p, &src, &rank, o->dims);
    c->noutcomes = 1;
    if (st == RESHAPE_OK) {
        o->rank = rank;
    } else if (st == RESHAPE_E_NOT_SUPPORTED || !reshape_status_name(st)) {
        return -1;
    } else {
        o->is_error = 1;
        o->error = st;
    }
    fuzz_layout(c);
    return 0;
}
