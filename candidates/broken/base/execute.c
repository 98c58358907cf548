/*
 * execute.c - `execute` of the base kernel: infer, check src and dst, then
 * copy through the hooks.  Depends on broken.h, the ABI header and the
 * kit's tensor facts (reshape_adapter_tensor.h).
 */
#include <stdlib.h>

#include "broken.h"
#include "reshape_adapter_tensor.h"

/* Strides present are all >= 0, and the last element the tensor
 * addresses, dense or strided, ends below bit 2^63 - 7 (the ABI header,
 * reshape_tensor). */
static int good_strides(const reshape_tensor *t)
{
    for (int32_t i = 0; t->strides != NULL && i < t->rank; i++)
        if (t->strides[i] < 0)
            return 0;
    return reshape_adapter_addressable(t);
}

reshape_status base_check_dst(const reshape_tensor *src,
                              const reshape_tensor *dst, int32_t rank,
                              const int64_t *dims)
{
    if (dst->dtype != src->dtype || dst->rank != rank)
        return RESHAPE_E_INVALID_ARGUMENT;
    if (rank > 0 && dst->dims == NULL)
        return RESHAPE_E_INVALID_ARGUMENT;
    for (int32_t i = 0; i < rank; i++)
        if (dst->dims[i] != dims[i])
            return RESHAPE_E_INVALID_ARGUMENT;
    if (!good_strides(dst))
        return RESHAPE_E_INVALID_ARGUMENT;
    return RESHAPE_OK;
}

void base_enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)src;
    (void)dst;
}

void base_prepare_dst(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)src;
    (void)dst;
}

void base_leave(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)src;
    (void)dst;
}

/*
 * Dense to dense, sub-byte: the bits of the last byte past the last element
 * are padding, and the ABI has them copied unchanged.  `count` is the true
 * element count.
 */
static void copy_padding(const reshape_tensor *src, const reshape_tensor *dst,
                         int64_t count)
{
    unsigned bits = reshape_dtype_bits(src->dtype);
    unsigned used = (unsigned)(count * bits % 8);
    if (bits >= 8 || used == 0)
        return;
    int64_t last = count * bits / 8;
    /* u4/s4 fill a byte from bit 0 up; u1 from bit 7 down. */
    unsigned mask = bits == 4 ? 0x0Fu : (0xFFu << (8 - used)) & 0xFFu;
    const unsigned char *s = src->data;
    unsigned char *d = dst->data;
    d[last] = (unsigned char)((d[last] & mask) | (s[last] & ~mask));
}

static int compare_offsets(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/*
 * 1 when two of the `count` elements of `t`, walked with `strides` (NULL:
 * dense), share an offset (reference/DECISIONS.md D12: "a dst two of whose
 * elements have the same offset has no defined result"): every offset,
 * sorted, compared with the next.  -1 when there is no memory to tell.
 */
static int overlaps(const reshape_tensor *t, const int64_t *strides,
                    int64_t count)
{
    if (strides == NULL || count < 2)
        return 0;
    int64_t *offsets = malloc((size_t)count * sizeof *offsets);
    if (offsets == NULL)
        return -1;
    struct broken_walk walk;
    broken_walk_init(&walk, t, strides);
    for (int64_t k = 0; k < count; k++, broken_walk_next(&walk))
        offsets[k] = walk.offset;
    qsort(offsets, (size_t)count, sizeof *offsets, compare_offsets);
    int found = 0;
    for (int64_t k = 1; k < count && !found; k++)
        found = offsets[k] == offsets[k - 1];
    free(offsets);
    return found;
}

_Thread_local int broken_in_execute;

static reshape_status execute_checked(const reshape_params *params,
                                      const reshape_tensor *src,
                                      const reshape_tensor *dst)
{
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    reshape_status st = broken_infer(params, src, &rank, dims);
    if (st != RESHAPE_OK)
        return st;
    if (dst == NULL)
        return RESHAPE_E_INVALID_ARGUMENT;
    if ((st = HOOK(check_dst)(src, dst, rank, dims)) != RESHAPE_OK)
        return st;
    int64_t count;
    if ((st = base_volume(src->rank, src->dims, &count)) != RESHAPE_OK)
        return st;
    if (!good_strides(src))
        return RESHAPE_E_INVALID_ARGUMENT;
    if (count > 0 && (src->data == NULL || dst->data == NULL))
        return RESHAPE_E_INVALID_ARGUMENT;
    if (src->data == dst->data && count > 0
        && (src->strides != NULL || dst->strides != NULL))
        return RESHAPE_E_INVALID_ARGUMENT;

    const int64_t *src_strides = HOOK(src_strides)(src);
    const int64_t *dst_strides = HOOK(dst_strides)(dst);
    int overlap = overlaps(dst, dst_strides, count);
    if (overlap != 0)
        return overlap < 0 ? RESHAPE_E_INTERNAL : RESHAPE_E_INVALID_ARGUMENT;

    HOOK(enter)(src, dst);
    unsigned layout = broken_layout(src, src_strides, dst, dst_strides);
    unsigned bits = reshape_dtype_bits(src->dtype);
    HOOK(prepare_dst)(src, dst);
    HOOK(copy_elements)(src, src_strides, dst, dst_strides,
                        HOOK(element_count)(count, bits), layout);
    if (src_strides == NULL && dst_strides == NULL && count > 0)
        copy_padding(src, dst, count);
    HOOK(leave)(src, dst);
    return RESHAPE_OK;
}

reshape_status broken_execute(const reshape_params *params,
                              const reshape_tensor *src,
                              const reshape_tensor *dst)
{
    broken_in_execute = 1;
    reshape_status st = execute_checked(params, src, dst);
    broken_in_execute = 0;
    return st;
}
