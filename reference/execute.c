/*
 * execute.c - the ABI's execute(): the argument checks, inference, the
 * destination checks, then the copy.  Nothing is written to dst before every
 * check has passed.  Depends on args.c, infer.c, volume.c, copy.c, error.c.
 *
 * The destination rules (reference/DECISIONS.md, after "The rules"):
 * "Execution then checks the destination (dtype equal to the source's, dims
 * equal to the inferred dims, else INVALID_ARGUMENT) and copies."
 */
#include <inttypes.h>
#include <stddef.h>

#include "reference.h"

/*
 * Whether every bit the elements of `t` (volume > 0; D12: an empty tensor
 * addresses nothing and is never asked) occupy has an offset
 * within int64, so that the copy's offset arithmetic cannot overflow: the
 * element at the largest offset must end at a bit offset of at most
 * INT64_MAX - 7 (the dense fast path rounds the bit count up to whole bytes).
 * Returns RESHAPE_OK or RESHAPE_E_INVALID_ARGUMENT with a message.
 */
static reshape_status check_addressable(const reshape_tensor *t,
                                        const char *what)
{
    unsigned bits = reshape_dtype_bits(t->dtype);
    int64_t last;

    if (reshape_ref_max_offset(t->rank, t->dims, t->strides, &last) !=
            RESHAPE_OK ||
        last > (INT64_MAX - 7) / bits - 1)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "'%s' addresses bits beyond the int64 range",
                                what);
    return RESHAPE_OK;
}

reshape_status reshape_ref_execute(const reshape_params *params,
                                   const reshape_tensor *src,
                                   const reshape_tensor *dst)
{
    reshape_status st;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    int64_t volume;

    /* Rule 1 for the tensors execute reads and writes; params and the
     * shape tensor are checked by reshape_ref_infer. */
    st = reshape_ref_check_tensor(src, "src");
    if (st != RESHAPE_OK)
        return st;
    st = reshape_ref_check_tensor(dst, "dst");
    if (st != RESHAPE_OK)
        return st;

    st = reshape_ref_infer(params, src, &rank, dims, &volume);
    if (st != RESHAPE_OK)
        return st;

    /* The destination must be what inference says: a candidate refuses,
     * never overruns, a dst that does not fit. */
    if (dst->dtype != src->dtype)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "dtype '%s' of 'dst' differs from '%s' of "
                                "'src'", reshape_dtype_name(dst->dtype),
                                reshape_dtype_name(src->dtype));
    if (dst->rank != rank)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "rank %" PRId32 " of 'dst' differs from the "
                                "inferred rank %" PRId32, dst->rank, rank);
    for (int32_t i = 0; i < rank; i++)
        if (dst->dims[i] != dims[i])
            return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                    "dim %" PRId64 " at index %" PRId32
                                    " of 'dst' differs from the inferred %"
                                    PRId64, dst->dims[i], i, dims[i]);

    /* D12: "dst->data == src->data needs both dense (strides NULL); a
     * broadcast or any strided src in place is RESHAPE_E_INVALID_ARGUMENT":
     * with strides the two layouts would overwrite elements not yet read.
     * Partly overlapping buffers are outside the ABI and not detected. */
    if (dst->data != NULL && dst->data == src->data &&
        (src->strides != NULL || dst->strides != NULL))
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "in-place call with strides on '%s'",
                                src->strides != NULL ? "src" : "dst");
    if (volume == 0)
        return RESHAPE_OK;
    if (src->data == NULL || dst->data == NULL)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "'%s->data' is NULL with volume %" PRId64,
                                src->data == NULL ? "src" : "dst", volume);
    st = check_addressable(src, "src");
    if (st != RESHAPE_OK)
        return st;
    st = check_addressable(dst, "dst");
    if (st != RESHAPE_OK)
        return st;

    /* D12: "a dst two of whose elements have the same offset has no
     * defined result; execute refuses it with RESHAPE_E_INVALID_ARGUMENT
     * and writes nothing".  A src may: "Each element is read from its own
     * offset, so the values repeat." */
    int overlaps;
    st = reshape_ref_overlaps(dst, &overlaps);
    if (st != RESHAPE_OK)
        return st;
    if (overlaps)
        return reshape_ref_fail(RESHAPE_E_INVALID_ARGUMENT,
                                "two elements of 'dst' share an offset (its "
                                "strides overlap); no result is defined");

    reshape_ref_copy(src, dst, volume);
    return RESHAPE_OK;
}
