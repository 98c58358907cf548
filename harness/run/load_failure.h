/*
 * load_failure.h - the results of a run whose candidate could not be
 * loaded through its own fault: it died (exit, abort, a crash) or hung in
 * dlopen, its constructors or its entry function, or was refused (a
 * missing symbol, no entry function, a wrong abi_version or struct_size, a
 * NULL member).  Such a run is not a harness failure: it finishes its
 * reports and exits 1 (docs/harness/options.md, "Exit codes").  Depends on
 * job.h and schedule.h.
 */
#ifndef HARNESS_LOAD_FAILURE_H
#define HARNESS_LOAD_FAILURE_H

#include "judge/judge.h"
#include "schedule.h"

/*
 * Hands `sink` one CRASH result for every (case, variant) of jobs[0..njobs)
 * (each case of a threads job once), whose detail is "the candidate did
 * not load: " and `message` (engine_start's: the stage, the status or
 * signal, the end of its output) made one line.
 */
void load_failure_results(const job *jobs, int njobs, const char *message, result_sink sink,
                          void *ctx);

#endif
