/*
 * test_scratch.c - the scratch folder as a tmpfs of each slot's own mount
 * namespace (docs/harness/sandbox.md): what a candidate leaves there
 * goes with its workers, however deep (a chain of folders past PATH_MAX),
 * its size is bounded (--sandbox-scratch-mb), and a FIFO put where a
 * mapped library was never blocks the library recorder (--libraries).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "run_harness.h"

/* Runs `cand` with $TMPDIR a folder of the test's and `more` options;
 * the run must be conformant and leave that folder empty. */
static run scratch_run(const char *cand, const char *more)
{
    char tmp[64];
    temp_template(tmp, sizeof tmp, "/tmp/scratch-test-");
    cr_assert(mkdtemp(tmp));
    chmod(tmp, 0755);
    setenv("TMPDIR", tmp, 1);
    run r = run_harness("--candidate " CANDS "%s.so --cases " BASIC " --jobs 2 --quiet %s", cand,
                        more);
    unsetenv("TMPDIR");
    cr_expect_eq(r.code, 0, "%s: exit %d: %s%s", cand, r.code, r.out, r.err);
    cr_expect_not_null(r.report, "%s: no report", cand);
    cr_expect(dir_is_empty(tmp), "%s: the run left files in %s", cand, tmp);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    cr_expect_eq(system(cmd), 0);
    return r;
}

Test(scratch, a_chain_deeper_than_path_max_goes_with_the_run, .timeout = 120)
{
    run r = scratch_run("leaves_deep_directory_chain", "");
    run_free(&r);
}

Test(scratch, its_size_is_bounded, .timeout = 120)
{
    /* the candidate fails the trigger case when 64 MiB fit */
    run r = scratch_run("fills_scratch", "--sandbox-scratch-mb 16");
    cr_expect_eq(count_verdict(r.report, "FAIL") + count_verdict(r.report, "CRASH"), 0, "%s",
                 r.out);
    run_free(&r);
}

Test(scratch, a_fifo_in_place_of_a_mapped_library_never_blocks_the_recorder, .timeout = 120)
{
    run r = scratch_run("maps_a_fifo_as_library", "--libraries");
    cr_assert_not_null(r.report);
    json_t *libs = json_object_get(r.report, "libraries"), *e;
    size_t i, seen = 0;
    json_array_foreach(libs, i, e) {
        const char *path = json_string_value(json_object_get(e, "path"));
        const char *sha = json_string_value(json_object_get(e, "sha256"));
        if (!path || !strstr(path, "/fake.so"))
            continue;
        seen++;
        cr_expect(!strcmp(sha, "unreadable") || !strcmp(sha, "not a regular file"),
                  "the mapped file's entry says \"%s\"", sha);
    }
    cr_expect_gt(seen, 0, "the mapping is not among the libraries: %s", r.err);
    run_free(&r);
}
