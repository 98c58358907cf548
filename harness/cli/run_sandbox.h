/*
 * run_sandbox.h - a run's sandbox and ground, private to cli/
 * (run_sandbox.c): the workers' policy from the run's options, with the
 * run's own inputs and outputs as secrets; what the report and the
 * terminal say of it; the files the run stands on, hashed before and
 * after (ground.h).
 */
#ifndef HARNESS_RUN_SANDBOX_H
#define HARNESS_RUN_SANDBOX_H

#include <jansson.h>

#include "suite/suite.h"
#include "engine/engine.h"
#include "run/run.h"
#include "report/report.h"

/*
 * The policy for the candidate at `candidate` (resolved) as `spec` adds
 * to it (sandbox_policy_make); its scratch folder is removed at exit too
 * (a die).  Says on stderr when root keeps its uid.  Exits 3 when the
 * scratch folder cannot be made.  Free with run_sandbox_end.
 */
sandbox_policy *run_sandbox_policy(const char *candidate, const sandbox_spec *spec);

/*
 * The policy of the run `o` for the candidate at `candidate` (resolved):
 * NULL with --sandbox off or --isolation none, else run_sandbox_policy
 * with the run's --cases, --expectations, --baseline, --json, --junit,
 * --report-dir, --journal, --resume and --sandbox-deny paths as secrets,
 * reading --sandbox-allow and changing --sandbox-allow-write too.
 */
sandbox_policy *run_sandbox_start(const run_options *o, const char *candidate);

/*
 * The report's account of the sandbox (host.sandbox, reports/SCHEMA.md)
 * under policy `p` (NULL: off) from what the observer saw (`s`, NULL:
 * nothing): the layers the workers got, the refused acts that stopped
 * none; prints the same as warnings when a layer is missing or an act was
 * refused.  New reference.
 */
json_t *run_sandbox_json(const sandbox_summary *s, const sandbox_policy *p);

/* Removes the scratch folder and frees `p` (NULL: nothing). */
void run_sandbox_end(sandbox_policy *p);

/* Hashes what run `o` stands on: the case files of `set` (and its case
 * folders), the candidate, the reference, the harness binary, the
 * expectations and the baseline. */
void run_ground_start(ground *g, const run_options *o, const case_set *set,
                      const char *candidate);

/* Checks them again: EXIT_CONFORMANT, or EXIT_HARNESS with the first
 * change on stderr.  Frees `g`. */
int run_ground_check(ground *g);

#endif
