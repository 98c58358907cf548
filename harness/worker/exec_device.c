/*
 * exec_device.c - mirroring a request's regions into the candidate's
 * device memory and back (exec_device.h).  Depends on exec_device.h and
 * POSIX (mprotect).
 *
 * Which bytes a region holds, per area of the cell (wire.h):
 *   dst area  from the area's start in a small cell (the moat), else from
 *             the page of the first tensor in it, to the area's end;
 *   src area  from EXEC_DEVICE_LEAD bytes before the tensor, rounded down
 *             so that the length is a multiple of EXEC_DEVICE_ALIGN, to
 *             the area's end;
 *   threads   each call's src slot and its dst slots.
 * Every region ends where the arena's area does, so a device that guards
 * its allocations faults on a write past it as the arena's guard page
 * would, and the fault is named by the arena offset it mirrors.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec_device.h"

/* The regions of the request being carried out, for the fault handler. */
static dev_region fault_regions[EXEC_DEVICE_REGIONS];
static volatile int fault_nregions;
static size_t fault_page;
static _Thread_local int host_thread;

const reshape_device *exec_device(const reshape_candidate *cand)
{
    return cand && RESHAPE_CANDIDATE_HAS(cand, device) ? cand->device : NULL;
}

unsigned exec_device_layout(const reshape_candidate *cand, unsigned layout)
{
    return exec_device(cand) ? layout | RESHAPE_LAYOUT_DEVICE : layout;
}

const char *exec_device_check(const reshape_candidate *t, wire_probe *probe)
{
    static char why[160];
    const reshape_device *d = exec_device(t);
    if (!d)
        return NULL;
    if (d->struct_size < RESHAPE_DEVICE_V1_SIZE) {
        snprintf(why, sizeof why, "has a device table of struct_size %u, smaller than %zu",
                 d->struct_size, (size_t)RESHAPE_DEVICE_V1_SIZE);
        return why;
    }
    const char *null = !d->name ? "name" : !d->alloc ? "alloc" : !d->release ? "release"
                       : !d->copy_to_device ? "copy_to_device"
                       : !d->copy_to_host ? "copy_to_host" : !d->synchronize ? "synchronize" : NULL;
    if (null) {
        snprintf(why, sizeof why, "has a NULL 'device->%s'", null);
        return why;
    }
    probe->device_type = d->device_type;
    probe->device_id = d->device_id;
    snprintf(probe->device_name, sizeof probe->device_name, "%s", d->name);
    return NULL;
}

/* Says on stderr which hook failed and how, then aborts: the parent
 * judges the death (CRASH) and quotes the line. */
static _Noreturn void hook_failed(const reshape_candidate *cand, const char *hook,
                                  reshape_status st, size_t bytes)
{
    const char *name = reshape_status_name(st);
    const char *e = cand->last_error ? cand->last_error() : NULL;
    fprintf(stderr, "reshape-conform: worker: the device's %s (%zu bytes) returned %s%s%s\n",
            hook, bytes, name ? name : "an unknown status", e ? ": " : "", e ? e : "");
    abort();
}

static size_t round_down(size_t n, size_t to)
{
    return n / to * to;
}

/* The region of the area [area, end) that holds a tensor at `data`. */
static void region_for(dev_region *r, const arena *a, const cell *cl, size_t area, size_t end,
                       size_t data)
{
    if (data < area)
        data = area;
    if (data > end)
        data = end;
    size_t lo;
    if (area == cl->dst_off) {
        lo = cell_has_moat(cl) ? area : round_down(data < end ? data : end - 1, a->page);
    } else {
        size_t want = data - area < EXEC_DEVICE_LEAD ? area : data - EXEC_DEVICE_LEAD;
        size_t len = (end - want + EXEC_DEVICE_ALIGN - 1) / EXEC_DEVICE_ALIGN * EXEC_DEVICE_ALIGN;
        lo = len > end - area ? area : end - len;
    }
    if (r->len == 0 || lo < r->off) {
        r->off = lo;
        r->len = end - lo;
    }
}

/* Adds a region of `len` bytes at arena offset `off`. */
static void add(dev_mirror *m, size_t off, size_t len)
{
    if (m->n < EXEC_DEVICE_REGIONS && len > 0)
        m->r[m->n++] = (dev_region){off, len, NULL};
}

