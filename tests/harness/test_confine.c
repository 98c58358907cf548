/*
 * test_confine.c - the workers' confinement (docs/harness/sandbox.md)
 * through the real binary: the scratch folder is the candidate's (TMPDIR,
 * HOME, cwd) and is gone after the run; a read outside what it may read
 * fails and is a finding that stops the worker, and --sandbox-allow opens
 * it; a secret read while loading stops the load and says so; a worker may name its own threads;
 * perf's workers are confined alike; a refused act of a process the
 * candidate started is a finding too;
 * the report says which layers the workers got.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "run_harness.h"

static json_t *sandbox_of(json_t *report)
{
    return json_object_get(json_object_get(report, "host"), "sandbox");
}

/* The scratch folder is made below $TMPDIR: a folder of the test's, open
 * to others (`mode` 0755; as root the workers drop to nobody) or not (0700:
 * nobody cannot reach it, so the scratch folder moves to /tmp; no
 * capability is kept either way). */
static void scratch_works(mode_t mode)
{
    char tmp[64];
    temp_template(tmp, sizeof tmp, "/tmp/confine-tmp-");
    cr_assert(mkdtemp(tmp));
    chmod(tmp, mode);
    setenv("TMPDIR", tmp, 1);
    run r = run_harness("--candidate " CANDS "uses_scratch.so --cases " BASIC " --quiet");
    unsetenv("TMPDIR");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report);
    cr_expect_eq(count_verdict(r.report, "FAIL") + count_verdict(r.report, "CRASH"), 0,
                 "the candidate could not use its scratch folder: %s", r.out);
    json_t *sb = sandbox_of(r.report);
    cr_assert(json_is_true(json_object_get(sb, "enabled")), "%s", r.err);
    cr_expect(dir_is_empty(tmp), "the scratch folder in %s outlived the run", tmp);
    rmdir(tmp);
    cr_expect(!strstr(r.err, "CAP_DAC_READ_SEARCH"), "a capability kept: %s", r.err);
    cr_expect(json_is_true(json_object_get(sb, "root_dropped")) || geteuid() != 0);
    cr_expect_eq(json_array_size(json_object_get(sb, "refused_acts")), 0, "%s", r.err);
    /* a layer this kernel lacks is a warning, never silent */
    if (json_integer_value(json_object_get(sb, "landlock_abi")) == 0)
        cr_expect_gt(json_array_size(json_object_get(sb, "warnings")), 0);
    run_free(&r);
}

Test(confine, the_scratch_folder_is_the_candidates_and_goes_with_the_run)
{
    scratch_works(0755);
    scratch_works(0700);
}

Test(confine, a_refused_read_is_a_finding_and_sandbox_allow_opens_it)
{
    char dir[64], path[96];
    temp_template(dir, sizeof dir, "/tmp/confine-test-");
    cr_assert(mkdtemp(dir));
    chmod(dir, 0755);   /* open to the dropped uid: only the policy refuses it */
    snprintf(path, sizeof path, "%s/plain.txt", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("nothing secret\n", f);
    fclose(f);
    setenv("RESHAPE_TEST_READ", path, 1);
    run r = run_harness("--candidate " CANDS "reads_outside.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "a refused read, even of no secret, is a finding: %s%s", r.out,
                 r.err);
    cr_assert_not_null(r.report);
    char want[256];
    snprintf(want, sizeof want, "it tried to read %s (the worker was stopped)", path);
    cr_expect_gt(count_verdict(r.report, "CRASH"), 0, "%s", r.out);
    size_t i, found = 0;
    json_t *e;
    json_array_foreach(json_object_get(r.report, "cases"), i, e) {
        const char *d = json_string_value(json_object_get(e, "detail"));
        found += d && strstr(d, want);
    }
    cr_expect_gt(found, 0, "no result says \"%s\": %s", want, r.out);
    run_free(&r);

    r = run_harness("--candidate " CANDS "reads_outside.so --cases " BASIC " --quiet "
                    "--sandbox-allow %s", dir);
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report);
    cr_expect_eq(json_array_size(json_object_get(sandbox_of(r.report), "refused_acts")), 0,
                 "%s", r.err);
    cr_expect_str_eq(json_string_value(json_array_get(
                         json_object_get(json_object_get(r.report, "options"), "sandbox_allow"),
                         0)), dir, "the report records --sandbox-allow");
    run_free(&r);
    unsetenv("RESHAPE_TEST_READ");
    remove(path);
    rmdir(dir);
}

