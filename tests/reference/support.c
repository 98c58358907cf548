/*
 * support.c - helpers shared by the reference's tests; see support.h.
 * Written independently of the reference's own code: the index model uses
 * division where the reference walks an odometer, and element access is
 * written again from the ABI header's packing rules.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"

const reshape_dtype all_dtypes[RESHAPE_DT_COUNT] = {
    RESHAPE_DT_F64,    RESHAPE_DT_F32,    RESHAPE_DT_F16, RESHAPE_DT_BF16,
    RESHAPE_DT_F8E4M3, RESHAPE_DT_F8E5M2, RESHAPE_DT_S64, RESHAPE_DT_S32,
    RESHAPE_DT_S16,    RESHAPE_DT_S8,     RESHAPE_DT_U64, RESHAPE_DT_U32,
    RESHAPE_DT_U16,    RESHAPE_DT_U8,     RESHAPE_DT_S4,  RESHAPE_DT_U4,
    RESHAPE_DT_U1,     RESHAPE_DT_BOOLEAN};

const reshape_candidate *ref(void)
{
    return reshape_candidate_v1();
}

/* ============================================================== bytes */

size_t first_difference(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;

    if (n == 0 || memcmp(a, b, n) == 0)
        return n;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return i;
    return n;
}

size_t payload_bytes(reshape_dtype dtype, int64_t volume)
{
    return (size_t)((volume * (int64_t)reshape_dtype_bits(dtype) + 7) / 8);
}

void fill_random(void *buf, size_t n, uint64_t seed)
{
    unsigned char *p = buf;
    uint64_t state = seed, draw = 0;

    for (size_t k = 0; k < n; k++) {
        if (k % 8 == 0) {
            uint64_t z;

            state += 0x9E3779B97F4A7C15u;
            z = state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
            draw = z ^ (z >> 31);
        }
        p[k] = (unsigned char)(draw >> (8 * (k % 8)));
    }
}

/* ============================================================ tensors */

reshape_tensor tensor(reshape_dtype dtype, int32_t rank, const int64_t *dims,
                      void *data)
{
    return (reshape_tensor){dtype, rank, dims, NULL, data};
}

reshape_tensor strided(reshape_dtype dtype, int32_t rank, const int64_t *dims,
                       const int64_t *strides, void *data)
{
    return (reshape_tensor){dtype, rank, dims, strides, data};
}

/* Stores `v` at index `i` of `bytes` as `dtype`. */
static void store_value(unsigned char *bytes, reshape_dtype dtype, int32_t i,
                        int64_t v)
{
#define STORE(type)                                                            \
    do {                                                                       \
        type x_ = (type)v;                                                     \
        memcpy(bytes + (size_t)i * sizeof x_, &x_, sizeof x_);                 \
    } while (0)
    switch (dtype) {
    case RESHAPE_DT_S32: STORE(int32_t); break;
    case RESHAPE_DT_S16: STORE(int16_t); break;
    case RESHAPE_DT_S8: STORE(int8_t); break;
    case RESHAPE_DT_U64: STORE(uint64_t); break;
    case RESHAPE_DT_U32: STORE(uint32_t); break;
    case RESHAPE_DT_U16: STORE(uint16_t); break;
    case RESHAPE_DT_U8: STORE(uint8_t); break;
    default: STORE(int64_t); break;
    }
#undef STORE
}

void shape_init(struct shape_buf *s, reshape_dtype dtype, int32_t count,
                const int64_t *values)
{
    memset(s, 0, sizeof *s);
    cr_assert(count >= 0 && count <= RESHAPE_MAX_RANK + 1,
              "shape_init: %d values do not fit the buffer", (int)count);
    for (int32_t i = 0; i < count; i++)
        store_value(s->bytes, dtype, i, values[i]);
    s->dims[0] = count;
    s->t = tensor(dtype, 1, s->dims, s->bytes);
}

reshape_params params(reshape_op op, int32_t special_zero,
                      const reshape_tensor *shape)
{
    return (reshape_params){op, special_zero, shape};
}

