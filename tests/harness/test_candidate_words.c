/*
 * test_candidate_words.c - what a candidate says of itself (its name and
 * version) reaches the report and the console bounded (64 bytes) and
 * printable: a name holding a line of the harness's own stays one line.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "run_harness.h"

/* The candidate's own words: at most 64 printable bytes in the report,
 * and no line of the harness's made of them. */
Test(candidate_words, the_name_and_version_are_bounded_and_printable, .timeout = 120)
{
    run r = run_harness("--candidate " CANDS "forged_name.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report);
    json_t *cand = json_object_get(r.report, "candidate");
    const char *words[] = {json_string_value(json_object_get(cand, "name")),
                           json_string_value(json_object_get(cand, "version"))};
    for (int k = 0; k < 2; k++) {
        cr_assert_not_null(words[k]);
        cr_expect_leq(strlen(words[k]), 64, "\"%s\"", words[k]);
        for (const char *c = words[k]; *c; c++)
            cr_expect((unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f, "\"%s\"", words[k]);
    }
    cr_expect(strncmp(words[0], "forged?conformant", 17) == 0, "\"%s\"", words[0]);
    cr_expect(!strstr(r.out, "\nconformant: 9999") && !strstr(r.err, "\nconformant: 9999"),
              "%s%s", r.out, r.err);
    run_free(&r);
}
