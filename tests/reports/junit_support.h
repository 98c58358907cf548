/*
 * junit_support.h - what the JUnit tests (junit.c, junit_known.c) share:
 * running the harness (JT_HARNESS) on a candidate over the hand-written
 * OpenVINO cases with a JSON and a JUnit report, and validating a file
 * with xmllint against a schema: tests/reports/junit.xsd (the project's
 * reading of the common readers) or Jenkins' junit-10.xsd, whose path the
 * environment variable JUNIT_XSD gives (make's JUNIT_XSD, tests/ci/build.mk).
 */
#ifndef REPORTS_TEST_JUNIT_SUPPORT_H
#define REPORTS_TEST_JUNIT_SUPPORT_H

#include <stddef.h>

/* The harness these tests run: REPORTS_HARNESS, or build/reshape-conform
 * (test-reports-san gives build/san/reshape-conform). */
#define JT_HARNESS jt_harness()
const char *jt_harness(void);

#define JT_XSD "tests/reports/junit.xsd"
#define JT_CASES "cases/openvino_reshape_1.yaml"

/* The path of Jenkins' junit-10.xsd from the environment's JUNIT_XSD; the
 * test is skipped (Criterion's skip, with the reason and the variable) when
 * it is unset or names no readable file, as in a clone with nothing beside
 * it.  Call it before the work it guards. */
const char *jt_jenkins_xsd(void);

/* Validates `xml` against the schema `xsd` with `xmllint --noout --schema`,
 * its output kept in `dir` (stdout.txt, stderr.txt: what did not validate);
 * returns xmllint's exit status. */
int jt_xmllint(const char *xml, const char *xsd, const char *dir);

/*
 * Runs the harness on `candidate` over JT_CASES, variants dense and infer,
 * with `extra` (NULL-terminated, may be NULL) added to the command line,
 * writing report.json and report.xml into a fresh workdir `name`, and
 * asserts its exit status is `want_exit`.  Returns the workdir (the caller
 * frees it).
 */
char *jt_run(const char *name, const char *candidate, int want_exit, const char *const extra[]);

/* The number of entries of the JSON report at `path` whose verdict is one
 * of the NULL-terminated `verdicts`. */
size_t jt_verdicts(const char *path, const char *const verdicts[]);

#endif
