/*
 * leaks_with_mmap.c - each call maps 4 KiB of anonymous memory with mmap,
 * fills it, and never unmaps it: a leak the allocator's own figures
 * (mallinfo2) never count.
 */
#include <string.h>
#include <sys/mman.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)src;
    (void)dst;
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED)
        memset(p, 0xA5, 4096);
}

const struct broken_defect broken_defect = {
    .name = "leaks_with_mmap",
    .defect = "maps 4 KiB with mmap per call and never unmaps it",
    .expect = "LEAK",
    .hooks = {.enter = enter},
};
