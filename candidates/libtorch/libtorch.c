/*
 * libtorch.c - the ABI over libtorch's at::reshape (Debian's libtorch
 * 1.13), through the C++ shim in torch_shim.cpp.  Depends on the adapter
 * kit (include/reshape_adapter.h) and torch_shim.h.
 *
 * What libtorch carries: f64, f32, f16, bf16, s64, s32, s16, s8, u8 and
 * boolean tensors (it has no u16, u32, u64, 8-bit floats or sub-byte
 * types), strided in element units (any strides: at::from_blob with
 * strides is at::as_strided over the caller's memory, so a broadcast src
 * and size-1 dims with any stride are views as torch.expand makes them),
 * shape values as int64.  at::reshape
 * has -1 but no copying zero: a 0 is always a literal 0, so special_zero
 * true with a 0 in the shape is RESHAPE_E_NOT_SUPPORTED.  libtorch's
 * messages name the rule that failed; README.md lists how each maps.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "reshape_adapter.h"

#include "../shape_types.h"
#include "torch_shim.h"

/* The shim type of each dtype libtorch has. */
static const reshape_adapter_type torch_types[] = {
    {RESHAPE_DT_F64, TORCH_SHIM_F64}, {RESHAPE_DT_F32, TORCH_SHIM_F32},
    {RESHAPE_DT_F16, TORCH_SHIM_F16}, {RESHAPE_DT_BF16, TORCH_SHIM_BF16},
    {RESHAPE_DT_S64, TORCH_SHIM_S64}, {RESHAPE_DT_S32, TORCH_SHIM_S32},
    {RESHAPE_DT_S16, TORCH_SHIM_S16}, {RESHAPE_DT_S8, TORCH_SHIM_S8},
    {RESHAPE_DT_U8, TORCH_SHIM_U8},   {RESHAPE_DT_BOOLEAN, TORCH_SHIM_BOOL},
};

/* Every layout the ABI defines: from_blob takes any strides. */
#define HANDLED RESHAPE_ADAPTER_ANY_STRIDES

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
    return reshape_adapter_fail(st, "libtorch refused the reshape: %s", text);
}

static reshape_status torch_supports(reshape_op op, reshape_dtype data_dtype,
                                     reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st;
    int type;

    if ((st = reshape_adapter_check_layout(op, layout, HANDLED, "libtorch")) != RESHAPE_OK ||
        (st = reshape_adapter_map_dtype(torch_types, RESHAPE_ADAPTER_COUNT(torch_types),
                                        data_dtype, "libtorch has no scalar type", &type)) !=
            RESHAPE_OK)
        return st;
    return shape_type_check(op, shape_dtype, "libtorch takes the shape as an int64 list");
}

/* The shim's view of an ABI tensor; RESHAPE_OK, or NOT_SUPPORTED for a
 * dtype libtorch lacks. */
static reshape_status to_shim(const reshape_tensor *t, torch_shim_tensor *out)
{
    int type;
    reshape_status st = reshape_adapter_map_dtype(torch_types,
                                                  RESHAPE_ADAPTER_COUNT(torch_types),
                                                  t->dtype, "libtorch has no scalar type",
                                                  &type);
    out->type = (torch_shim_type)type;
    out->rank = t->rank;
    out->dims = t->dims;
    out->strides = t->strides;
    out->data = t->data;
    return st;
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

    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK ||
        (st = to_shim(src, &s)) != RESHAPE_OK ||
        (st = reshape_adapter_shape_list(params, 0, values, &count)) != RESHAPE_OK)
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

    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = to_shim(src, &s)) != RESHAPE_OK ||
        (st = reshape_adapter_shape_list(params, 0, values, &count)) != RESHAPE_OK)
        return st;
    if (dst->dtype != src->dtype)
        return reshape_adapter_check_dst(src, dst, 0, NULL);
    if ((st = to_shim(dst, &d)) != RESHAPE_OK)
        return st;
    switch (torch_shim_execute(&s, values, count, &d, &rank, dims, text,
                               sizeof text)) {
    case TORCH_SHIM_OK:
        return RESHAPE_OK;
    case TORCH_SHIM_DST_MISMATCH:
        return reshape_adapter_check_dst(src, dst, rank, dims);
    default:
        return map_message(text);
    }
}

/* "1.13.1", from the library that is loaded, for reports. */
static void version_of(char *text, size_t size)
{
    snprintf(text, size, "%s", torch_shim_version());
}

RESHAPE_ADAPTER_DEFINE_LOADED("libtorch", version_of,
                              torch_supports, torch_infer_shape, torch_execute,
                              NULL)
