/*
 * run_journal.h - the journal of one run (journal.h) as cmd_run.c uses it:
 * where it goes, resuming from one (`--resume JOURNAL`), which jobs are
 * already done.  Depends on journal.h, case.h, job.h, options.h.
 */
#ifndef HARNESS_RUN_JOURNAL_H
#define HARNESS_RUN_JOURNAL_H

#include "suite/suite.h"
#include "judge/judge.h"
#include "run/run.h"
#include "journal.h"

typedef struct run_journal {
    journal_writer *w;      /* NULL: this run keeps no journal */
    char *path;
    int remove_after;       /* the default DIR/journal.jsonl: gone once the reports are */
    result *pre;            /* results read back on resume, strings owned */
    int npre;
} run_journal;

/*
 * Reads the journal `path` for --resume into `j`, prints a warning for a
 * torn last line, and returns the header's argv (argc in *argc; the
 * strings belong to `j`; the array is new).  Exits 2 with "PATH:LINE:
 * message" when the journal cannot be read or is not a valid one.
 */
char **run_journal_load(journal *j, const char *path, int *argc);

/*
 * For `--resume JOURNAL` (o->resume): reads the journal into `j`
 * (run_journal_load), checks the options given beside --resume against its
 * header (run_journal_check_options) when there are any, then makes `o`
 * the journal's run options, parsed from its argv by `parse` (cmd_run.c's
 * option parser), keeping --resume, --quiet and --verbose as given.
 * Returns the argv array to free after the run (its strings belong to `j`).
 */
char **run_journal_resume_options(run_options *o, journal *j,
                                  void (*parse)(run_options *, int, char **));

/*
 * Exits 2 when options `given` (the command line beside --resume) differ
 * from the journal header's, naming the first option that differs.  The
 * report's options objects are compared, argv aside.  Frees the lists of
 * `given` (cases, tags, op_names), which the journal's options replace.
 */
void run_journal_check_options(const journal *j, const run_options *given);

/*
 * Sets up the journal of a run.  With `resumed` (a journal read by
 * run_journal_load, NULL otherwise): checks that the candidate file
 * (`candidate_sha256`) and the suite (set->cases_sha256) are those of its
 * header (exit 2 naming both digests otherwise), takes its results for the
 * jobs of jobs[0..*njobs) whose every (case, variant) it holds (a later
 * entry replaces an earlier one), removes those jobs from `jobs` (order
 * kept) and goes on appending to it.  Without: a new journal at
 * o->journal, else at o->report_dir/journal.jsonl (removed by
 * run_journal_finish), else none.  Exits 3 when it cannot be written.
 */
void run_journal_open(run_journal *rj, const run_options *o, const journal *resumed,
                      const char *candidate_sha256, const case_set *set,
                      const char *started_utc, job *jobs, int *njobs);

/* Closes the journal after the reports are written, and removes it when
 * it is the default one. */
void run_journal_finish(run_journal *rj);

#endif
