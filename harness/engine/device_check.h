/*
 * device_check.h - whether a candidate's device can be used on this
 * machine, asked once before a run (docs/harness/device.md).
 *
 * The check runs in a process of its own, `reshape-conform __device
 * CANDIDATE SANDBOX`, sandboxed as a worker is: it loads the candidate and
 * makes the device's first use there (exec_device_try: alloc, copy both
 * ways, synchronize, release), never in the harness, whose children a
 * device context would not survive into.  A device that fails it (no
 * driver, no GPU) means nothing can be tested: the run says why and exits
 * EXIT_SKIPPED.  Depends on exec.h, sandbox.h, reaper.h, jansson, POSIX.
 */
#ifndef HARNESS_DEVICE_CHECK_H
#define HARNESS_DEVICE_CHECK_H

/* The outcome of a device check. */
typedef struct device_status {
    enum {
        DEVICE_USABLE,          /* the first use worked; `name` as read after it */
        DEVICE_UNAVAILABLE,     /* a hook failed cleanly; `why` says which and why */
        DEVICE_CHECK_FAILED     /* the check died or passed its deadline; `why` */
    } state;
    char name[128];
    char why[512];
} device_status;

/* Runs the check on `candidate` (a path), with the seccomp sandbox when
 * `sandbox`, for at most `timeout_s` seconds, and fills `out`. */
void device_check(const char *candidate, int sandbox, double timeout_s, device_status *out);

/* `reshape-conform __device CANDIDATE SANDBOX`: the check's process (not a
 * user command); writes one JSON line on fd 3: {"usable": true, "name":
 * ...}, {"usable": false, "why": ...} (a hook failed) or {"why": ...} (no
 * check could be made). */
int cmd_device_worker(int argc, char **argv);

#endif
