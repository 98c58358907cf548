/*
 * exec_int.h - what the files of the candidate's side share, private to
 * worker/ (exec.h is the side's interface to the worker process): the
 * arguments of one call built from the wire records (exec_call.c), the
 * threads variant (exec_threads.c), the request being carried out, for the
 * fault handler (exec_fault.c).  Depends on exec.h.
 */
#ifndef HARNESS_EXEC_INT_H
#define HARNESS_EXEC_INT_H

#include <stdint.h>

#include "exec.h"

/*
 * One call's arguments, the worker's own: the tensors' strides and the
 * shape values are copies followed by poison (a negative stride, 0xA5
 * bytes), so that a candidate reading one stride or one shape value past
 * the end sees a value that changes its answer instead of the zeros that
 * follow them in the request.  `k` is the call as abuse.h describes it.
 */
typedef struct call_args {
    abuse_call k;
    int64_t strides[2][RESHAPE_MAX_RANK + 1];
    _Alignas(8) uint8_t shape_data[CASE_SHAPE_VALUES_MAX * 8 + 8];
} call_args;

/* Fills `c` with call `w`'s arguments over `view` (the candidate's view
 * of the arena): tensors, strides and shape values copied, then poison. */
void exec_make_call(call_args *c, const wire_call *w, uint8_t *view);

/* CLOCK_MONOTONIC, in nanoseconds: the calls are timed with it. */
int64_t exec_monotonic_ns(void);

/* The threads variant of request `q` in cell `cl` of `a`: WIRE_THREADS
 * threads, each calling execute on its own case (on device memory for a
 * candidate with a device); statuses and overlaps into `r`
 * (exec_threads.c). */
void exec_run_threads(const arena *a, const cell *cl, const wire_request *q, wire_response *r,
                      uint8_t *view, const reshape_candidate *cand);

/* Names `r` as the response of the request being carried out (NULL:
 * none), for the fault handler to record a fault in (exec_fault.c). */
void exec_fault_track(wire_response *r);

#endif
