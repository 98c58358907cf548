/*
 * scoreboard_certify_test.c - the scoreboard's certificate section
 * (candidates/scoreboard_certify.py) against the stand-in harness of
 * scoreboard_world.h: a bundle that reproduces, one whose rerun gives other
 * verdicts (a finding, not a failure), and certify or verify failing (a
 * failure of the harness: exit 3).  Depends on Criterion, libc and Debian's
 * /usr/bin/python3.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "scoreboard_world.h"

static const char *const numpy_only[] = {"numpy", NULL};

/* The certificate row every test of a reproduced NumPy bundle expects. */
static const char reproduced_row[] =
    "| NumPy 9.9 | `numpy-1.0.tar.gz`: nonconformant, 6 results, 11 members "
    "| reproduced: 6 results, every verdict as the bundle says |";

Test(scoreboard_certify, a_bundle_whose_rerun_matches_is_reproduced, .fini = remove_world)
{
    make_world(numpy_only, 3);
    cr_assert_eq(run_scoreboard(""), 0);
    char *text = scoreboard_text();
    cr_expect(strstr(text, "## Certificates: `certify` then `verify --rerun`") != NULL,
              "%s", text);
    cr_expect(strstr(text, reproduced_row) != NULL,
              "verify's exit 0 and rerun line show as reproduced:\n%s", text);
    cr_expect(world_has("reports/numpy/certificate.json"), "the outcome is kept for --render-only");
    cr_expect(world_tmp_is_empty(), "the bundle's temporary folder is removed");
}

Test(scoreboard_certify, render_only_shows_the_last_certificate_without_running,
     .fini = remove_world)
{
    make_world(numpy_only, 3);
    cr_assert_eq(run_scoreboard(""), 0);
    /* from now on any run of the harness fails */
    write_file("harness.sh", "#!/bin/sh\necho 'harness: ran' >&2\nexit 3\n", 1);
    cr_assert_eq(run_scoreboard("--render-only"), 0, "--render-only must run nothing");
    cr_expect(strstr(scoreboard_text(), reproduced_row) != NULL, "%s", scoreboard_text());
}

/* verify_numpy: the rerun gave other verdicts in 11 runs; verify shows the
 * first ones (VERIFY_SHOW, here 4) and counts the others. */
static const char verify_differs[] =
    "#!/bin/sh\n"
    "echo \"problem: rerun-verdict-mismatch: below_m2/infer: the bundle says ACCEPTED_INVALID, "
    "the rerun PASS\"\n"
    "echo \"problem: rerun-verdict-mismatch: below_m2/dense: the bundle says ACCEPTED_INVALID, "
    "the rerun PASS\"\n"
    "echo \"problem: rerun-verdict-mismatch: plain/dense: the bundle says PASS, the rerun "
    "CRASH: signal 11 (Segmentation fault) in execute\"\n"
    "echo \"problem: rerun-verdict-mismatch: copy_zero/threads: the bundle says FAIL, the "
    "rerun PASS\"\n"
    "echo \"problem: rerun-verdict-mismatch: ... and 7 more\"\n"
    "echo \"rerun: '$4' (sha256 0123456789ab...): 6 results, verdicts differ from the "
    "bundle's\"\n"
    "echo \"invalid: '$2': 5 problems\"\n"
    "exit 1\n";

Test(scoreboard_certify, verdicts_that_differ_on_rerun_are_a_finding_not_a_failure,
     .fini = remove_world)
{
    make_world(numpy_only, 3);
    write_file("verify_numpy", verify_differs, 1);
    cr_assert_eq(run_scoreboard(""), 0, "a bundle that does not reproduce is a result");
    char *text = scoreboard_text();
    cr_expect(strstr(text, "| NumPy 9.9 | `numpy-1.0.tar.gz`: nonconformant, 6 results, 11 "
                           "members | **not reproduced** (verify exit 1, rerun: 6 results, "
                           "verdicts differ from the bundle's): `problem: "
                           "rerun-verdict-mismatch: below_m2/infer: the bundle says "
                           "ACCEPTED_INVALID, the rerun PASS`; ") != NULL,
              "the rerun's first difference is shown:\n%s", text);
    cr_expect(strstr(text, "the rerun CRASH: signal 11 (Segmentation fault) in execute`; "
                           "and 8 more problems |") != NULL,
              "three problem lines, then how many more differences:\n%s", text);
    cr_expect(strstr(text, "copy_zero/threads") == NULL, "the fourth is not shown:\n%s", text);
    cr_expect(strstr(text, "reproduced: 6 results, every verdict") == NULL, "%s", text);
    cr_expect(world_tmp_is_empty(), "the bundle's temporary folder is removed");
}

Test(scoreboard_certify, verify_failing_fails_the_scoreboard_after_writing_it,
     .fini = remove_world)
{
    make_world(numpy_only, 3);
    write_file("verify_numpy",
               "#!/bin/sh\n"
               "echo \"harness: the rerun of '$4' ended with exit status 3 and no report\" >&2\n"
               "exit 3\n", 1);
    cr_assert_eq(run_scoreboard(""), 3, "a verify exit 3 is a failure of the harness");
    char *text = scoreboard_text();
    cr_expect(strstr(text, "| NumPy 9.9 | openvino_reshape_1 | **nonconformant** |") != NULL,
              "the library's run is still shown:\n%s", text);
    cr_expect(strstr(text, "| harness failed: verify exit 3: harness: the rerun of '") != NULL,
              "%s", text);
    cr_expect(world_tmp_is_empty(), "the bundle's temporary folder is removed");
}

Test(scoreboard_certify, certify_failing_fails_the_scoreboard_and_skips_verify,
     .fini = remove_world)
{
    make_world(numpy_only, 3);
    write_file("certify_numpy", "#!/bin/sh\necho 'harness: invalid case files' >&2\nexit 2\n", 1);
    write_file("verify_numpy", "#!/bin/sh\necho 'problem: verify-ran: it should not'\nexit 1\n",
               1);
    cr_assert_eq(run_scoreboard(""), 3, "a certify exit 2 is a failure of the harness");
    char *text = scoreboard_text();
    cr_expect(strstr(text, "| NumPy 9.9 |  | harness failed: certify exit 2: harness: invalid "
                           "case files |") != NULL, "%s", text);
    cr_expect(strstr(text, "verify-ran") == NULL, "%s", text);
}
