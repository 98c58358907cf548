/*
 * expect_caught.h - what tests/broken requires of a run whose candidate
 * did something it may not: the harness alive (exit 1), its report
 * finished, the run nonconformant, the act a finding, nothing left running.
 * Depends on Criterion, run.h and tests/common/survivors.h.
 */
#ifndef TESTS_BROKEN_EXPECT_CAUGHT_H
#define TESTS_BROKEN_EXPECT_CAUGHT_H

/*
 * Asserts that the run of candidate `name` (harness exit status `rc`, its
 * log run_runs_dir()/<label>.log, its report `json`) exited 1 with a finished,
 * nonconformant report holding at least one result of verdict `expect`,
 * the first of which has `detail` in its detail, and that no process
 * carrying `mark` ("RESHAPE_HOSTILE_MARK=...") outlived it.
 */
void expect_caught(const char *name, const char *label, int rc, const char *json,
                   const char *expect, const char *detail, const char *mark);

#endif
