/*
 * probe_draw.c - the random valid calls of the equivalence probe
 * (probe.h): tensors, layouts, shape values and where each buffer lies in
 * the arena.  Depends on probe.h and the harness's splitmix64.
 */
#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "suite/fill.h"

uint64_t probe_below(uint64_t *st, uint64_t n)
{
    return splitmix64_next(st) % n;
}

static uint64_t below(uint64_t *st, uint64_t n)
{
    return probe_below(st, n);
}

static int one_in(uint64_t *st, uint64_t n)
{
    return below(st, n) == 0;
}

/* Strides a size-1 dim may carry: they never move the address (D12). */
static const int64_t any_strides[] = {0, 1, 3, INT64_C(1) << 40, INT64_C(1) << 58,
                                      INT64_C(1) << 62, INT64_MAX};
#define ANY_STRIDES (sizeof any_strides / sizeof any_strides[0])

static int64_t draw_dim(uint64_t *st)
{
    uint64_t r = below(st, 10);
    return r == 0 ? 0 : r < 4 ? 1 : (int64_t)(2 + below(st, 4));
}

/* The volume, INT64_MAX past int64 (an empty tensor beside huge inferred
 * dims is 0). */
static int64_t volume_of(const probe_tensor *t)
{
    int64_t v = 1;
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] == 0)
            return 0;
    for (int32_t i = 0; i < t->rank; i++)
        v = t->dims[i] > INT64_MAX / v ? INT64_MAX : v * t->dims[i];
    return v;
}

/* Elements the buffer of a drawn tensor holds: 0 when empty; dense, the
 * volume; strided, 1 + sum((d - 1) * stride) over the dims above 1. */
static uint64_t extent_of(const probe_tensor *t)
{
    int64_t v = volume_of(t);
    if (v == 0 || !t->strided)
        return (uint64_t)v;
    uint64_t last = 0;
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] > 1)
            last += (uint64_t)(t->dims[i] - 1) * (uint64_t)t->strides[i];
    return last + 1;
}

/*
 * A padded view in a permuted order: the dims laid out from a random
 * innermost one outwards, each stride past the extent of the ones inside
 * it (0 to 2 elements of padding), so no two elements share an offset;
 * then a size-1 dim takes any stride now and then, and on an empty tensor
 * every stride is any.
 */
void probe_view(uint64_t *st, probe_tensor *t)
{
    int order[RESHAPE_MAX_RANK];
    for (int i = 0; i < t->rank; i++)
        order[i] = i;
    for (int i = t->rank - 1; i > 0 && one_in(st, 2); i--) {
        int j = (int)below(st, (uint64_t)i + 1), k = order[i];
        order[i] = order[j];
        order[j] = k;
    }
    int64_t running = 1;
    int empty = volume_of(t) == 0;
    for (int k = t->rank - 1; k >= 0; k--) {
        int j = order[k];
        t->strides[j] = running;
        int64_t pad = (int64_t)below(st, 3);
        if (!empty) /* an empty tensor's dims may be huge: any strides */
            running = running * t->dims[j] + pad;
        if ((t->dims[j] == 1 && one_in(st, 2)) || empty)
            t->strides[j] = any_strides[below(st, ANY_STRIDES)];
    }
    t->strided = 1;
}

/* src only: a stride of 0 on a dim above 1 (a broadcast), or a small one
 * whose offsets coincide with other elements'. */
static void overlap_strides(uint64_t *st, probe_tensor *t)
{
    for (int32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] < 2)
            continue;
        if (one_in(st, 5))
            t->strides[i] = 0;
        else if (one_in(st, 12))
            t->strides[i] = (int64_t)below(st, 4);
    }
}

/* dst only: small strides (0 to 6) on its dims above 1, so that its
 * elements may share offsets: a call execute must refuse with nothing
 * written, unless the strides happen to keep every offset apart.  Reaches
 * each step of the reference's overlap test (a stride of 0, nested
 * strides, more elements than offsets, the enumeration). */
static void clash_strides(uint64_t *st, probe_tensor *t)
{
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] > 1 && one_in(st, 2))
            t->strides[i] = (int64_t)below(st, 7);
}

