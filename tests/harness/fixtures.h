/*
 * fixtures.h - what the tests of one run of the test binary share instead
 * of making it again: a certified bundle (fixtures.c).
 *
 * The run's folder is made by the Criterion runner before the first test
 * and removed after the last (fixtures.c's report hooks); the tests find it
 * through HARNESS_FIXTURES, which the runner sets for them.  Its fixtures
 * are made under a lock by the first test that asks, with this run's
 * harness (HARNESS_BIN), and only read by the others.
 */
#ifndef TESTS_HARNESS_FIXTURES_H
#define TESTS_HARNESS_FIXTURES_H

/* Puts into folder `dir` what `certify --candidate CANDS<cand>.so --cases
 * <cases> --out X --quiet` writes into X, as `dir`/out (the bundle), and
 * its output as `dir`/certify.out.  certify runs once per run of the test
 * binary for each (cand, cases); later calls copy what it wrote.  Returns
 * certify's exit status; fails the test when the folder cannot be made or
 * copied.  Without HARNESS_FIXTURES (the runner's hook did not run) it
 * certifies into `dir` itself. */
int shared_certify(const char *cand, const char *cases, const char *dir);

/* How many times this run of the test binary has run certify for (cand,
 * cases) through shared_certify: 1 once any test asked for it. */
int shared_certify_runs(const char *cand, const char *cases);

#endif
