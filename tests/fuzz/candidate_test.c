/*
 * candidate_test.c - the libFuzzer target fuzz_candidate.c for a few
 * seconds (make test-fuzz-candidate): against the reference it finds
 * nothing; against build/broken/special_zero_ignored.so it finds the
 * defect, and the input it kept becomes a YAML case (RESHAPE_FUZZ_CASES)
 * that the loader reads, the reference passes and the broken candidate
 * fails.  Seeds: tests/fuzz/corpus/candidate/ (the hand-written cases);
 * dictionary: tests/fuzz/candidate.dict.  Runs from the repository root.
 */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TARGET "build/fuzz/bin/fuzz_candidate"
#define BROKEN "build/broken/special_zero_ignored.so"

/* Runs the shell command `fmt`; returns its exit status, its output (both
 * streams) in out[size]. */
static int sh(char *out, size_t size, const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run '%s'", cmd);
    size_t n = 0, k;
    while (n < size - 1 && (k = fread(out + n, 1, size - 1 - n, p)) > 0)
        n += k;
    out[n] = '\0';
    char rest[4096];
    while (fread(rest, 1, sizeof rest, p) > 0)
        ;       /* what does not fit is read, so the command never blocks */
    int st = pclose(p);
    cr_assert(WIFEXITED(st), "'%s' did not exit", cmd);
    return WEXITSTATUS(st);
}

/* libFuzzer over the seeds for `seconds`, the kept inputs in DIR/corpus,
 * a finding in DIR/crash-*. */
static int fuzz(const char *dir, const char *candidate, int seconds, char *out, size_t size)
{
    return sh(out, size, "mkdir -p %s/corpus && RESHAPE_FUZZ_CANDIDATE=%s " TARGET
              " -max_total_time=%d -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 "
              "-dict=tests/fuzz/candidate.dict -artifact_prefix=%s/ %s/corpus "
              "tests/fuzz/corpus/candidate", dir, candidate, seconds, dir, dir);
}

static int count(const char *pattern)
{
    glob_t g;
    int n = glob(pattern, 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
    globfree(&g);
    return n;
}

static char out[1 << 20];

Test(fuzz_candidate, the_reference_against_itself_finds_nothing, .timeout = 120)
{
    char dir[] = "/tmp/fuzz-cand-ref-XXXXXX";
    cr_assert(mkdtemp(dir));
    int rc = fuzz(dir, "build/libreshape_ref.so", 3, out, sizeof out);
    cr_expect_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "stat::number_of_executed_units"), "%s", out);
    char crashes[128];
    snprintf(crashes, sizeof crashes, "%s/crash-*", dir);
    cr_expect_eq(count(crashes), 0, "%s", out);
    sh(out, sizeof out, "rm -rf %s", dir);
}

Test(fuzz_candidate, a_broken_candidate_is_found_and_becomes_a_case, .timeout = 120)
{
    char dir[] = "/tmp/fuzz-cand-broken-XXXXXX";
    cr_assert(mkdtemp(dir));
    int rc = fuzz(dir, BROKEN, 30, out, sizeof out);
    cr_expect_neq(rc, 0, "the defect was not found: %s", out);
    cr_expect(strstr(out, "fuzz_candidate: FAIL in "), "%s", out);
    char crashes[128];
    snprintf(crashes, sizeof crashes, "%s/crash-*", dir);
    cr_assert_eq(count(crashes), 1, "%s", out);

    /* the kept input, written as a case by the same target */
    rc = sh(out, sizeof out, "mkdir -p %s/cases && RESHAPE_FUZZ_CASES=%s/cases "
            "RESHAPE_FUZZ_CANDIDATE=" BROKEN " " TARGET " %s/crash-*", dir, dir, dir);
    cr_expect_eq(rc, 0, "%s", out);
    char yaml[128];
    snprintf(yaml, sizeof yaml, "%s/cases/*.yaml", dir);
    cr_assert_eq(count(yaml), 1, "%s", out);
    cr_expect_eq(sh(out, sizeof out, "build/reshape-conform --quiet --cases %s/cases", dir), 0,
                 "the reference fails the case: %s", out);
    cr_expect_eq(sh(out, sizeof out, "build/reshape-conform --quiet --cases %s/cases "
                    "--candidate " BROKEN, dir), 1, "the broken candidate passes it: %s", out);
    sh(out, sizeof out, "rm -rf %s", dir);
}