/* The shape's values: the input dims merged or split, then edited. */
void probe_values(uint64_t *st, probe_call *c)
{
    int n = 0;
    for (int32_t i = 0; i < c->src.rank && n < PROBE_VALUES_MAX; i++) {
        int64_t d = c->src.dims[i];
        if (n > 0 && one_in(st, 3))
            c->values[n - 1] *= d;
        else if (d == 4 && n + 2 <= PROBE_VALUES_MAX && one_in(st, 2))
            c->values[n++] = 2, c->values[n++] = 2;
        else
            c->values[n++] = d;
    }
    if (n < PROBE_VALUES_MAX && one_in(st, 6))
        c->values[n++] = 1;
    if (one_in(st, 10)) {
        n = (int)below(st, 4);
        for (int i = 0; i < n; i++)
            c->values[i] = (int64_t)below(st, 7);
    }
    c->nvalues = n;
    for (int i = 0; i < n; i++) {
        uint64_t r = below(st, 12);
        if (r == 0)
            c->values[i] = -1;
        else if (r == 1)
            c->values[i] = 0;
        else if (r == 2)
            c->values[i] = -1 - (int64_t)below(st, 3);
        else if (r == 3)
            c->values[i] = (int64_t)below(st, 7);
    }
}

/* The shape tensor's dtype: mostly one its op allows (D7), now and then
 * any dtype at all; its values stored in that dtype's width, little-endian. */
void probe_shape(uint64_t *st, probe_call *c)
{
    static const reshape_dtype openvino[] = {
        RESHAPE_DT_S64, RESHAPE_DT_S32, RESHAPE_DT_S16, RESHAPE_DT_S8,
        RESHAPE_DT_U64, RESHAPE_DT_U32, RESHAPE_DT_U16, RESHAPE_DT_U8};
    if (one_in(st, 16))
        c->shape_dtype = (reshape_dtype)(1 + below(st, RESHAPE_DT_COUNT));
    else if (c->op == RESHAPE_OP_OPENVINO_RESHAPE_1)
        c->shape_dtype = openvino[below(st, 8)];
    else
        c->shape_dtype = c->op == RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1 ? RESHAPE_DT_S32
                                                                      : RESHAPE_DT_S64;
    unsigned width = reshape_dtype_bits(c->shape_dtype) / 8;
    width = width ? width : 1;
    for (int i = 0; i < c->nvalues; i++)
        for (unsigned b = 0; b < width; b++)
            c->shape_bytes[(unsigned)i * width + b] =
                (unsigned char)((uint64_t)c->values[i] >> (8 * b));
    c->shape_rank = 1;
    c->shape_dims[0] = c->nvalues;
    if (one_in(st, 16)) {
        c->shape_rank = c->nvalues == 1 ? 0 : 2;
        c->shape_dims[0] = 1;
        c->shape_dims[1] = c->nvalues;
    }
}

/* dst's dims: the original's inference, else src's dims. */
void probe_infer_dst(probe_call *c, const reshape_candidate *original)
{
    reshape_tensor shape = {c->shape_dtype, c->shape_rank, c->shape_dims, NULL, c->shape_bytes};
    reshape_params p = {c->op, c->special_zero, &shape};
    reshape_tensor src = {c->dtype, c->src.rank, c->src.dims, NULL, NULL};
    int32_t rank = 0;
    if (original->infer_shape(&p, &src, &rank, c->dst.dims) == RESHAPE_OK) {
        c->dst.rank = rank;
        return;
    }
    c->dst.rank = c->src.rank;
    memcpy(c->dst.dims, c->src.dims, sizeof c->dst.dims);
}

/*
 * A call near the 2^63-bit limit: a stride that puts the last element a
 * few elements either side of the header's bound, on src or on dst (on the
 * outer or the inner dim, on dst now and then beside a 0); dense
 * dims of 2^59 elements and more (a suffix product just below INT64_MAX
 * among them); strides whose offsets leave int64.  Every buffer is
 * PROBE_FAR_BYTES: such a tensor is refused, or read past.  The shape
 * copies every dim ([0, 0, 0], special_zero), so dst has src's dims.
 */
