/*
 * arena.c - the shared memory of one worker slot; see wire.h.  Depends on
 * Linux (memfd_create, fallocate) and libc.
 */
#define _GNU_SOURCE
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* Lays out one cell at `at` with areas of `src_bytes` and `dst_bytes`;
 * returns where the next one starts. */
static size_t lay_cell(cell *c, size_t at, size_t p, size_t src_bytes, size_t dst_bytes)
{
    c->req_off = at;
    c->resp_off = c->req_off + round_up(sizeof(wire_request), p);
    c->out_off = c->resp_off + round_up(sizeof(wire_response), p);
    c->src_off = c->out_off + 2 * p;            /* out page, guard */
    c->src_size = round_up(src_bytes ? src_bytes : 1, p);
    c->dst_off = c->src_off + c->src_size + p;  /* guard after src */
    c->dst_size = round_up(dst_bytes ? dst_bytes : 1, p);
    c->end = c->dst_off + c->dst_size + p;      /* guard after dst */
    return c->end;
}

static int protect_cell(uint8_t *view, const cell *c, size_t p)
{
    return mprotect(view + c->out_off + p, p, PROT_NONE) ||
           mprotect(view + c->src_off, c->src_size, PROT_READ) ||
           mprotect(view + c->src_off + c->src_size, p, PROT_NONE) ||
           mprotect(view + c->dst_off + c->dst_size, p, PROT_NONE);
}

/* Fills in the page size, the cells and the size of `a`: the same for the
 * same `big_src` and `big_dst` in every process. */
static void lay_out(arena *a, size_t big_src, size_t big_dst)
{
    memset(a, 0, sizeof *a);
    a->fd = -1;
    a->page = (size_t)sysconf(_SC_PAGESIZE);
    size_t p = a->page, at = round_up(sizeof(wire_batch), p);
    for (int i = 0; i < ARENA_CELLS; i++)
        at = lay_cell(&a->cells[i], at, p, ARENA_SMALL_AREA, ARENA_SMALL_AREA);
    a->size = lay_cell(&a->cells[ARENA_BIG], at, p, big_src, big_dst);
}

/* Maps the candidate's view of `a` (its fd) with its protections.
 * Returns 0, or -1 with errno set. */
