/*
 * floods_stdout.c - a debug trace left on: every element of src is
 * printed to stdout before the copy.
 */
#include <inttypes.h>
#include <stdio.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)dst;
    int64_t count;
    if (base_volume(src->rank, src->dims, &count) != RESHAPE_OK)
        return;
    unsigned bits = reshape_dtype_bits(src->dtype);
    struct broken_walk walk;
    broken_walk_init(&walk, src, src->strides);
    for (int64_t k = 0; k < count; k++, broken_walk_next(&walk))
        printf("floods_stdout: reshape %s src element %" PRId64
               " of %" PRId64 " = 0x%" PRIx64 "\n",
               reshape_dtype_name(src->dtype), k, count,
               broken_load(src->data, walk.offset, bits));
    fflush(stdout);
}

const struct broken_defect broken_defect = {
    .name = "floods_stdout",
    .defect = "prints every src element to stdout (a debug trace left on)",
    .expect = "FLOOD",
    .hooks = {.enter = enter},
};
