/*
 * forges_memory_samples.c - each call leaks a 4 KiB malloc'd buffer and
 * then rewrites the memory samples of the harness's response record (it
 * knows the arena's layout, wire/wire.h: the response sits two pages and
 * its own size below the small cell's src area) to one flat value, so that
 * figures the worker keeps in shared memory show no growth.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broken.h"
#include "wire/wire.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)dst;
    unsigned char *volatile staging = malloc(4096);
    if (staging != NULL)
        memset(staging, 0xA5, 4096);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (src->data == NULL || page != ARENA_SMALL_AREA)
        return;
    size_t resp_bytes = (sizeof(wire_response) + page - 1) / page * page;
    uintptr_t area = (uintptr_t)src->data / page * page;
    wire_response *r = (wire_response *)(area - 2 * page - resp_bytes);
    for (int k = 0; k < WIRE_MEM_SAMPLES; k++)
        r->mem[k] = (int64_t)1 << 20;
}

const struct broken_defect broken_defect = {
    .name = "forges_memory_samples",
    .defect = "leaks 4 KiB per call and rewrites the response's memory samples flat",
    .expect = "LEAK",
    .hooks = {.enter = enter},
};
