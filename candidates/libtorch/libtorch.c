/*
 * libtorch.c - the ABI over libtorch's at::reshape (Debian's libtorch
 * 1.13), through the C++ shim in torch_shim.cpp.  Depends on
 * candidates/adapter_common.h and torch_shim.h.
 *
 * What libtorch carries: f64, f32, f16, bf16, s64, s32, s16, s8, u8 and
 * boolean tensors (it has no u16, u32, u64, 8-bit floats or sub-byte
 * types), strided in element units, shape values as int64.  at::reshape
 * has -1 but no copying zero: a 0 is always a literal 0, so special_zero
 * true with a 0 in the shape is RESHAPE_E_NOT_SUPPORTED.  libtorch's
 * messages name the rule that failed; README.md lists how each maps.
 */
#include <pthread.h>
#include <string.h>

#include "../adapter_common.h"
#include "torch_shim.h"

/* The shim type carrying `dtype`; returns 0, or -1 when libtorch has none. */
static int torch_type_of(reshape_dtype dtype, torch_shim_type *type)
{
    switch (dtype) {
    case RESHAPE_DT_F64: *type = TORCH_SHIM_F64; return 0;
    case RESHAPE_DT_F32: *type = TORCH_SHIM_F32; return 0;
    case RESHAPE_DT_F16: *type = TORCH_SHIM_F16; return 0;
    case RESHAPE_DT_BF16: *type = TORCH_SHIM_BF16; return 0;
    case RESHAPE_DT_S64: *type = TORCH_SHIM_S64; return 0;
    case RESHAPE_DT_S32: *type = TORCH_SHIM_S32; return 0;
    case RESHAPE_DT_S16: *type = TORCH_SHIM_S16; return 0;
    case RESHAPE_DT_S8: *type = TORCH_SHIM_S8; return 0;
    case RESHAPE_DT_U8: *type = TORCH_SHIM_U8; return 0;
    case RESHAPE_DT_BOOLEAN: *type = TORCH_SHIM_BOOL; return 0;
    default: return -1;
    }
}

/* libtorch's messages (ATen/InferSize.h, at::reshape) and the rule each
 * names; the first match wins, the rest is INTERNAL. */
static const struct {
    const char *text;
    reshape_status status;
} messages[] = {
    {"only one dimension can be inferred", RESHAPE_E_MULTIPLE_MINUS_ONE},
    {"invalid shape dimension", RESHAPE_E_BELOW_MINUS_ONE},
    {"the unspecified dimension size -1 can be any value",
     RESHAPE_E_ZERO_AND_MINUS_ONE},
    {"is invalid for input of size", RESHAPE_E_VOLUME_MISMATCH},
    {"integer multiplication overflow", RESHAPE_E_OVERFLOW},
    {"Trying to create tensor with negative dimension",
     RESHAPE_E_INVALID_ARGUMENT},
};

static reshape_status map_message(const char *text)
{
    reshape_status st = RESHAPE_E_INTERNAL;

    for (size_t i = 0; i < sizeof messages / sizeof messages[0]; i++)
        if (strstr(text, messages[i].text) != NULL) {
            st = messages[i].status;
            break;
        }
    return adapter_fail(st, "libtorch refused the reshape: %s", text);
}

static reshape_status torch_supports(reshape_op op, reshape_dtype data_dtype,
                                     reshape_dtype shape_dtype, unsigned layout)
{
    const unsigned known = RESHAPE_LAYOUT_STRIDED_SRC |
                           RESHAPE_LAYOUT_STRIDED_DST | RESHAPE_LAYOUT_IN_PLACE;
    torch_shim_type type;

    adapter_clear_error();
    if (reshape_op_name(op) == NULL || (layout & ~known) != 0)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "unknown op %d or layout %u", (int)op, layout);
    if (torch_type_of(data_dtype, &type) != 0)
        return adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "libtorch has no scalar type for '%s'",
                            adapter_dtype_name(data_dtype));
    if (!adapter_shape_dtype_allowed(op, shape_dtype))
        return adapter_refuse_shape_dtype(op, shape_dtype,
                                          "libtorch takes the shape as an int64 list");
    return RESHAPE_OK;
}

/* The shim's view of an ABI tensor; returns 0, or -1 for a dtype libtorch
 * lacks (with the message set). */
static int to_shim(const reshape_tensor *t, torch_shim_tensor *out)
{
    if (torch_type_of(t->dtype, &out->type) != 0) {
        adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                     "libtorch has no scalar type for '%s'",
                     reshape_dtype_name(t->dtype));
        return -1;
    }
    out->rank = t->rank;
    out->dims = t->dims;
    out->strides = t->strides;
    out->data = t->data;
    return 0;
}

static reshape_status torch_infer_shape(const reshape_params *params,
                                        const reshape_tensor *src,
                                        int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    torch_shim_tensor s;
    int64_t values[RESHAPE_MAX_RANK];
    int32_t count;
    char text[512];

    adapter_clear_error();
    if ((st = adapter_check_call(params, src, NULL)) != RESHAPE_OK)
        return st;
    if (out_rank == NULL || out_dims == NULL)
        return adapter_fail(RESHAPE_E_INVALID_ARGUMENT,
                            "'out_rank' or 'out_dims' is NULL");
    if (to_shim(src, &s) != 0)
        return RESHAPE_E_NOT_SUPPORTED;
    if ((st = adapter_list_shape(params, 0, values, &count)) != RESHAPE_OK)
        return st;
    if (torch_shim_infer(&s, values, count, out_rank, out_dims, text,
                         sizeof text) != TORCH_SHIM_OK)
        return map_message(text);
    return RESHAPE_OK;
}

static reshape_status torch_execute(const reshape_params *params,
                                    const reshape_tensor *src,
                                    const reshape_tensor *dst)
{
    reshape_status st;
    torch_shim_tensor s, d;
    int64_t values[RESHAPE_MAX_RANK], dims[RESHAPE_MAX_RANK];
    int32_t count, rank;
    char text[512];

    adapter_clear_error();
    if ((st = adapter_check_execute(params, src, dst)) != RESHAPE_OK)
        return st;
    if (to_shim(src, &s) != 0)
        return RESHAPE_E_NOT_SUPPORTED;
    if ((st = adapter_list_shape(params, 0, values, &count)) != RESHAPE_OK)
        return st;
    if (dst->dtype != src->dtype)
        return adapter_check_dst(src, dst, 0, NULL);
    if (to_shim(dst, &d) != 0)
        return RESHAPE_E_NOT_SUPPORTED;
    switch (torch_shim_execute(&s, values, count, &d, &rank, dims, text,
                               sizeof text)) {
    case TORCH_SHIM_OK:
        return RESHAPE_OK;
    case TORCH_SHIM_DST_MISMATCH:
        return adapter_check_dst(src, dst, rank, dims);
    default:
        return map_message(text);
    }
}

static reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .name = "libtorch",
    .version = "1.13",
    .supports = torch_supports,
    .infer_shape = torch_infer_shape,
    .execute = torch_execute,
    .last_error = adapter_last_error,
};

static pthread_once_t version_once = PTHREAD_ONCE_INIT;

static void read_version(void)
{
    table.version = torch_shim_version();
}

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    pthread_once(&version_once, read_version);
    return &table;
}