/* The regions of a single call: one per area its tensors lie in. */
static void single_regions(dev_mirror *m, const arena *a, const cell *cl, const wire_call *w)
{
    dev_region src = {0, 0, NULL}, dst = {0, 0, NULL};
    size_t src_end = cl->src_off + cl->src_size, dst_end = cl->dst_off + cl->dst_size;
    const wire_tensor *t[2] = {&w->src, &w->dst};
    for (int k = 0; k < 2; k++) {
        if (t[k]->data_off < 0)
            continue;
        size_t off = (size_t)t[k]->data_off;
        if (off >= cl->dst_off && off <= dst_end)
            region_for(&dst, a, cl, cl->dst_off, dst_end, off);
        else if (off >= cl->src_off && off <= src_end)
            region_for(&src, a, cl, cl->src_off, src_end, off);
    }
    add(m, src.off, src.len);
    add(m, dst.off, dst.len);
}

/* The regions of a threads request: each call's src slot and dst slots. */
static void thread_regions(dev_mirror *m, const cell *cl, const wire_request *q)
{
    size_t slot = q->slot_bytes > 0 ? (size_t)q->slot_bytes : 0;
    size_t iters = q->iters > 0 ? (size_t)q->iters : 0;
    size_t src_end = cl->src_off + cl->src_size, dst_end = cl->dst_off + cl->dst_size;
    for (int t = 0; t < q->ncalls && t < WIRE_THREADS; t++) {
        int64_t s = q->call[t].src.data_off, d = q->call[t].dst.data_off;
        if (s >= (int64_t)cl->src_off && (size_t)s + slot <= src_end)
            add(m, (size_t)s, slot);
        if (d >= (int64_t)cl->dst_off && (size_t)d + slot * iters <= dst_end)
            add(m, (size_t)d, slot * iters);
    }
}

void exec_device_stage(dev_mirror *m, const reshape_candidate *cand, const arena *a,
                       const cell *cl, const wire_request *q, uint8_t *view)
{
    const reshape_device *d = exec_device(cand);
    m->cand = cand;
    m->d = d;
    m->cl = cl;
    m->n = 0;
    if (q->kind == REQ_THREADS)
        thread_regions(m, cl, q);
    else
        single_regions(m, a, cl, &q->call[0]);
    for (int i = 0; i < m->n; i++) {
        dev_region *r = &m->r[i];
        void *p = NULL;
        reshape_status st = d->alloc(r->len, &p);
        if (st != RESHAPE_OK || !p)
            hook_failed(cand, "alloc", st, r->len);
        r->dptr = p;
        st = d->copy_to_device(r->dptr, view + r->off, r->len);
        if (st != RESHAPE_OK)
            hook_failed(cand, "copy_to_device", st, r->len);
    }
    fault_page = a->page;
    fault_nregions = 0;
    memcpy(fault_regions, m->r, sizeof fault_regions);
    fault_nregions = m->n;
}

void *exec_device_addr(const dev_mirror *m, int64_t off)
{
    if (off < 0)
        return NULL;
    /* a region holding the byte, else one that ends there (an empty
     * tensor at an area's end); threads' slots lie end to end */
    for (int end = 0; end < 2; end++)
        for (int i = 0; i < m->n; i++)
            if ((size_t)off >= m->r[i].off && (size_t)off < m->r[i].off + m->r[i].len + (size_t)end)
                return m->r[i].dptr + ((size_t)off - m->r[i].off);
    return NULL;
}

void exec_device_rebase(const dev_mirror *m, abuse_call *k, const wire_call *w)
{
    k->src.data = exec_device_addr(m, w->src.data_off);
    k->dst.data = exec_device_addr(m, w->dst.data_off);
}

void exec_device_sync(const reshape_candidate *cand)
{
    reshape_status st = exec_device(cand)->synchronize();
    if (st != RESHAPE_OK)
        hook_failed(cand, "synchronize", st, 0);
}