static void draw_far(uint64_t *st, probe_call *c)
{
    static const int64_t huge_dims[][3] = {
        {1, INT64_C(1) << 29, INT64_C(1) << 30}, {1, INT64_MAX, 1},
        {1, INT64_C(1) << 31, INT64_C(1) << 31}, {1, INT64_C(1) << 40, INT64_C(1) << 22},
        {1, (INT64_C(1) << 31) - 1, INT64_C(1) << 32}};
    int64_t bound = (INT64_MAX - 7) / reshape_dtype_bits(c->dtype) - 1;
    int64_t m = 1 + (int64_t)below(st, 3);
    uint64_t kind = below(st, 4);
    c->far = 1;
    c->op = RESHAPE_OP_OPENVINO_RESHAPE_1;
    c->special_zero = 1;
    c->src.rank = 2;
    c->src.dims[0] = 2;
    c->src.dims[1] = kind == 3 ? 2 : m;
    if (kind == 2) {
        c->src.rank = 3;
        memcpy(c->src.dims, huge_dims[below(st, 5)], sizeof huge_dims[0]);
        if (one_in(st, 2))
            c->dtype = RESHAPE_DT_U1; /* the only one whose bits fit them */
    }
    probe_tensor *t = kind == 1 ? &c->dst : &c->src;
    if (kind == 3) {
        t->strides[0] = t->strides[1] = INT64_C(1) << 62;
        t->strided = 1;
    } else if (kind != 2) {
        t->strides[0] = bound - (m - 1) + (int64_t)below(st, 5) - 2;
        t->strides[1] = 1;
        t->strided = 1;
        /* now and then a dst whose elements overlap (a 0 on the dim of m),
         * or a permuted tensor (the huge stride on the inner dim) */
        if (kind == 1 && m > 1 && one_in(st, 4)) {
            t->strides[1] = 0;
        } else if (one_in(st, 3)) {
            c->src.dims[0] = m;
            c->src.dims[1] = 2;
            t->strides[1] = t->strides[0];
            t->strides[0] = 1;
        }
    }
    c->nvalues = c->src.rank; /* values stay 0 */
    c->shape_dtype = RESHAPE_DT_S64;
    c->shape_rank = 1;
    c->shape_dims[0] = c->nvalues;
    c->dst.rank = c->src.rank;
    memcpy(c->dst.dims, c->src.dims, sizeof c->dst.dims);
    c->src.bytes = c->dst.bytes = PROBE_FAR_BYTES;
}

/* Buffers in the arena: a guard band, src, a guard band, dst, a guard band,
 * each tensor 0 to 7 bytes off the 8-byte grid; in place, one buffer.  With
 * `tight` no guard bands: src starts the arena and dst ends it, so that
 * the guard page before it or after it (probe.c) is next to the tensor. */
void probe_place(uint64_t *st, probe_call *c, int tight)
{
    unsigned bits = reshape_dtype_bits(c->dtype);
    if (!c->far) {
        c->src.bytes = (extent_of(&c->src) * bits + 7) / 8;
        c->dst.bytes = (extent_of(&c->dst) * bits + 7) / 8;
    }
    size_t guard = tight ? 0 : PROBE_GUARD;
    c->src.at = tight ? 0 : PROBE_GUARD + below(st, 8);
    if (c->in_place) {
        c->dst.at = c->src.at;
        if (c->dst.bytes > c->src.bytes)
            c->src.bytes = c->dst.bytes;
        c->arena_bytes = c->src.at + c->src.bytes + guard;
        return;
    }
    c->dst.at = tight ? c->src.bytes
                      : (c->src.at + c->src.bytes + PROBE_GUARD + 7) / 8 * 8 + below(st, 8);
    c->arena_bytes = c->dst.at + c->dst.bytes + guard;
}

