/*
 * progress.h - what a run prints while it runs: a live line on a terminal
 * (done/total, rate, counts by verdict, ETA) or a plain line every few
 * seconds otherwise, both on stderr; with --verbose one line per
 * non-passing (case, variant) on stdout (findings.h prints the findings
 * otherwise); the summary line last.  NO_COLOR (set and not
 * empty) turns colour off.  Depends on job.h.
 */
#ifndef HARNESS_PROGRESS_H
#define HARNESS_PROGRESS_H

#include <stdio.h>

#include "suite/suite.h"
#include "judge/judge.h"

typedef struct progress {
    int live;           /* stderr is a terminal: redraw one line */
    int color;          /* stdout is a terminal and NO_COLOR is unset */
    int quiet;          /* no progress at all */
    int verbose;        /* a line for every run that did not pass */
    int shown;          /* a live line is on screen */
    double start, last;
    long total, done;
    long counts[VD_COUNT];
    long rerun, confirmed;  /* run again with the full budget (schedule.h),
                               TIMEOUTs among them */
} progress;

void progress_init(progress *p, long total, int quiet, int verbose);

/* Counts `r` and, with `verbose`, prints its line if it did not pass;
 * redraws the live line at most ten times a second. */
void progress_result(progress *p, const rcase *c, const result *r);

/*
 * Clears the live line and prints the summary line to stdout:
 * "VERDICT: N runs of M cases in T s (R/s): a PASS, b FAIL, ...; E load
 * errors", where T is `seconds`, the run's duration.
 */
void progress_finish(progress *p, double seconds, long ncases, int load_errors,
                     const char *verdict_word);

#endif