void exec_device_unstage(dev_mirror *m, const arena *a, uint8_t *view)
{
    const cell *cl = m->cl;
    fault_nregions = 0;
    /* every region read back before any is released: a release may wait
     * for the device, and what it waited for must not be seen */
    for (int i = 0; i < m->n; i++) {
        dev_region *r = &m->r[i];
        /* the candidate's view of a src area is read-only (wire.h) */
        int in_src = r->off >= cl->src_off && r->off < cl->src_off + cl->src_size;
        size_t lo = round_down(r->off, a->page), hi = r->off + r->len;
        if (in_src)
            mprotect(view + lo, hi - lo, PROT_READ | PROT_WRITE);
        reshape_status st = m->d->copy_to_host(view + r->off, r->dptr, r->len);
        if (in_src)
            mprotect(view + lo, hi - lo, PROT_READ);
        if (st != RESHAPE_OK)
            hook_failed(m->cand, "copy_to_host", st, r->len);
    }
    for (int i = 0; i < m->n; i++) {
        reshape_status st = m->d->release(m->r[i].dptr);
        if (st != RESHAPE_OK)
            hook_failed(m->cand, "release", st, m->r[i].len);
    }
    m->n = 0;
}

int64_t exec_device_memory(const reshape_candidate *cand)
{
    const reshape_device *d = exec_device(cand);
    uint64_t bytes = 0;
    if (!d || !RESHAPE_DEVICE_HAS(d, memory_in_use) || !d->memory_in_use)
        return 0;
    reshape_status st = d->memory_in_use(&bytes);
    if (st != RESHAPE_OK)
        hook_failed(cand, "memory_in_use", st, 0);
    return (int64_t)bytes;
}

int exec_device_try(const reshape_candidate *cand, char *why, size_t n)
{
    const reshape_device *d = exec_device(cand);
    uint8_t out[64], in[64];
    for (size_t i = 0; i < sizeof out; i++)
        out[i] = (uint8_t)(i * 37 + 11);
    memset(in, 0, sizeof in);
    void *p = NULL;
    const char *hook = "alloc";
    reshape_status st = d->alloc(sizeof out, &p);
    if (st == RESHAPE_OK && !p)
        st = RESHAPE_E_INTERNAL;
    if (st == RESHAPE_OK) {
        hook = "copy_to_device";
        st = d->copy_to_device(p, out, sizeof out);
    }
    if (st == RESHAPE_OK) {
        hook = "synchronize";
        st = d->synchronize();
    }
    if (st == RESHAPE_OK) {
        hook = "copy_to_host";
        st = d->copy_to_host(in, p, sizeof in);
    }
    if (p) {
        reshape_status rs = d->release(p);
        if (st == RESHAPE_OK && rs != RESHAPE_OK) {
            hook = "release";
            st = rs;
        }
    }
    if (st == RESHAPE_OK && memcmp(in, out, sizeof in)) {
        snprintf(why, n, "copy_to_host did not read back what copy_to_device wrote");
        return -1;
    }
    if (st == RESHAPE_OK)
        return 0;
    const char *name = reshape_status_name(st);
    const char *e = cand->last_error ? cand->last_error() : NULL;
    snprintf(why, n, "%s returned %s%s%s", hook, name ? name : "an unknown status",
             e ? ": " : "", e ? e : "");
    return -1;
}

void exec_device_host_thread(void)
{
    host_thread = 1;
}

/* Appends `v` in base `base` to buf[*n..) (async-signal-safe). */
static void put_num(char *buf, size_t *n, size_t size, uint64_t v, unsigned base)
{
    char t[24];
    int k = 0;
    do {
        t[k++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    while (k && *n + 1 < size)
        buf[(*n)++] = t[--k];
}

static void put_str(char *buf, size_t *n, size_t size, const char *s)
{
    while (*s && *n + 1 < size)
        buf[(*n)++] = *s++;
}

int exec_device_fault(uintptr_t addr, int is_write, uint64_t *off)
{
    int n = fault_nregions;
    for (int i = 0; i < n; i++) {
        const dev_region *r = &fault_regions[i];
        uintptr_t lo = (uintptr_t)r->dptr, hi = lo + r->len;
        if (addr + fault_page < lo || addr >= hi + fault_page)
            continue;
        if (!host_thread) {
            *off = (uint64_t)((intptr_t)r->off + (intptr_t)(addr - lo));
            return 1;
        }
        char line[256];
        size_t k = 0;
        put_str(line, &k, sizeof line, "reshape-conform: worker: host code ");
        put_str(line, &k, sizeof line, is_write > 0 ? "wrote" : is_write == 0 ? "read" : "touched");
        put_str(line, &k, sizeof line, " device memory at 0x");
        put_num(line, &k, sizeof line, addr, 16);
        put_str(line, &k, sizeof line, ": a device pointer dereferenced on the host\n");
        if (write(2, line, k) < 0) {
            /* nothing more to do in a dying worker */
        }
        return 2;
    }
    return 0;
}
