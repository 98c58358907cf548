/*
 * writes_into_src.c - after the copy the source is marked consumed (its
 * first byte zeroed), as if the kernel owned its input.
 */
#include "broken.h"

static void leave(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)dst;
    int64_t count;
    if (src->data != NULL
        && base_volume(src->rank, src->dims, &count) == RESHAPE_OK
        && count > 0)
        *(unsigned char *)src->data = 0;
}

const struct broken_defect broken_defect = {
    .name = "writes_into_src",
    .defect = "zeroes the first byte of src after an out-of-place copy",
    .expect = "MEMORY_VIOLATION",
    .faults_on_most_cases = 1,
    .hooks = {.leave = leave},
};
