/*
 * below_minus_one_as_minus_one.c - any negative shape value is taken as
 * the -1 ("is it negative?" instead of "is it -1?").
 */
#include "broken.h"

static reshape_status check_value(int64_t *value)
{
    if (*value < 0)
        *value = -1;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "below_minus_one_as_minus_one",
    .defect = "values below -1 are treated as -1",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.check_value = check_value},
};
