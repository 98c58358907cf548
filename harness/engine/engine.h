/*
 * engine.h - the engine layer's door (harness/ARCHITECTURE.md): running
 * requests on a candidate in isolated worker processes.  Public: wire.h
 * (the shared-memory arena and its records: the memory side of the worker
 * protocol), worker.h (slots, submitting a batch, waiting for it),
 * worker_proc.h (a worker process: its entry cmd_worker, its exit codes),
 * exec.h (the candidate's side: loading it, running one request),
 * sandbox.h (the seccomp filter), reaper.h (reaping dead workers) and
 * device_check.h (whether a candidate's device can be used here).
 * Private: deadline.h (per-request deadlines).  Uses base/ and suite/
 * (wire.h takes the case model's limits).
 */
#ifndef HARNESS_ENGINE_H
#define HARNESS_ENGINE_H

#include "wire/wire.h"
#include "worker.h"
#include "wire/channel.h"
#include "worker/exec.h"
#include "proc/sandbox.h"
#include "proc/reaper.h"
#include "device_check.h"

#endif
