/*
 * exec_device.h - the candidate's side of device memory (docs/harness/device.md,
 * "Device memory"), private to worker/.  For a candidate that declares a
 * device (reshape_device), the worker mirrors the regions of a request's
 * cell that the parent staged and judges (a tensor with the canaries
 * around it and in its gaps, the moat below dst) into allocations made
 * through the candidate's hooks, calls execute with the device addresses,
 * waits with `synchronize`, copies every region back into the arena and
 * releases it: the parent then judges the arena exactly as for a host
 * candidate.  A hook that fails kills the worker with a line saying which
 * (the parent's CRASH verdict quotes it).  exec_device() and
 * exec_device_try() are public (exec.h).  Depends on exec_int.h.
 */
#ifndef HARNESS_EXEC_DEVICE_H
#define HARNESS_EXEC_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "exec_int.h"

/* A src region starts this many bytes before src (the parent's canaries
 * before src, CANARY_NEAR in judge/stage.c), rounded down so that the
 * region's length is a multiple of EXEC_DEVICE_ALIGN. */
#define EXEC_DEVICE_LEAD 64
/* Device addresses keep the arena offsets' alignment modulo this (the
 * ABI's alignment of `alloc`): a misaligned tensor is as misaligned on
 * the device. */
#define EXEC_DEVICE_ALIGN 256
/* Most regions one request mirrors: src and dst of each thread. */
#define EXEC_DEVICE_REGIONS (2 * WIRE_THREADS)

/* Arena [off, off + len) and its device copy at `dptr`. */
typedef struct dev_region {
    size_t off, len;
    uint8_t *dptr;
} dev_region;

/* The regions of one request in device memory. */
typedef struct dev_mirror {
    const reshape_candidate *cand;
    const reshape_device *d;
    const cell *cl;
    int n;
    dev_region r[EXEC_DEVICE_REGIONS];
} dev_mirror;

/* `layout` (RESHAPE_LAYOUT_* of the staged call) as supports() is asked
 * it: with RESHAPE_LAYOUT_DEVICE for a candidate with a device. */
unsigned exec_device_layout(const reshape_candidate *cand, unsigned layout);

/*
 * At load: checks the device table of `t` (struct_size at least
 * RESHAPE_DEVICE_V1_SIZE, name and the five required hooks not NULL) and
 * copies its type, id and name into `probe`.  Calls no hook.  Returns
 * NULL, or what is wrong ("has a NULL 'device->alloc'"), in a static
 * buffer.
 */
const char *exec_device_check(const reshape_candidate *t, wire_probe *probe);

/* Allocates and fills the device copy of every region of request `q` in
 * cell `cl` (its tensors seen through `view`).  Dies on a failed hook. */
void exec_device_stage(dev_mirror *m, const reshape_candidate *cand, const arena *a,
                       const cell *cl, const wire_request *q, uint8_t *view);

/* The device address of arena offset `off` (a tensor's data_off), or
 * NULL for an offset below 0. */
void *exec_device_addr(const dev_mirror *m, int64_t off);

/* Points k's src and dst at their device copies (before abuse_apply). */
void exec_device_rebase(const dev_mirror *m, abuse_call *k, const wire_call *w);

/* The candidate's `synchronize`; dies when it fails. */
void exec_device_sync(const reshape_candidate *cand);

/* Copies every region back into `view` (the src area made writable for
 * the copy) and releases its allocation.  Dies on a failed hook. */
void exec_device_unstage(dev_mirror *m, const arena *a, uint8_t *view);

/* Device memory in use by the candidate's memory_in_use, or 0 without
 * the hook; dies when it fails. */
int64_t exec_device_memory(const reshape_candidate *cand);

/*
 * For the fault handler (async-signal-safe): a fault at `addr` within a
 * page of a region of the request being carried out.  On a thread the
 * candidate started (its device), returns 1 with the arena offset the
 * address mirrors in *off, so the parent names it as for a host candidate.
 * On a thread of the harness (host code of the candidate dereferencing a
 * device address), writes a line saying so to stderr and returns 2.
 * Otherwise returns 0.
 */
int exec_device_fault(uintptr_t addr, int is_write, uint64_t *off);

/* Marks the calling thread as the harness's (exec_device_fault). */
void exec_device_host_thread(void);

#endif
