/*
 * proc.h - the proc layer's door (harness/ARCHITECTURE.md): what both
 * sides of the worker protocol use, below it: reaping and finding a
 * process's descendants (reaper.h), the process groups the harness may
 * kill (groups.h), the bounds on a run's processes (bounds.h), the
 * sandbox's policy and its observed calls (sandbox.h), the program a
 * slot runs (worker_exe.h) and the CPU a slot's processes start on
 * (cpus.h).  Linked into the harness and into
 * reshape-conform-worker.  Private: sandbox_uid.h.  Uses base/.
 */
#ifndef HARNESS_PROC_H
#define HARNESS_PROC_H

#include "reaper.h"
#include "groups.h"
#include "bounds.h"
#include "sandbox.h"
#include "worker_exe.h"
#include "cpus.h"

#endif
