/*
 * kernel.c - a small candidate built out of the tree against the installed
 * headers alone (`cc $(pkg-config --cflags reshape-candidate)`), as a
 * kernel engineer writes one: OpenVINO Reshape-1 on dense tensors, its copy
 * done by the library it links (helper.c, libkernel_helper.so.1).  The
 * ABI's argument checks, the shape values, last_error and the table come
 * from the installed adapter kit (reshape_adapter.h); the spec's rules are
 * its own, with the type rules from the ABI header
 * (reshape_op_accepts_data_dtype).  It declares its limits (reshape_limits:
 * OpenVINO only, dense out of place, rank 8 at most), so the harness skips
 * the rest without calling it.  tests/install/installed.sh runs, certifies
 * and verifies it.
 */
#include <reshape_adapter.h>
#include <stddef.h>

void kernel_helper_copy(void *dst, const void *src, size_t bytes);

#define MAX_RANK 8

static reshape_status supports(reshape_op op, reshape_dtype d, reshape_dtype s, unsigned layout)
{
    (void)op; (void)d; (void)s; (void)layout;
    return RESHAPE_OK;  /* what it lacks, its limits say */
}

/* a * b, or -1 when it leaves int64 (both >= 0) */
static int64_t mul(int64_t a, int64_t b)
{
    return b != 0 && a > INT64_MAX / b ? -1 : a * b;
}

static reshape_status infer(const reshape_params *p, const reshape_tensor *src, int32_t *rank,
                            int64_t *dims)
{
    reshape_status st = reshape_adapter_check_infer(p, src, rank, dims);
    if (st != RESHAPE_OK)
        return st;
    const reshape_tensor *shape = p->shape;
    if (!reshape_op_accepts_data_dtype(p->op, src->dtype))
        return reshape_adapter_fail(RESHAPE_E_DATA_TYPE, "no %s data",
                                    reshape_adapter_dtype_name(src->dtype));
    if (!reshape_op_accepts_shape_dtype(p->op, shape->dtype))
        return reshape_adapter_fail(RESHAPE_E_SHAPE_TYPE, "no %s shape",
                                    reshape_adapter_dtype_name(shape->dtype));
    if (shape->rank != 1)
        return RESHAPE_E_SHAPE_NOT_1D;
    int64_t n = shape->dims[0], volume = 1, known = 1, minus = -1;
    if (n < 0 || n > RESHAPE_MAX_RANK || (n && !shape->data))
        return RESHAPE_E_INVALID_ARGUMENT;
    for (int32_t i = 0; i < src->rank; i++)
        if (src->dims[i] < 0)
            return RESHAPE_E_INVALID_ARGUMENT;
    for (int32_t i = 0; i < src->rank; i++)
        volume = volume < 0 || src->dims[i] == 0 ? (src->dims[i] == 0 ? 0 : -1)
                                                 : mul(volume, src->dims[i]);
    for (int32_t i = 0; i < src->rank; i++)
        if (src->dims[i] == 0)
            volume = 0;
    if (volume < 0)
        return RESHAPE_E_OVERFLOW;
    for (int64_t i = 0; i < n; i++) {
        int64_t v;
        if (reshape_adapter_shape_value(shape, i, &v) != 0)
            return RESHAPE_E_OVERFLOW;  /* a u64 above INT64_MAX */
        if (v == -1) {
            if (minus >= 0)
                return RESHAPE_E_MULTIPLE_MINUS_ONE;
            minus = i;
            continue;
        }
        if (v < -1)
            return RESHAPE_E_BELOW_MINUS_ONE;
        if (v == 0 && p->special_zero) {
            if (i >= src->rank)
                return RESHAPE_E_ZERO_OUT_OF_RANGE;
            v = src->dims[i];
        }
        dims[i] = v;
    }
    for (int64_t i = 0; i < n; i++)
        if (i != minus)
            known = known == 0 || dims[i] == 0 ? 0 : known < 0 ? -1 : mul(known, dims[i]);
    if (minus >= 0 && known == 0 && volume != 0) {
        return RESHAPE_E_ZERO_AND_MINUS_ONE;
    } else if (minus >= 0 && known == 0) {
        dims[minus] = 0;    /* empty into empty (DECISIONS.md D1) */
    } else if (minus >= 0) {
        if (known < 0)
            return RESHAPE_E_OVERFLOW;
        if (volume % known)
            return RESHAPE_E_NOT_DIVISIBLE;
        dims[minus] = volume / known;
    } else if (known < 0) {
        return RESHAPE_E_OVERFLOW;
    } else if (known != volume) {
        return RESHAPE_E_VOLUME_MISMATCH;
    }
    *rank = (int32_t)n;
    return RESHAPE_OK;
}

static reshape_status execute(const reshape_params *p, const reshape_tensor *src,
                              const reshape_tensor *dst)
{
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    reshape_status st = reshape_adapter_check_execute(p, src, dst);
    if (st == RESHAPE_OK)
        st = infer(p, src, &rank, dims);
    if (st == RESHAPE_OK)
        st = reshape_adapter_check_dst(src, dst, rank, dims);
    if (st != RESHAPE_OK)
        return st;
    if (src->strides || dst->strides || (src->data && dst->data == src->data))
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "dense out of place only");
    int64_t volume;
    size_t bytes;
    if (reshape_adapter_volume(src, &volume) != 0 ||
        reshape_adapter_payload_bytes(src->dtype, volume, &bytes) != 0)
        return RESHAPE_E_INVALID_ARGUMENT;
    kernel_helper_copy(dst->data, src->data, bytes);
    return RESHAPE_OK;
}

static const reshape_limits limits = {
    .struct_size = sizeof(reshape_limits),
    .max_rank = MAX_RANK,
    .max_dim = -1,
    .max_volume = -1,
    .ops = 1u << RESHAPE_OP_OPENVINO_RESHAPE_1,
    .data_dtypes = 0,
    .layouts = 0,
};

RESHAPE_ADAPTER_DEFINE("My Kernel (out of tree)", "1.0", supports, infer, execute, &limits)
