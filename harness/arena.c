/*
 * arena.c - the shared memory of one worker; see wire.h.  Depends on
 * Linux (memfd_create) and libc.
 */
#define _GNU_SOURCE
#include "wire.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

int arena_create(arena *a, size_t src_bytes, size_t dst_bytes)
{
    memset(a, 0, sizeof *a);
    a->page = (size_t)sysconf(_SC_PAGESIZE);
    size_t p = a->page;
    a->req_off = 0;
    a->resp_off = round_up(sizeof(wire_request), p);
    a->out_off = a->resp_off + round_up(sizeof(wire_response), p);
    a->src_off = a->out_off + 2 * p;           /* out page, guard */
    a->src_size = round_up(src_bytes ? src_bytes : 1, p);
    a->dst_off = a->src_off + a->src_size + p; /* guard after src */
    a->dst_size = round_up(dst_bytes ? dst_bytes : 1, p);
    a->size = a->dst_off + a->dst_size + p;    /* guard after dst */

    a->fd = memfd_create("reshape-conform-arena", MFD_CLOEXEC);
    if (a->fd < 0)
        return -1;
    if (ftruncate(a->fd, (off_t)a->size) != 0)
        goto fail;
    a->pview = mmap(NULL, a->size, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
    if (a->pview == MAP_FAILED)
        goto fail;
    a->wview = mmap(NULL, a->size, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
    if (a->wview == MAP_FAILED) {
        munmap(a->pview, a->size);
        goto fail;
    }
    if (mprotect(a->wview + a->out_off + p, p, PROT_NONE) ||
        mprotect(a->wview + a->src_off, a->src_size, PROT_READ) ||
        mprotect(a->wview + a->src_off + a->src_size, p, PROT_NONE) ||
        mprotect(a->wview + a->dst_off + a->dst_size, p, PROT_NONE)) {
        munmap(a->pview, a->size);
        munmap(a->wview, a->size);
        goto fail;
    }
    return 0;
fail: {
        int e = errno;
        close(a->fd);
        errno = e;
        a->fd = -1;
        return -1;
    }
}

void arena_drop_pview(arena *a)
{
    if (a->pview)
        munmap(a->pview, a->size);
    a->pview = NULL;
}

void arena_drop_wview(arena *a)
{
    if (a->wview)
        munmap(a->wview, a->size);
    a->wview = NULL;
}

void arena_destroy(arena *a)
{
    arena_drop_pview(a);
    arena_drop_wview(a);
    if (a->fd >= 0)
        close(a->fd);
    a->fd = -1;
}
