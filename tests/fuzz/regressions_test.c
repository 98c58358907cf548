/*
 * regressions_test.c - every committed fuzz input, replayed: the seed
 * corpus (tests/fuzz/corpus/<target>/, and the case files for the case
 * loader) and every input that once crashed a target
 * (tests/fuzz/regressions/<target>/), through the target's own entry
 * point built with gcc under ASan+UBSan (build/san/fuzz-replay/, see
 * replay.c).  A target that crashes, or a sanitizer report, fails.
 * Runs from the repository root (make test-fuzz-replay).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Runs the replay of `target` over the files the shell glob(s) `files`
 * name; returns its exit status, its output in out[size]. */
static int replay(const char *target, const char *files, char *out, size_t size)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=detect_leaks=1 build/san/fuzz-replay/fuzz_%s "
             "$(ls -d %s 2>/dev/null) 2>&1", target, files);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run '%s'", cmd);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    cr_assert(WIFEXITED(st), "'%s' did not exit: %s", cmd, out);
    return WEXITSTATUS(st);
}

/* Counts the files the glob `files` names. */
static int count(const char *files)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls -d %s 2>/dev/null | wc -l", files);
    FILE *p = popen(cmd, "r");
    int n = 0;
    cr_assert(p && fscanf(p, "%d", &n) == 1);
    pclose(p);
    return n;
}

static void expect_clean(const char *target, const char *files, int min_files)
{
    static char out[1 << 16];
    int n = count(files);
    cr_expect_geq(n, min_files, "%s: only %d inputs in %s", target, n, files);
    int rc = replay(target, files, out, sizeof out);
    cr_expect_eq(rc, 0, "%s on %s: exit %d\n%s", target, files, rc, out);
    cr_expect_null(strstr(out, "Sanitizer"), "%s: %s", target, out);
    cr_expect_null(strstr(out, "runtime error"), "%s: %s", target, out);
}

#define INPUTS(t) "tests/fuzz/corpus/" t "/* tests/fuzz/regressions/" t "/*"

Test(fuzz_replay, case_loader_on_every_case_file_and_regression)
{
    expect_clean("case_load", "cases/*.yaml tests/harness/data/*/*.yaml "
                 "tests/fuzz/regressions/case_load/*", 10);
}

Test(fuzz_replay, expectations_reader)
{
    expect_clean("expectations", INPUTS("expectations"), 3);
}

Test(fuzz_replay, baseline_reader)
{
    expect_clean("baseline", INPUTS("baseline"), 3);
}

Test(fuzz_replay, journal_reader)
{
    expect_clean("journal", INPUTS("journal"), 3);
}

/* the suite's hand-written cases as requests: the reference agrees with
 * itself on every one (a disagreement aborts the target) */
Test(fuzz_replay, candidate_seeds_against_the_reference)
{
    expect_clean("candidate", INPUTS("candidate"), 100);
}

Test(fuzz_replay, hostile_worker_replies)
{
    expect_clean("wire", INPUTS("wire"), 20);
}