void probe_draw(probe_call *c, uint64_t seed, uint64_t index,
                const reshape_candidate *original)
{
    uint64_t st = seed * UINT64_C(0x9E3779B97F4A7C15) ^ index;
    memset(c, 0, sizeof *c);
    splitmix64_next(&st);
    c->fill = splitmix64_next(&st);
    c->plain = (int)below(&st, 2);
    c->op = (reshape_op)(1 + below(&st, RESHAPE_OP_COUNT));
    c->dtype = one_in(&st, 4) ? (reshape_dtype)(RESHAPE_DT_S4 + below(&st, 3))
                              : (reshape_dtype)(1 + below(&st, RESHAPE_DT_COUNT));
    /* oneDNN's ops take f32, f16 and bf16 (D5): mostly one of those */
    if ((c->op == RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1 ||
         c->op == RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1) && !one_in(&st, 8))
        c->dtype = (reshape_dtype)(RESHAPE_DT_F32 + below(&st, 3));
    c->special_zero = (int)below(&st, 2);
    c->flush_front = one_in(&st, 2);
    uint64_t kind = below(&st, 100);
    if (kind < 4) {
        c->kind = PROBE_FAR;
        draw_far(&st, c);
        probe_place(&st, c, 0);
        return;
    }
    if (kind < 14) {
        probe_draw_enum(&st, c, original);
        return;
    }
    if (kind < 20) {
        probe_draw_wide(&st, c, original);
        return;
    }
    if (kind < 28) {
        probe_draw_misuse(&st, c, original);
        return;
    }
    if (kind < 31) {
        probe_draw_partial(&st, c, original);
        return;
    }
    c->src.rank = (int32_t)below(&st, PROBE_RANK_MAX + 1);
    for (int32_t i = 0; i < c->src.rank; i++)
        c->src.dims[i] = draw_dim(&st);
    probe_values(&st, c);
    probe_shape(&st, c);
    probe_infer_dst(c, original);
    uint64_t layout = below(&st, 8);
    if (layout == 0) {
        c->in_place = 1;
        /* now and then with strides on one side: refused (D12) */
        if (one_in(&st, 4))
            probe_view(&st, one_in(&st, 2) ? &c->src : &c->dst);
    }
    if (layout >= 4 || layout == 2) {
        probe_view(&st, &c->src);
        overlap_strides(&st, &c->src);
    }
    if (layout >= 3) {
        probe_view(&st, &c->dst);
        if (one_in(&st, 4))
            clash_strides(&st, &c->dst);
    }
    int tight = one_in(&st, 3);
    probe_place(&st, c, tight);
    if (c->arena_bytes > PROBE_ARENA_CAP) {
        c->src.strided = c->dst.strided = 0;
        probe_place(&st, c, tight);
    }
}

/* "[a, b]" of `n` values into buf at *at. */
static void put_list(char *buf, size_t size, size_t *at, const int64_t *v, int n)
{
    for (int i = 0; i < n && *at < size; i++)
        *at += (size_t)snprintf(buf + *at, size - *at, "%s%lld", i ? ", " : "[", (long long)v[i]);
    if (*at < size)
        *at += (size_t)snprintf(buf + *at, size - *at, n ? "]" : "[]");
}

static void put_tensor(char *buf, size_t size, size_t *at, const char *name,
                       const probe_tensor *t)
{
    if (*at < size)
        *at += (size_t)snprintf(buf + *at, size - *at, " %s dims ", name);
    put_list(buf, size, at, t->dims, t->rank);
    if (*at < size)
        *at += (size_t)snprintf(buf + *at, size - *at, " strides ");
    if (t->strided)
        put_list(buf, size, at, t->strides, t->rank);
    else if (*at < size)
        *at += (size_t)snprintf(buf + *at, size - *at, "dense");
}

void probe_describe(const probe_call *c, char *buf, size_t size)
{
    size_t at = 0;
    at += (size_t)snprintf(buf, size, "%s special_zero %d %s:", reshape_op_name(c->op),
                           c->special_zero, reshape_dtype_name(c->dtype));
    put_tensor(buf, size, &at, "src", &c->src);
    if (at < size)
        at += (size_t)snprintf(buf + at, size - at, " shape %s rank %d ",
                               reshape_dtype_name(c->shape_dtype), (int)c->shape_rank);
    put_list(buf, size, &at, c->values, c->nvalues);
    put_tensor(buf, size, &at, "dst", &c->dst);
    if (at < size)
        snprintf(buf + at, size - at, "%s%s%s%s%s", c->in_place ? ", in place" : "",
                 c->plain ? ", RESHAPE_REF_PLAIN=1" : "",
                 c->far ? ", near the 2^63-bit limit" : "",
                 c->kind == PROBE_PARTIAL ? ", src and dst partly overlap" : "",
                 c->misuse ? probe_misuse_name(c->misuse) : "");
}
