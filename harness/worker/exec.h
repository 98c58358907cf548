/*
 * exec.h - the candidate's side of the wire: loading the candidate and
 * carrying out one request against the candidate's view of an arena.  Runs
 * in a worker process, or in the harness itself with --isolation none.
 * Never judges: it only records statuses for the parent.
 */
#ifndef HARNESS_EXEC_H
#define HARNESS_EXEC_H

#include "reshape_candidate.h"
#include "wire/wire.h"

/*
 * dlopens the candidate at `path`, resolves RESHAPE_CANDIDATE_ENTRY, calls
 * it and checks the table: abi_version == RESHAPE_ABI_VERSION, struct_size
 * at least RESHAPE_CANDIDATE_V1_SIZE, non-NULL name, version, supports,
 * infer_shape and execute.  Fills `probe` (state 1 and the table's facts,
 * or state 2 and a message in the project's style).  Returns the table, or
 * NULL when refused.
 */
const reshape_candidate *candidate_open(const char *path, wire_probe *probe);

/* candidate_open, dlopen-ing `load` ("/proc/self/fd/N": a descriptor the
 * sandbox opened before dropping root, sandbox_load_path) while every
 * message names the candidate by `path`. */
const reshape_candidate *candidate_open_as(const char *load, const char *path,
                                           wire_probe *probe);

/* The device `cand` declares (reshape_device: its table covers the field
 * and it is not NULL), or NULL: its tensors are in host memory. */
const reshape_device *exec_device(const reshape_candidate *cand);

/*
 * The device's first use in this process (exec_device.c): alloc,
 * copy_to_device, synchronize, copy_to_host and release of a few bytes,
 * the bytes checked.  Returns 0, or -1 with `why` (of `n` bytes) saying
 * which hook failed and the candidate's last_error ("alloc returned
 * INTERNAL: cannot load libcuda.so.1 ...").  Never in a process that forks
 * workers afterwards (device_check.h, perf's worker).
 */
int exec_device_try(const reshape_candidate *cand, char *why, size_t n);

/* When >= 0 (a worker's pipe to the parent), candidate_open writes
 * EXEC_STAGE_ENTRY (wire/channel.h) to it after dlopen (and the constructors) returned and
 * before it calls the entry function, so that the parent can say at which
 * stage a candidate died while loading. */
extern int candidate_stage_fd;


/*
 * Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT (on an
 * alternate stack) that record the signal and fault address in the
 * response of the request being carried out in `a` (seen through `view`),
 * write EXEC_DYING (wire/channel.h) to `notify_fd` (so that the parent need not wait for
 * the dying process to be torn down), and then let the signal kill the
 * process.  For worker processes only.
 */
void exec_install_fault_handler(const arena *a, uint8_t *view, int notify_fd);

/*
 * For a handler about to let signal `sig` kill the worker (the sandbox's
 * SIGSYS): records `sig` and `code` (the system call's number) as the
 * fault of the request being carried out, unless one is recorded already,
 * and writes EXEC_DYING to the parent.  Async-signal-safe; does nothing
 * before exec_install_fault_handler or between requests (sig 0 records
 * nothing and only notifies).
 */
void exec_record_death(int sig, uint64_t code);

/*
 * The repeat variant's memory is measured by the parent (census.h): at
 * each sampling point a worker writes EXEC_SAMPLE (wire/channel.h) to `resp_fd` and waits
 * for one byte on `req_fd` while the parent reads its /proc files.  Set by
 * a worker before its first batch; unset (in-process), nothing is sent.
 */
void exec_set_sampler(int req_fd, int resp_fd);

/*
 * Makes the calling process a worker whose calls' output is sealed as they
 * return (exec_seal.h): the pages the parent judges are made read-only
 * right after each call, and the calling process and thread are noted as
 * the worker's, for the fault handler to tell the candidate's threads and
 * processes apart.  Set by a worker before its first batch; unset
 * (in-process), nothing is sealed.
 */
void exec_seal_worker(void);

/* Carries out the request in cell `c` of `a` (seen through `view`, the
 * candidate's view) and fills the cell's response. */
void exec_request(const arena *a, const cell *c, uint8_t *view, const reshape_candidate *cand);

/*
 * Carries out the batch of `a`: the requests of batch->cells[0..n) in
 * order, storing batch->started_ns and then batch->running = k before
 * request k and running = n after the last (wire.h).  A cell of a lazily
 * attached view is made ready just before its request (arena_ready_cell).
 */
void exec_batch(arena *a, uint8_t *view, const reshape_candidate *cand);

#endif
