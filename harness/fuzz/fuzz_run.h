/*
 * fuzz_run.h - one fuzzing session: batches of generated requests through
 * the engine (schedule.h), each result against the reference's outcome,
 * and every new kind of disagreement shrunk and written as a case.
 * Depends on fuzz.h, worker.h.
 */
#ifndef HARNESS_FUZZ_RUN_H
#define HARNESS_FUZZ_RUN_H

#include <stdint.h>

#include "engine/engine.h"
#include "fuzz_case.h"

typedef struct fuzz_session {
    /* settings */
    engine *e;
    const reshape_candidate *ref;   /* the reference, in this process */
    uint64_t seed;
    unsigned ops;                   /* bit 1 << op; 0: any */
    unsigned variants;              /* bit 1 << variant */
    int timeout_ms;
    long count;                     /* stop after this many requests ... */
    double seconds;                 /* ... or this many seconds (0: no limit) */
    int max_written;                /* cases written at most */
    const char *out_dir;            /* where the cases go */
    const char *candidate;          /* for the cases' header */
    /* what happened: requests = judged + skipped, shrinking's not counted */
    long requests;                  /* (case, variant) requests run */
    long judged;                    /* the candidate's answer compared with the reference's */
    long skipped;                   /* the candidate said NOT_SUPPORTED */
    long disagreements;             /* judged, and a verdict that counts against conformance */
    long cases;                     /* generated cases run, each in several variants */
    long dropped;                   /* generated cases the reference has no answer for */
    long shrink_requests;           /* requests run while shrinking and reproducing */
    int unreproduced;               /* disagreements whose shrunk case did not fail again */
    int written;                    /* cases written */
    char **kinds;                   /* the kinds shrunk, "VERDICT: kind" */
    int nkinds;
    double elapsed;
} fuzz_session;

/*
 * Runs the session: requests in batches until `count` requests or
 * `seconds` have passed.  Every request the candidate gets wrong (a verdict
 * that counts against conformance) is a disagreement; the first of each
 * kind (findings_kind, with its verdict) is shrunk to the simplest request
 * that still fails the same way in the same variant, run three more times
 * alone, and written to out_dir/ID.yaml, with the seed that found it, only
 * when each of those runs fails the same way again (else it counts in
 * `unreproduced`).
 * Prints one line per case written.  Returns 0, or -1 with a message on
 * stderr when a case cannot be written.
 */
int fuzz_run(fuzz_session *s);

/* Frees what fuzz_run left in `s`. */
void fuzz_session_free(fuzz_session *s);

#endif
