/*
 * candidate.c - the exported ABI table of the reference, the only symbol
 * build/libreshape_ref.so exports: reshape_candidate_v1.  Depends on
 * infer.c, execute.c and error.c.
 *
 * Each entry point forgets the thread's previous error first, so that
 * last_error() speaks of the most recent call only.
 */
#include <stddef.h>

#include "reference.h"

/*
 * The reference implements every operation on every dtype, shape dtype and
 * layout, broadcast src and size-1 strides included (D12): a configuration a
 * spec forbids is answered with the spec's status at call time, and that
 * answer is what cases test.  Only values outside the ABI's enums and layout
 * flags are NOT_SUPPORTED (RESHAPE_LAYOUT_DEVICE among them: the reference
 * has no device).
 */
static reshape_status ref_supports(reshape_op op, reshape_dtype data_dtype,
                                   reshape_dtype shape_dtype, unsigned layout)
{
    const unsigned known = RESHAPE_LAYOUT_STRIDED_SRC |
                           RESHAPE_LAYOUT_STRIDED_DST |
                           RESHAPE_LAYOUT_IN_PLACE |
                           RESHAPE_LAYOUT_BROADCAST_SRC |
                           RESHAPE_LAYOUT_SIZE1_STRIDES;

    reshape_ref_clear_error();
    if (reshape_op_name(op) == NULL || reshape_dtype_name(data_dtype) == NULL ||
        reshape_dtype_name(shape_dtype) == NULL || (layout & ~known) != 0)
        return reshape_ref_fail(RESHAPE_E_NOT_SUPPORTED,
                                "unknown op, dtype or layout flags");
    return RESHAPE_OK;
}

static reshape_status ref_infer_shape(const reshape_params *params,
                                      const reshape_tensor *src,
                                      int32_t *out_rank, int64_t *out_dims)
{
    reshape_ref_clear_error();
    return reshape_ref_infer(params, src, out_rank, out_dims, NULL);
}

static reshape_status ref_execute(const reshape_params *params,
                                  const reshape_tensor *src,
                                  const reshape_tensor *dst)
{
    reshape_ref_clear_error();
    return reshape_ref_execute(params, src, dst);
}

static const reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .name = "reshape-reference",
    .version = "1.0",
    .supports = ref_supports,
    .infer_shape = ref_infer_shape,
    .execute = ref_execute,
    .last_error = reshape_ref_last_error,
};

const reshape_candidate *reshape_candidate_v1(void)
{
    return &table;
}
