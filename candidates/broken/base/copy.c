/*
 * copy.c - the element copy of the base kernel: one plain loop over the
 * logical indices, element by element, through the copy hooks.  Depends on
 * broken.h and the ABI header only.
 */
#include "broken.h"

const int64_t *base_src_strides(const reshape_tensor *src)
{
    return src->strides;
}

const int64_t *base_dst_strides(const reshape_tensor *dst)
{
    return dst->strides;
}

int64_t base_element_count(int64_t volume, unsigned bits)
{
    (void)bits;
    return volume;
}

uint64_t base_element_bits(reshape_dtype dtype, uint64_t bits,
                           unsigned layout)
{
    (void)dtype;
    (void)layout;
    return bits;
}

void base_copy_elements(const reshape_tensor *src, const int64_t *src_strides,
                        const reshape_tensor *dst, const int64_t *dst_strides,
                        int64_t count, unsigned layout)
{
    unsigned bits = reshape_dtype_bits(src->dtype);
    struct broken_walk from, to;
    broken_walk_init(&from, src, src_strides);
    broken_walk_init(&to, dst, dst_strides);
    for (int64_t k = 0; k < count; k++) {
        uint64_t v = broken_load(src->data, from.offset, bits);
        v = HOOK(element_bits)(src->dtype, v, layout);
        broken_store(dst->data, to.offset, bits, v);
        broken_walk_next(&from);
        broken_walk_next(&to);
    }
}