/* ===================================================== inference rows */

int64_t row_volume(const struct infer_row *row)
{
    int64_t v = 1;

    for (int32_t i = 0; i < row->rank; i++)
        if (row->dims[i] == 0)
            return 0;
    for (int32_t i = 0; i < row->rank; i++) {
        if (row->dims[i] > INT64_MAX / v)
            return -1;
        v *= row->dims[i];
    }
    return v;
}

void check_infer_row(const struct infer_row *row)
{
    struct shape_buf shape;
    reshape_tensor src = tensor(row->dtype, row->rank, row->dims, NULL);
    reshape_params p;
    int32_t rank = -1;
    int64_t dims[RESHAPE_MAX_RANK];
    reshape_status st;

    shape_init(&shape, row->shape_dtype, row->count, row->values);
    p = params(row->op, row->special_zero, &shape.t);
    st = ref()->infer_shape(&p, &src, &rank, dims);
    cr_assert_eq(st, row->status, "%s: status %s, expected %s", row->what,
                 reshape_status_name(st), reshape_status_name(row->status));
    if (row->status != RESHAPE_OK)
        return;
    cr_assert_eq(rank, row->out_rank, "%s: rank %d, expected %d", row->what,
                 (int)rank, (int)row->out_rank);
    for (int32_t i = 0; i < rank; i++)
        cr_assert_eq(dims[i], row->out_dims[i],
                     "%s: dim %d is %lld, expected %lld", row->what, (int)i,
                     (long long)dims[i], (long long)row->out_dims[i]);
}

void check_execute_row(const struct infer_row *row)
{
    struct shape_buf shape;
    int64_t volume = row_volume(row);
    /* too big to allocate: src is then a few bytes that inference must
     * refuse before reading */
    int huge = volume < 0 || volume > 4096;
    size_t n = huge ? 8 : payload_bytes(row->dtype, volume);
    unsigned char *in, *out, *canary;
    int64_t flat[1] = {huge ? 1 : volume};
    reshape_tensor src = tensor(row->dtype, row->rank, row->dims, NULL);
    reshape_tensor dst = row->status == RESHAPE_OK
                             ? tensor(row->dtype, row->out_rank,
                                      row->out_dims, NULL)
                             : tensor(row->dtype, 1, flat, NULL);
    reshape_params p;
    reshape_status st;

    if (huge && row->status == RESHAPE_OK)
        return; /* check_infer_row covers it */
    in = malloc(n + 1);
    out = malloc(n + 1);
    canary = malloc(n + 1);
    src.data = in;
    dst.data = out;
    cr_assert(in != NULL && out != NULL && canary != NULL);
    fill_random(in, n + 1, 1);
    memset(out, 0xA5, n + 1);
    memset(canary, 0xA5, n + 1);
    shape_init(&shape, row->shape_dtype, row->count, row->values);
    p = params(row->op, row->special_zero, &shape.t);
    st = ref()->execute(&p, &src, &dst);
    cr_assert_eq(st, row->status, "%s: status %s, expected %s", row->what,
                 reshape_status_name(st), reshape_status_name(row->status));
    if (row->status == RESHAPE_OK)
        assert_bytes_eq(out, in, n);
    else
        assert_bytes_eq(out, canary, n);
    /* the byte past the payload is never written */
    cr_assert_eq(out[n], 0xA5);
    free(in);
    free(out);
    free(canary);
}

/* ===================================================== an index model */

int64_t model_offset(int32_t rank, const int64_t *dims, const int64_t *strides,
                     int64_t k)
{
    int64_t offset = 0, dense = 1;

    for (int32_t j = rank - 1; j >= 0; j--) {
        int64_t i = k % dims[j];

        k /= dims[j];
        offset += i * (strides != NULL ? strides[j] : dense);
        dense *= dims[j];
    }
    return offset;
}

/* Whole-byte elements go through a variable of their own width, so that
 * values keep the host's byte order on any host. */