Test(confine, a_secret_read_while_loading_stops_the_load)
{
    run r = run_harness("--candidate " CANDS "ctor_reads_shadow.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_assert_not_null(r.report, "a finished report");
    cr_expect_eq(count_verdict(r.report, "CRASH"),
                 json_array_size(json_object_get(r.report, "cases")));
    const char *d = json_string_value(json_object_get(
        json_array_get(json_object_get(r.report, "cases"), 0), "detail"));
    cr_assert_not_null(d);
    cr_expect(strstr(d, "the sandbox stopped candidate '"), "%s", d);
    cr_expect(strstr(d, "while loading, in dlopen (its constructors): it tried to read "
                        "/etc/shadow"), "%s", d);
    run_free(&r);
}

Test(confine, a_worker_may_name_its_own_threads)
{
    /* pthread_setname_np on another thread writes /proc/self/task/TID/comm:
     * the observer opens it for the worker (Landlock cannot grant a forked
     * worker its own /proc entry), and it is no refused act */
    run r = run_harness("--candidate " CANDS "names_its_threads.so --cases " BASIC
                        " --variants dense,infer");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert(r.report);
    cr_expect_eq(json_array_size(json_object_get(sandbox_of(r.report), "refused_acts")), 0);
    run_free(&r);
}

Test(confine, a_worker_may_read_proc_mounts)
{
    /* /proc/mounts is a link to self/mounts: the observer resolves it as the
     * worker's own entry, not the harness's (which was "another process's") */
    run r = run_harness("--candidate " CANDS "reads_proc_mounts.so --cases " BASIC
                        " --variants dense,infer");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert(r.report);
    cr_expect_eq(json_array_size(json_object_get(sandbox_of(r.report), "refused_acts")), 0);
    run_free(&r);
}

Test(confine, perf_workers_are_confined_too)
{
    run r = run_harness("perf --candidate " CANDS "ctor_reads_shadow.so --max-size 4K "
                        "--point-seconds 0.01 --op openvino_reshape_1 --quiet");
    cr_expect_eq(r.code, 1, "%s", r.err);
    cr_expect(strstr(r.err, "the sandbox stopped the candidate: it tried to read /etc/shadow"),
              "%s", r.err);
    run_free(&r);
}

Test(confine, sandbox_off_is_in_the_report_and_the_options_in_help)
{
    run r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet --sandbox off");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report);
    cr_expect(json_is_false(json_object_get(sandbox_of(r.report), "enabled")));
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(r.report, "options"),
                                                       "sandbox")), "off");
    run_free(&r);
    r = run_harness("--help");
    cr_expect(strstr(r.out, "--sandbox-allow PATH"), "%s", r.out);
    cr_expect(strstr(r.out, "--sandbox-deny PATH"), "%s", r.out);
    run_free(&r);
}

Test(confine, a_refused_act_of_a_process_the_candidate_started_is_a_finding)
{
    run r = run_harness("--candidate " CANDS "child_reads_cmdline.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report);
    cr_expect_gt(count_verdict(r.report, "CRASH"), 0, "%s", r.out);
    cr_expect(strstr(r.out, "it tried to read /proc/1/cmdline (another process's) (the worker "
                            "was stopped)"), "%s", r.out);
    run_free(&r);
}
