/*
 * run_steps.h - the steps of `run` (cmd_run.c) that are no option
 * parsing, private to cli/ (run_steps.c): the inputs a run is judged by,
 * the run of every job with its results as they are judged, and the
 * reports.
 */
#ifndef HARNESS_RUN_STEPS_H
#define HARNESS_RUN_STEPS_H

#include <jansson.h>

#include "suite/suite.h"
#include "engine/engine.h"
#include "judge/judge.h"
#include "run/run.h"
#include "report/report.h"

/* Prints each of the set's load errors on stderr, "FILE:LINE:COL: message"
 * (or "FILE: message" when it has no line). */
void run_print_load_errors(const case_set *set);

/*
 * Reads --expectations into `ex` and --baseline into `base` before anything
 * runs: a malformed expectations file prints every problem
 * (FILE:LINE:COL: message) and exits 2, as does a baseline that is no
 * report; an entry matching no loaded case is a warning.  Either left
 * untouched when its option is absent.
 */
void run_load_judging_inputs(const run_options *o, const case_set *set, expectations *ex,
                             baseline *base);

/*
 * The run itself: the results `rj` read back from a journal (--resume)
 * first, then the skips of the limits `probe` declares (limits.h), then
 * every other job of `jobs` through the engine `e`, judged as it
 * completes (or, when `e` is NULL, every job given the load failure
 * `load_error`: load_failure.h).  Each result is journaled, matched
 * against `ex` and shown by `pr` as it comes.  Returns the results ordered
 * by case, then variant (allocated; `*nres` of them), and in
 * `*waivers_out` the entry of `ex` that judged each (NULL: none).
 */
result *run_jobs(const run_options *o, const case_set *set, const job *jobs, int njobs,
                 engine *e, const wire_probe *probe, expectations *ex,
                 const expectation ***waivers_out, int *nres, progress *pr,
                 const char *load_error, run_journal *rj);

/*
 * The shared objects the live workers and zygotes of `e` have mapped
 * (libraries.h; when none is live, a worker is loaded for it),
 * with their packages, `candidate` (a real path) marked as the candidate
 * and the files in `self` as the harness's; NULL after a warning when no
 * worker's maps could be read.
 */
json_t *run_record_libraries(engine *e, const char *candidate, const libraries_self *self);

/* For a candidate with a device (probe->device_type set): the device check
 * (device_check.h).  Usable: the name read after its first use goes into
 * `probe`.  Not available here: stops `e`, says why and exits
 * EXIT_SKIPPED.  A check that died or hung is a warning (the run's
 * verdicts will say more).  run_device.c. */
void run_check_device(engine *e, const char *candidate, const run_options *o, wire_probe *probe);

/* Writes `report` where the options ask: --json, --junit, and --report-dir
 * (report.json, report.xml, then reports/render.py).  Exits 3 when a file
 * cannot be written. */
void run_write_reports(const run_options *o, json_t *report);

#endif
