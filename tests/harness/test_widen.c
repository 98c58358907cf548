/*
 * test_widen.c - a run whose workers keep dying on a crowded machine adds
 * slots (harness/run/widen.h): the rule at its edges, then the harness on
 * a candidate whose calls nap 5 ms and crash (its slots use little CPU on
 * any machine, so the run widens wherever it runs), on the reference (no
 * death: it never widens) and with --jobs (exactly that many slots), and
 * the verdicts of a widened run against those of one that did not widen.
 */
#include <criterion/criterion.h>

#include "run/widen.h"
#include "run_harness.h"

/* A quarter of a second in which 100 of 100 batches ended in a death and
 * 2 slots used a fifth of a CPU together. */
static widen_view crashing(void)
{
    return (widen_view){.wall_ns = 250000000, .cpu_ns = 50000000, .batches = 100,
                        .deaths = 100, .slots = 2};
}

Test(widen, slots_starved_while_workers_die_widen)
{
    widen_view v = crashing();
    cr_expect_eq(widen_rule(&v), 1);
    v.cpu_ns = 249999999;               /* just under half a CPU a slot */
    cr_expect_eq(widen_rule(&v), 1);
    v.cpu_ns = 250000000;               /* half a CPU a slot: they get their share */
    cr_expect_eq(widen_rule(&v), 0);
}

Test(widen, too_few_deaths_or_mostly_living_workers_do_not)
{
    widen_view v = crashing();
    v.deaths = WIDEN_DEATHS_MIN - 1;
    v.batches = v.deaths;
    cr_expect_eq(widen_rule(&v), 0, "too few deaths to tell a rate");
    v.deaths = WIDEN_DEATHS_MIN;
    v.batches = v.deaths;
    cr_expect_eq(widen_rule(&v), 1);
    v = crashing();
    v.batches = 2 * v.deaths + 1;       /* most batches ended well */
    cr_expect_eq(widen_rule(&v), 0);
    v.batches = 2 * v.deaths;           /* half of them died */
    cr_expect_eq(widen_rule(&v), 1);
}

Test(widen, no_wall_time_or_no_slot_tells_nothing)
{
    widen_view v = crashing();
    v.wall_ns = 0;
    cr_expect_eq(widen_rule(&v), 0);
    v = crashing();
    v.slots = 0;
    cr_expect_eq(widen_rule(&v), 0);
}

#define NAPS "--candidate " CANDS "naps_then_crashes.so --cases cases --filter 'errorif_*' --quiet"

static long slots_of(const run *r, const char *k)
{
    json_t *s = json_object_get(r->report, "slots");
    cr_assert(json_is_object(s), "the report has no slots object: %s", r->err);
    return (long)json_integer_value(json_object_get(s, k));
}

/* (id, variant) -> verdict and detail of every entry, one line each. */
static char *verdict_lines(const run *r)
{
    size_t i, cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e) {
        const char *d = json_string_value(json_object_get(e, "detail"));
        int n = snprintf(NULL, 0, "%s/%s %s %s\n", field(e, "id"), field(e, "variant"),
                         field(e, "verdict"), d ? d : "");
        while (len + (size_t)n + 1 > cap)
            out = realloc(out, cap *= 2);
        snprintf(out + len, cap - len, "%s/%s %s %s\n", field(e, "id"), field(e, "variant"),
                 field(e, "verdict"), d ? d : "");
        len += (size_t)n;
    }
    out[len] = '\0';
    return out;
}

Test(widen, dying_workers_that_nap_widen_the_run_and_verdicts_stay, .timeout = 120)
{
    run wide = run_harness(NAPS);
    cr_assert_eq(wide.code, 1, "stderr: %s", wide.err);
    long first = slots_of(&wide, "first");
    cr_expect_gt(first, 0);
    cr_expect_gt(slots_of(&wide, "added"), 0, "no slot added to %ld dying ones", first);
    cr_expect_leq(slots_of(&wide, "added"), first, "more than twice the slots");
    cr_expect_gt(count_verdict(wide.report, "CRASH"), 200);

    run exact = run_harness(NAPS " --jobs %ld", first);
    cr_assert_eq(exact.code, 1, "stderr: %s", exact.err);
    cr_expect_eq(slots_of(&exact, "added"), 0, "--jobs %ld is exactly that", first);
    char *a = verdict_lines(&wide), *b = verdict_lines(&exact);
    cr_expect_str_eq(a, b, "a widened run judged otherwise");
    free(a);
    free(b);
    run_free(&wide);
    run_free(&exact);
}

Test(widen, a_run_whose_workers_live_never_widens, .timeout = 60)
{
    run r = run_harness("--candidate build/libreshape_ref.so --cases cases --filter 'errorif_*' --quiet");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_expect_eq(slots_of(&r, "added"), 0);
    run_free(&r);
}
