/*
 * special_zero_ignored.c - the special_zero attribute is never read: every
 * 0 in the shape is a literal zero dim.
 */
#include "broken.h"

static int special_zero(const reshape_params *params)
{
    (void)params;
    return 0;
}

const struct broken_defect broken_defect = {
    .name = "special_zero_ignored",
    .defect = "special_zero is ignored: a 0 is always a literal zero dim",
    .expect = "FAIL",
    .hooks = {.special_zero = special_zero},
};
