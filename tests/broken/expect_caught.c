/*
 * expect_caught.c - the checks of expect_caught.h, shared by the hostile,
 * reach and trust tests.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "../common/survivors.h"
#include "expect_caught.h"
#include "run.h"

void expect_caught(const char *name, const char *label, int rc, const char *json,
                   const char *expect, const char *detail, const char *mark)
{
    cr_assert_eq(rc, 1, "%s: the harness exited with %d (1 expected); see %s/%s.log", name, rc,
                 run_runs_dir(), label);
    struct run_summary s;
    cr_assert_eq(run_summarize(json, expect, &s), 0, "%s: no finished report: %s", name,
                 s.error);
    cr_expect_str_eq(s.verdict, "nonconformant");
    cr_expect_gt(s.caught_expected, 0, "%s: never %s; see %s", name, expect, json);
    cr_expect(strstr(s.first_detail, detail), "%s: the first %s says \"%s\", not \"%s\"", name,
              expect, s.first_detail, detail);
    cr_expect_eq(survivors(mark), 0, "%s: processes outlived the run", name);
}
