/*
 * global_scratch_buffer.c - every copy is staged through one global
 * scratch buffer, src to scratch then scratch to dst, a chunk at a time:
 * two threads copying at once mix each other's elements.
 */
#include "broken.h"

#define SCRATCH_ELEMENTS 65536

static uint64_t scratch[SCRATCH_ELEMENTS];

static void copy_elements(const reshape_tensor *src, const int64_t *src_strides,
                          const reshape_tensor *dst, const int64_t *dst_strides,
                          int64_t count, unsigned layout)
{
    unsigned bits = reshape_dtype_bits(src->dtype);
    struct broken_walk from, to;
    broken_walk_init(&from, src, src_strides);
    broken_walk_init(&to, dst, dst_strides);
    for (int64_t done = 0; done < count; done += SCRATCH_ELEMENTS) {
        int64_t n = count - done < SCRATCH_ELEMENTS ? count - done
                                                     : SCRATCH_ELEMENTS;
        for (int64_t k = 0; k < n; k++, broken_walk_next(&from))
            scratch[k] = broken_load(src->data, from.offset, bits);
        for (int64_t k = 0; k < n; k++, broken_walk_next(&to))
            broken_store(dst->data, to.offset, bits,
                         base_element_bits(src->dtype, scratch[k], layout));
    }
}

const struct broken_defect broken_defect = {
    .name = "global_scratch_buffer",
    .defect = "stages every copy through one global buffer: not thread-safe",
    .expect = "FAIL",
    .hooks = {.copy_elements = copy_elements},
};
