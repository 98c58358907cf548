/*
 * support.h - helpers shared by the Criterion tests of the reference
 * (the *_test.c files beside it): tensor builders, a byte comparator, seeded
 * random bytes, table rows for shape inference, and an independent model of
 * the logical-to-linear index map.  The tests reach the reference through
 * reshape_candidate_v1(); of its internals (reference.h) they use only the
 * plain/fast switch.
 */
#ifndef TESTS_REFERENCE_SUPPORT_H
#define TESTS_REFERENCE_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "reshape_candidate.h"

/* Counted lists for calls: DIMS(2, 3) expands to "2, (int64_t[]){2, 3}". */
#define DIMS(...)                                                              \
    (int32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)),             \
        (int64_t[]){__VA_ARGS__}
/* The empty list (rank 0, or a shape tensor with no values). */
#define NODIMS 0, NULL

#define OV RESHAPE_OP_OPENVINO_RESHAPE_1
#define STATIC RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1
#define DYNAMIC RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1
#define ONNX RESHAPE_OP_ONNX_RESHAPE_14

/* The reference's table, as the harness would get it. */
const reshape_candidate *ref(void);

/* ------------------------------------------------------------- bytes */

/*
 * The index of the first byte where `a` and `b` (each `n` bytes) differ, or
 * `n` when they are equal.  Bytes are compared as bytes, never as values:
 * -0.0 and 0.0 differ, two NaNs with the same bits are equal.
 */
size_t first_difference(const void *a, const void *b, size_t n);

/* Asserts that `n` bytes at `actual` equal those at `expected`, naming the
 * first differing byte and both its values. */
#define assert_bytes_eq(actual, expected, n)                                   \
    do {                                                                       \
        size_t n_ = (n);                                                       \
        size_t at_ = first_difference((actual), (expected), n_);               \
        cr_assert(at_ == n_,                                                   \
                  "bytes differ first at byte %zu of %zu: got 0x%02x, "        \
                  "expected 0x%02x",                                           \
                  at_, n_,                                                     \
                  at_ < n_ ? ((const unsigned char *)(actual))[at_] : 0u,      \
                  at_ < n_ ? ((const unsigned char *)(expected))[at_] : 0u);   \
    } while (0)

/* Bytes of a dense payload of `volume` elements of `dtype`:
 * ceil(volume * bits / 8). */
size_t payload_bytes(reshape_dtype dtype, int64_t volume);

/* Fills `n` bytes with splitmix64 draws seeded by `seed` (the FORMAT.md
 * `random` fill: byte k is byte k % 8, little-endian, of draw k / 8). */
void fill_random(void *buf, size_t n, uint64_t seed);

/* ----------------------------------------------------------- tensors */

/* A dense tensor over caller-owned dims and data. */
reshape_tensor tensor(reshape_dtype dtype, int32_t rank, const int64_t *dims,
                      void *data);

/* A strided tensor over caller-owned dims, strides and data. */
reshape_tensor strided(reshape_dtype dtype, int32_t rank, const int64_t *dims,
                       const int64_t *strides, void *data);

/*
 * A 1-D shape tensor of `count` values with its own storage.  Values are
 * stored in `dtype` (s64 s32 s16 s8 u64 u32 u16 u8; a value is converted as
 * C converts to that type); for any other dtype the bytes are filled with
 * the s64 encoding, since a candidate must refuse the type before reading.
 * Initialise with shape_init(); `t` points into the struct, so do not copy
 * it after.
 */
struct shape_buf {
    reshape_tensor t;
    int64_t dims[1];
    unsigned char bytes[(RESHAPE_MAX_RANK + 1) * 8];
};
void shape_init(struct shape_buf *s, reshape_dtype dtype, int32_t count,
                const int64_t *values);

/* Params over `shape`. */
reshape_params params(reshape_op op, int32_t special_zero,
                      const reshape_tensor *shape);

