/*
 * judge.h - the judge layer's door (harness/ARCHITECTURE.md): the parent's
 * side of a job.  Which variants apply to a case and the jobs of a run
 * (job.h), how each variant lays its tensors out (layout.h), staging a job
 * into a cell of an arena and judging what the candidate left there
 * (stage.h; the verdict rules in verdict*.c), and the known deviations that
 * turn a verdict into WAIVED or UNEXPECTED_PASS (expectations.h).
 * compare.h is private.  Uses base/, suite/ and engine/ (the arena's
 * records and how a batch ended).
 */
#ifndef HARNESS_JUDGE_H
#define HARNESS_JUDGE_H

#include "job.h"
#include "layout.h"
#include "stage.h"
#include "expectations.h"

#endif