static int map_wview(arena *a)
{
    a->wview = mmap(NULL, a->size, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
    if (a->wview == MAP_FAILED) {
        a->wview = NULL;
        return -1;
    }
    for (int i = 0; i <= ARENA_CELLS; i++)
        if (protect_cell(a->wview, &a->cells[i], a->page)) {
            int e = errno;
            arena_drop_wview(a);
            errno = e;
            return -1;
        }
    return 0;
}

int arena_create(arena *a, size_t big_src, size_t big_dst)
{
    lay_out(a, big_src, big_dst);
    a->fd = memfd_create("reshape-conform-arena", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (a->fd < 0)
        return -1;
    /* sealed before any worker sees it: no process, through any fd or
     * /proc/PID/fd, can shrink it under the parent's view (SIGBUS) or
     * grow it, and no seal can be changed */
    const int seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
    if (ftruncate(a->fd, (off_t)a->size) != 0 || fcntl(a->fd, F_ADD_SEALS, seals) != 0 ||
        (fcntl(a->fd, F_GET_SEALS) & seals) != seals)
        goto fail;
    a->pview = mmap(NULL, a->size, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
    if (a->pview == MAP_FAILED) {
        a->pview = NULL;
        goto fail;
    }
    if (map_wview(a) != 0)
        goto fail;
    return 0;
fail: {
        int e = errno;
        arena_destroy(a);
        errno = e;
        return -1;
    }
}

/* Lays `a` out and checks that the memfd `fd` has the layout's size. */
static int lay_out_for(arena *a, int fd, size_t big_src, size_t big_dst)
{
    struct stat st;
    lay_out(a, big_src, big_dst);
    if (fstat(fd, &st) != 0)
        return -1;
    if ((size_t)st.st_size != a->size) {
        errno = EINVAL;
        return -1;
    }
    a->fd = fd;
    return 0;
}

int arena_attach(arena *a, int fd, size_t big_src, size_t big_dst)
{
    if (lay_out_for(a, fd, big_src, big_dst) != 0)
        return -1;
    if (map_wview(a) != 0) {
        a->fd = -1;
        return -1;
    }
    return 0;
}

int arena_attach_lazy(arena *a, int fd, size_t big_src, size_t big_dst)
{
    if (lay_out_for(a, fd, big_src, big_dst) != 0)
        return -1;
    a->wview = mmap(NULL, a->size, PROT_NONE, MAP_SHARED, fd, 0);
    if (a->wview == MAP_FAILED ||
        mprotect(a->wview, a->cells[0].req_off, PROT_READ | PROT_WRITE) != 0) {
        int e = errno;
        if (a->wview != MAP_FAILED)
            munmap(a->wview, a->size);
        a->wview = NULL;
        a->fd = -1;
        errno = e;
        return -1;
    }
    a->lazy = 1;
    return 0;
}

int arena_ready_cell(arena *a, int i)
{
    if (!a->lazy || a->ready[i])
        return 0;
    /* the guard pages stay as mapped */
    const cell *c = &a->cells[i];
    uint8_t *v = a->wview;
    if (mprotect(v + c->req_off, c->out_off + a->page - c->req_off, PROT_READ | PROT_WRITE) ||
        mprotect(v + c->src_off, c->src_size, PROT_READ) ||
        mprotect(v + c->dst_off, c->dst_size, PROT_READ | PROT_WRITE))
        return -1;
    a->ready[i] = 1;
    return 0;
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

void arena_release(arena *a, size_t off, size_t len)
{
    size_t lo = round_up(off, a->page), hi = (off + len) / a->page * a->page;
    if (hi > lo)
        fallocate(a->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)lo,
                  (off_t)(hi - lo));
}

void arena_populate(const arena *a, uint8_t *view, size_t off, size_t len, int write)
{
    if (len < ARENA_POPULATE_BYTES)
        return;
    size_t lo = off / a->page * a->page, hi = round_up(off + len, a->page);
    /* an old kernel without MADV_POPULATE_* faults the pages in as before */
    madvise(view + lo, hi - lo, write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
}

void arena_unmap_pages(const arena *a, uint8_t *view, size_t off, size_t len)
{
    if (len < ARENA_HANDOFF_BYTES)
        return;
    size_t lo = round_up(off, a->page), hi = (off + len) / a->page * a->page;
    if (hi > lo)
        madvise(view + lo, hi - lo, MADV_DONTNEED);
}

/* Reads one byte of each page of view [off, off + len), and with `write`
 * stores it back. */
static void touch_pages(const arena *a, uint8_t *view, size_t off, size_t len, int write)
{
    volatile uint8_t *v = view;
    for (size_t o = off; o < off + len; o += a->page) {
        uint8_t b = v[o];
        if (write)
            v[o] = b;
    }
}

void arena_populate_cells(const arena *a, uint8_t *view, int candidate)
{
    for (int i = 0; i < ARENA_CELLS; i++) {
        const cell *c = &a->cells[i];
        size_t head = c->out_off + a->page - c->req_off;
        madvise(view + c->req_off, head, MADV_POPULATE_WRITE);
        madvise(view + c->src_off, c->src_size, candidate ? MADV_POPULATE_READ : MADV_POPULATE_WRITE);
        madvise(view + c->dst_off, c->dst_size, MADV_POPULATE_WRITE);
        touch_pages(a, view, c->req_off, head, !candidate);
        touch_pages(a, view, c->src_off, c->src_size, !candidate);
        touch_pages(a, view, c->dst_off, c->dst_size, !candidate);
    }
}

void arena_destroy(arena *a)
{
    arena_drop_pview(a);
    arena_drop_wview(a);
    if (a->fd >= 0)
        close(a->fd);
    a->fd = -1;
}
