/*
 * simdev.h - a simulated accelerator, so that the harness's device path
 * (docs/harness/device.md) is tested without one.
 *
 * Device memory (memory.c) is a mapping of its own per allocation, between
 * PROT_NONE guard pages, and is itself PROT_NONE except while a hook copies
 * into or out of it or while the device runs a kernel on it: host code that
 * dereferences a device pointer faults, as on a GPU, and a kernel that
 * writes past its allocation faults on the guard.  The device (device.c) is
 * one thread that runs queued kernels in order, each after a launch latency
 * unless someone waits; `simdev_synchronize` waits for the queue to empty.
 * The candidate (candidate.c) is the reference's rules with its copy run as
 * a kernel (kernel.c); a defect file (defects/) says what, if anything, is
 * wrong with it.
 *
 * Every function is thread-safe.  Nothing is set up before the first call
 * in a process, and a forked child starts with a fresh device and no
 * allocations (the parent's are not its own).  Depends on the ABI header.
 */
#ifndef SIMDEV_H
#define SIMDEV_H

#include <stddef.h>
#include <stdint.h>

#include "reshape_candidate.h"

/* -------------------------------------------------------------- defects */

/*
 * What is wrong with one simdev candidate; defects/none.c is the correct
 * one.  `expect` is the verdict the suite gives it (reports/SCHEMA.md) on
 * at least one (case, variant), "PASS" for none.
 */
struct simdev_defect {
    const char *name;
    const char *defect;         /* one line: what is wrong */
    const char *expect;
    int band_past_dst;          /* the kernel writes this many bytes after
                                   dst's last byte, on the device */
    int sync_returns_early;     /* synchronize returns at once */
    int copies_on_host;         /* execute copies on the calling thread,
                                   dereferencing the device pointers */
    int leak_per_call;          /* execute allocates this many bytes of device
                                   memory and never releases them */
    const char *unavailable;    /* non-NULL: every alloc fails with this
                                   message, as without a driver */
    int64_t latency_ns;         /* a kernel starts this long after its launch
                                   unless someone waits for it */
};

/* Defined by the one defect file linked in. */
extern const struct simdev_defect simdev_defect;

/* --------------------------------------------------------------- memory */

/* The hooks of reshape_device: RESHAPE_OK, or RESHAPE_E_INTERNAL with the
 * calling thread's last error saying why (an address no allocation holds,
 * the mapping refused). */
reshape_status simdev_alloc(size_t bytes, void **device_ptr);
reshape_status simdev_release(void *device_ptr);
reshape_status simdev_copy_to_device(void *device_dst, const void *host_src, size_t bytes);
reshape_status simdev_copy_to_host(void *host_dst, const void *device_src, size_t bytes);
reshape_status simdev_copy_on_device(void *device_dst, const void *device_src, size_t bytes);
reshape_status simdev_memory_in_use(uint64_t *bytes);

/* Makes the allocation that holds `p` (its bytes or one past its end)
 * readable and writable until as many simdev_close(p); returns 0, or -1
 * when none holds it (the access will fault). */
int simdev_open(const void *p);
void simdev_close(const void *p);

/* Forgets every allocation, in a forked child. */
void simdev_memory_forget(void);

/* --------------------------------------------------------------- device */

typedef void (*simdev_kernel)(void *arg);

/* Queues kernel(arg) to run on the device with the allocations that hold
 * `a` and `b` open; the device frees `arg` (malloc'd) after it ran.
 * Returns RESHAPE_OK, or RESHAPE_E_INTERNAL (nothing queued). */
reshape_status simdev_launch(simdev_kernel kernel, void *arg, const void *a, const void *b);

/* Waits until every kernel launched so far has run (the hook; a defect
 * may make it return at once). */
reshape_status simdev_synchronize(void);

/* Waits as simdev_synchronize does, whatever the defect (release waits
 * for the device, as cuMemFree does). */
void simdev_drain(void);

/* ---------------------------------------------------------------- kernel */

/* reshape_device_copy (device_rules.h), kernel.c: queues the copy as a
 * kernel, or does it on the calling thread for the copies_on_host defect. */

/* Records `status` with a message as the thread's last error (the
 * reference's) and returns it. */
reshape_status simdev_fail(reshape_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* SIMDEV_H */
