/*
 * leaks_per_call.c - each call allocates a staging buffer of the payload
 * size (at least 4 KiB), fills it, and never frees it.
 */
#include <stdlib.h>
#include <string.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)dst;
    int64_t count;
    if (base_volume(src->rank, src->dims, &count) != RESHAPE_OK)
        return;
    unsigned bits = reshape_dtype_bits(src->dtype);
    size_t bytes = (size_t)broken_payload_bytes(count, bits);
    if (bytes < 4096)
        bytes = 4096;
    /* Kept in a volatile pointer so the store is not optimised away. */
    unsigned char *volatile staging = malloc(bytes);
    if (staging != NULL)
        memset(staging, 0xA5, bytes);
}

const struct broken_defect broken_defect = {
    .name = "leaks_per_call",
    .defect = "leaks a payload-sized (>= 4 KiB) staging buffer per call",
    .expect = "LEAK",
    .hooks = {.enter = enter},
};
