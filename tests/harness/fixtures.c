/*
 * fixtures.c - the run's shared fixtures (fixtures.h): the folder the
 * runner makes and removes, a bundle certified once per run, and the test
 * that it is made once and copied whole.
 *
 * Criterion runs each test in a process of its own, so a fixture lives in
 * a folder, not in memory: /tmp/harness-fixtures-XXXXXX, named in
 * HARNESS_FIXTURES, which the runner sets before it starts the first test
 * (its processes inherit it).  Each fixture has a lock file beside its
 * folder; its "code" file, written last, says that it is whole.
 */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixtures.h"
#include "run_harness.h"

#define FIXTURES_ENV "HARNESS_FIXTURES"

/* The runner's folder; empty in the test processes. */
static char run_dir[64];

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    temp_template(run_dir, sizeof run_dir, "/tmp/harness-fixtures-");
    if (mkdtemp(run_dir) != NULL)
        setenv(FIXTURES_ENV, run_dir, 1);
    else
        run_dir[0] = '\0';  /* each test certifies for itself */
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", run_dir);
    if (run_dir[0] != '\0' && system(cmd) != 0)
        fprintf(stderr, "fixtures: could not remove %s\n", run_dir);
}

/* certify into `dir`/out, its output into `dir`/certify.out. */
static int certify_into(const char *cand, const char *cases, const char *dir)
{
    return sh_status("rm -rf %s/out && %s certify --candidate " CANDS "%s.so --cases %s "
                     "--out %s/out --quiet >%s/certify.out 2>&1",
                     dir, harness_bin(), cand, cases, dir, dir);
}

/* The fixture's folder for (cand, cases) in the run's folder `root`: the
 * arguments with every character but letters, digits and '-' made '_'. */
static void fixture_home(char *buf, size_t size, const char *root, const char *cand,
                         const char *cases)
{
    int at = snprintf(buf, size, "%s/", root);
    snprintf(buf + at, size - (size_t)at, "certify-%s-%s", cand, cases);
    for (char *p = buf + at; *p != '\0'; p++)
        if (!isalnum((unsigned char)*p) && *p != '-')
            *p = '_';
}

int shared_certify(const char *cand, const char *cases, const char *dir)
{
    const char *root = getenv(FIXTURES_ENV);
    if (root == NULL || *root == '\0')
        return certify_into(cand, cases, dir);
    char home[512], path[600];
    fixture_home(home, sizeof home, root, cand, cases);
    snprintf(path, sizeof path, "%s.lock", home);
    int lock = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    cr_assert(lock >= 0, "cannot open %s: %s", path, strerror(errno));
    cr_assert_eq(flock(lock, LOCK_EX), 0, "cannot lock %s: %s", path, strerror(errno));
    int code = -1;
    snprintf(path, sizeof path, "%s/code", home);
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        cr_assert_eq(fscanf(f, "%d", &code), 1, "%s holds no exit status", path);
        fclose(f);
    } else {
        cr_assert(mkdir(home, 0700) == 0 || errno == EEXIST, "cannot make %s: %s", home,
                  strerror(errno));
        code = certify_into(cand, cases, home);
        cr_assert_eq(sh_status("echo run >>%s/runs", home), 0);
        f = fopen(path, "w");
        cr_assert_not_null(f, "cannot write %s", path);
        fprintf(f, "%d\n", code);
        cr_assert_eq(fclose(f), 0, "cannot write %s", path);
    }
    close(lock);
    cr_assert_eq(sh_status("cp -R %s/out %s/certify.out %s/", home, home, dir), 0,
                 "cannot copy the fixture %s into %s", home, dir);
    return code;
}

int shared_certify_runs(const char *cand, const char *cases)
{
    const char *root = getenv(FIXTURES_ENV);
    if (root == NULL || *root == '\0')
        return 0;
    char home[512], path[600];
    fixture_home(home, sizeof home, root, cand, cases);
    snprintf(path, sizeof path, "%s/runs", home);
    char *runs = slurp(path);
    int n = 0;
    for (const char *p = runs; (p = strchr(p, '\n')) != NULL; p++)
        n++;
    free(runs);
    return n;
}

/* Two tests' copies are the same bytes, and certify ran once for both. */
Test(fixtures, a_bundle_is_certified_once_per_run_and_copied_whole)
{
    cr_assert_not_null(getenv(FIXTURES_ENV), "the runner set no " FIXTURES_ENV);
    char a[64], b[64];
    temp_template(a, sizeof a, "/tmp/harness-fixture-a-");
    temp_template(b, sizeof b, "/tmp/harness-fixture-b-");
    cr_assert(mkdtemp(a) && mkdtemp(b));
    cr_expect_eq(shared_certify("good", BASIC, a), 0);
    cr_expect_eq(shared_certify("good", BASIC, b), 0);
    cr_expect_eq(sh_status("cmp -s %s/out/harness-test-1.tar.gz %s/out/harness-test-1.tar.gz", a, b), 0,
                 "the two copies differ");
    cr_expect_eq(sh_status("cmp -s %s/certify.out %s/certify.out && grep -q 'certify: wrote' %s/certify.out",
                    a, b, a), 0, "certify's output was not copied whole");
    cr_expect_eq(shared_certify_runs("good", BASIC), 1, "certify ran %d times",
                 shared_certify_runs("good", BASIC));
    sh_status("rm -rf %s %s", a, b);
}