/* ------------------------------------------------------ inference rows */

#define ROW_MAX 8

/*
 * One shape-inference behaviour, for parameterized tests: data dims, the
 * target shape, and the expected status and, on success, dims.  No pointers:
 * Criterion hands parameters to a re-executed worker process, where the
 * addresses of the parent's static data mean nothing.
 */
struct infer_row {
    char what[112];          /* the behaviour, in words */
    reshape_op op;
    int32_t special_zero;
    reshape_dtype dtype;     /* data dtype */
    int32_t rank;
    int64_t dims[ROW_MAX];
    reshape_dtype shape_dtype;
    int32_t count;           /* number of shape values */
    int64_t values[ROW_MAX];
    reshape_status status;   /* expected */
    int32_t out_rank;        /* expected on success */
    int64_t out_dims[ROW_MAX];
};

/* The end of a row: success with `rank` dims (GIVES(2, 0, 4)), or failure
 * with RESHAPE_E_<name> (FAILS(VOLUME_MISMATCH)). */
#define GIVES(rank, ...) RESHAPE_OK, rank, {__VA_ARGS__}
#define FAILS(name) RESHAPE_E_##name, 0, {0}

/* Runs `row` through infer_shape; asserts the status, and on success the
 * rank and dims. */
void check_infer_row(const struct infer_row *row);

/*
 * Runs `row` through execute on a random src and a canary-filled dst whose
 * dims are the expected ones (on success) or one flat dim of the input
 * volume (on error).  Asserts the status; on success asserts dst equals src
 * byte for byte, on error that dst is untouched.  A row whose volume is
 * above 4096 elements (or overflows) gets an 8-byte src: on error, inference
 * must refuse it before reading; on success the row is left to
 * check_infer_row.
 */
void check_execute_row(const struct infer_row *row);

/* The volume of a row's data dims, or -1 when it does not fit int64. */
int64_t row_volume(const struct infer_row *row);

/* ------------------------------------------------------ an index model */

/*
 * The linear element offset of the element with row-major logical index
 * `k` in a tensor of `rank` dims and `strides` (NULL: dense), computed by
 * division and remainder, independently of the reference's odometer.
 */
int64_t model_offset(int32_t rank, const int64_t *dims, const int64_t *strides,
                     int64_t k);

/* Reads (get_element) or writes (set_element) the element at linear offset
 * `o` of a `bits`-wide type, per the ABI's packing, as an unsigned value. */
uint64_t get_element(const void *base, int64_t o, unsigned bits);
void set_element(void *base, int64_t o, unsigned bits, uint64_t v);

/*
 * The model of execute's copy: writes into `expected` (a buffer laid out as
 * `dst`, holding what dst held before the call) what dst must hold after:
 * element k of src, row-major, at row-major position k of dst, by
 * model_offset; when both are dense, the whole src payload (padding bits
 * included), as the ABI says.  `volume` is both tensors' volume.
 */
void model_copy(const reshape_tensor *src, const reshape_tensor *dst,
                void *expected, int64_t volume);

/*
 * Runs execute(op, special_zero 0, shape = dst's dims, src, dst) and asserts
 * RESHAPE_OK, that the `dst_bytes` bytes at dst->data then equal what
 * model_copy predicts from their content before the call (gaps and bytes
 * past the last element unchanged), and that the `src_bytes` bytes at
 * src->data are unchanged (out of place only).  The shape tensor is s32 for
 * DynamicReshape, s64 otherwise.  Messages name the dtype and the copy path
 * in force (reshape_ref_plain()).
 */
void check_copy(reshape_op op, const reshape_tensor *src, size_t src_bytes,
                const reshape_tensor *dst, size_t dst_bytes);

/* Every ABI dtype, in enum order. */
extern const reshape_dtype all_dtypes[RESHAPE_DT_COUNT];

#endif /* TESTS_REFERENCE_SUPPORT_H */