uint64_t get_element(const void *base, int64_t o, unsigned bits)
{
    const unsigned char *b = base;
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;

    switch (bits) {
    case 1: return (b[o / 8] >> (7 - o % 8)) & 1u;
    case 4: return o % 2 == 0 ? b[o / 2] & 0xFu : (unsigned)b[o / 2] >> 4;
    case 8: memcpy(&v8, b + o, 1); return v8;
    case 16: memcpy(&v16, b + 2 * o, 2); return v16;
    case 32: memcpy(&v32, b + 4 * o, 4); return v32;
    default: memcpy(&v64, b + 8 * o, 8); return v64;
    }
}

void set_element(void *base, int64_t o, unsigned bits, uint64_t v)
{
    unsigned char *b = base;
    uint8_t v8 = (uint8_t)v;
    uint16_t v16 = (uint16_t)v;
    uint32_t v32 = (uint32_t)v;

    switch (bits) {
    case 1: {
        unsigned char m = (unsigned char)(0x80u >> (o % 8));
        b[o / 8] = (unsigned char)(v & 1u ? b[o / 8] | m : b[o / 8] & ~m);
        break;
    }
    case 4:
        b[o / 2] = (unsigned char)(o % 2 == 0
                                       ? (b[o / 2] & 0xF0u) | (v & 0xFu)
                                       : (b[o / 2] & 0x0Fu) |
                                             ((v & 0xFu) << 4));
        break;
    case 8: memcpy(b + o, &v8, 1); break;
    case 16: memcpy(b + 2 * o, &v16, 2); break;
    case 32: memcpy(b + 4 * o, &v32, 4); break;
    default: memcpy(b + 8 * o, &v, 8); break;
    }
}

void model_copy(const reshape_tensor *src, const reshape_tensor *dst,
                void *expected, int64_t volume)
{
    unsigned bits = reshape_dtype_bits(src->dtype);

    if (src->strides == NULL && dst->strides == NULL) {
        memcpy(expected, src->data, payload_bytes(src->dtype, volume));
        return;
    }
    for (int64_t k = 0; k < volume; k++) {
        int64_t s = model_offset(src->rank, src->dims, src->strides, k);
        int64_t d = model_offset(dst->rank, dst->dims, dst->strides, k);

        set_element(expected, d, bits, get_element(src->data, s, bits));
    }
}

void check_copy(reshape_op op, const reshape_tensor *src, size_t src_bytes,
                const reshape_tensor *dst, size_t dst_bytes)
{
    struct shape_buf shape;
    reshape_params p;
    int64_t volume = 1;
    unsigned char *expected = malloc(dst_bytes + 1);
    unsigned char *src_before = malloc(src_bytes + 1);
    int in_place = src->data == dst->data;
    const char *path = reshape_ref_plain() ? "plain" : "fast";
    reshape_status st;
    size_t at;

    cr_assert(expected != NULL && src_before != NULL);
    for (int32_t i = 0; i < dst->rank; i++)
        volume *= dst->dims[i];
    memcpy(expected, dst->data, dst_bytes);
    memcpy(src_before, src->data, src_bytes);
    model_copy(src, dst, expected, volume);
    shape_init(&shape, op == RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1
                           ? RESHAPE_DT_S32 : RESHAPE_DT_S64,
               dst->rank, dst->dims);
    p = params(op, 0, &shape.t);
    st = ref()->execute(&p, src, dst);
    cr_assert_eq(st, RESHAPE_OK, "%s on the %s path: %s (%s)",
                 reshape_dtype_name(src->dtype), path, reshape_status_name(st),
                 ref()->last_error());
    at = first_difference(dst->data, expected, dst_bytes);
    cr_assert(at == dst_bytes,
              "%s on the %s path: dst differs first at byte %zu: got 0x%02x, "
              "expected 0x%02x", reshape_dtype_name(src->dtype), path, at,
              at < dst_bytes ? ((unsigned char *)dst->data)[at] : 0u,
              at < dst_bytes ? expected[at] : 0u);
    if (!in_place)
        assert_bytes_eq(src->data, src_before, src_bytes);
    free(expected);
    free(src_before);
}
