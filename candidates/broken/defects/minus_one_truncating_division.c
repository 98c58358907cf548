/*
 * minus_one_truncating_division.c - the -1 is solved by integer division
 * without testing the remainder: [7] to [2, -1] gives [2, 3].
 */
#include "broken.h"

static reshape_status solve_minus_one(int64_t volume, int64_t known,
                                      int64_t *dim)
{
    if (known == 0)
        return RESHAPE_E_ZERO_AND_MINUS_ONE;
    *dim = volume / known;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "minus_one_truncating_division",
    .defect = "the -1 is volume / known truncated; no divisibility check",
    /* its infer entries: executing into the dims it infers ([7] to [2, 3])
     * writes the seventh element past dst (the harness's follow-up of an
     * accepted error case, docs/harness/verdicts.md) */
    .expect = "MEMORY_VIOLATION",
    .hooks = {.solve_minus_one = solve_minus_one},
};
