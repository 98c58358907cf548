/*
 * writes_before_dst.c - the kernel's own tensors carry an 8-byte element
 * count in front of their data, and it writes that header in front of the
 * caller's dst too.
 */
#include <string.h>

#include "broken.h"

static void leave(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)src;
    int64_t count;
    if (dst->data == NULL
        || base_volume(dst->rank, dst->dims, &count) != RESHAPE_OK)
        return;
    memcpy((unsigned char *)dst->data - sizeof count, &count, sizeof count);
}

const struct broken_defect broken_defect = {
    .name = "writes_before_dst",
    .defect = "writes an 8-byte element count just before dst",
    .expect = "MEMORY_VIOLATION",
    .faults_on_most_cases = 1,
    .hooks = {.leave = leave},
};
